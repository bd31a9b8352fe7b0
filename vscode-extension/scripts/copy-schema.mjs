// Copy the syllabus JSON Schema from grammar/ so that it is never duplicated by hand.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SCHEMA_SOURCE = join(root, "..", "grammar", "syllabus", "syllabus.schema.json");
export const SCHEMA_TARGET = join(root, "schemas", "syllabus.schema.json");

/** Copy the schema; returns false, after saying why, when grammar/ has none yet. */
export function copySchema() {
  if (!existsSync(SCHEMA_SOURCE)) {
    console.error(
      `copy-schema: ${relative(process.cwd(), SCHEMA_SOURCE)} does not exist, so the extension has no ` +
        `schema for *.syllabus.json. It is generated in grammar/; the extension never keeps its own copy.`,
    );
    return false;
  }
  mkdirSync(dirname(SCHEMA_TARGET), { recursive: true });
  copyFileSync(SCHEMA_SOURCE, SCHEMA_TARGET);
  console.log(`copy-schema: ${relative(process.cwd(), SCHEMA_SOURCE)} -> ${relative(process.cwd(), SCHEMA_TARGET)}`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = copySchema() ? 0 : 1;
}
