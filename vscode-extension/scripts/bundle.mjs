// Bundle src/extension.ts and its dependencies into dist/extension.js; `vscode` is provided by the editor.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export async function bundle() {
  await build({
    entryPoints: [join(root, "src", "extension.ts")],
    outfile: join(root, "dist", "extension.js"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node18",
    external: ["vscode"],
    minify: true,
    sourcemap: false,
    logLevel: "info",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
}
