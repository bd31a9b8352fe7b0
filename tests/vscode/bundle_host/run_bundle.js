// Activate a packaged dist/extension.js (with its bundled, real vscode-languageclient) against
// fake_vscode.js, with one document open, and print what the editor would show as JSON:
// the diagnostics of that document, error pop-ups, the output channel and language status.
//
// usage: node run_bundle.js BUNDLE PYTHON WORKSPACE FILE [TIMEOUT_MS]
// env:   SYLLA_WRITE_AFTER=NAME and SYLLA_WRITE_TEXT: once diagnostics arrived, write that file
//        into WORKSPACE, fire the watchers, and report the diagnostics that follow as "after".
"use strict";
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const { vscode, host, openDocument, Uri } = require("./fake_vscode.js");

const [bundle, python, workspace, file, timeoutArg] = process.argv.slice(2);
const timeoutMs = Number(timeoutArg || 60000);

// VS Code's extension host logs a rejected promise nobody awaited and carries on; so does this host.
const rejections = [];
process.on("unhandledRejection", (reason) => rejections.push(String(reason && reason.message ? reason.message : reason)));

const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "vscode" ? vscode : load.call(this, request, ...rest);
};

function report(extra) {
  const uri = Uri.file(file).toString();
  process.stdout.write(`${JSON.stringify({
    diagnostics: host.diagnostics.get(uri) ?? null,
    errors: host.errors,
    output: host.output.join(""),
    status: host.statusItems.map((i) => ({ id: i.id, text: i.text, detail: i.detail, severity: i.severity })),
    commands: [...host.commands.keys()].sort(),
    rejections,
    ...extra,
  })}\n`);
}

async function main() {
  host.config["sylla.interpreter"] = python;
  host.folders.push({ uri: Uri.file(workspace), name: path.basename(workspace), index: 0 });
  const languageId = file.endsWith(".jsonc") ? "jsonc" : file.endsWith(".xml") ? "xml" : "json";
  openDocument(file, languageId, fs.readFileSync(file, "utf8"));

  const extension = require(path.resolve(bundle));
  const context = {
    subscriptions: [],
    extensionPath: path.dirname(path.dirname(path.resolve(bundle))),
    extensionUri: Uri.file(path.dirname(path.dirname(path.resolve(bundle)))),
    extensionMode: 1,
    globalState: { get: () => undefined, update: async () => undefined, keys: () => [] },
    workspaceState: { get: () => undefined, update: async () => undefined, keys: () => [] },
    storageUri: undefined, globalStorageUri: Uri.file(workspace), logUri: Uri.file(workspace),
    asAbsolutePath: (p) => path.join(path.dirname(path.dirname(path.resolve(bundle))), p),
  };
  const started = Date.now();
  await extension.activate(context);

  const uri = Uri.file(file).toString();
  const arrived = await new Promise((resolve) => {
    const check = () => {
      const diagnostics = host.diagnostics.get(uri);
      if (diagnostics && diagnostics.length > 0) resolve(true);
    };
    host.events.on("change", check);
    check();
    setTimeout(() => resolve(false), timeoutMs);
  });
  const elapsed = Date.now() - started;
  let after = null;
  const first = host.diagnostics.get(uri) ?? null;
  if (arrived && process.env.SYLLA_WRITE_AFTER) {
    const before = JSON.stringify(host.diagnostics.get(uri));
    const written = path.join(workspace, process.env.SYLLA_WRITE_AFTER);
    const existed = fs.existsSync(written);
    fs.writeFileSync(written, process.env.SYLLA_WRITE_TEXT || "");
    for (const watcher of host.watchers) (existed ? watcher.changed : watcher.created).fire(Uri.file(written));
    after = await new Promise((resolve) => {
      const check = () => {
        const now = JSON.stringify(host.diagnostics.get(uri));
        if (now !== before) resolve(host.diagnostics.get(uri));
      };
      host.events.on("change", check);
      setTimeout(() => resolve(null), timeoutMs);
    });
  }
  const stopping = extension.deactivate ? extension.deactivate() : undefined;
  await Promise.race([stopping, new Promise((r) => setTimeout(r, 5000))]);
  report({ arrived, first, after, watched: host.watchers.map((w) => w.glob), elapsedMs: elapsed, touched: [...host.unknown].sort() });
  process.exit(0);
}

main().catch((error) => {
  report({ arrived: false, crash: String(error && error.stack ? error.stack : error), touched: [...host.unknown].sort() });
  process.exit(1);
});
