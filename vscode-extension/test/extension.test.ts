import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { eventually, installStub, jsonDocument, syllabusDocument, VscodeStub } from "./helpers/vscodeStub";

type ExtensionModule = typeof import("../src/extension");

const scratch = mkdtempSync(join(tmpdir(), "sylla-ext-"));

/** An executable standing in for Python: exits 0 for `-c "import sylla"` or fails as Python would. */
function fakePython(name: string, hasSylla: boolean): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "python3");
  const body = hasSylla ? "exit 0\n" : "echo \"ModuleNotFoundError: No module named 'sylla'\" >&2\nexit 1\n";
  writeFileSync(path, `#!/bin/sh\n${body}`);
  chmodSync(path, 0o755);
  return path;
}

const withSylla = fakePython("with", true);
const withoutSylla = fakePython("without", false);

function pythonExtension(executable: string) {
  return {
    isActive: false,
    exports: undefined,
    activate: async () => ({
      environments: {
        getActiveEnvironmentPath: () => ({ id: "venv", path: "/ws/.venv" }),
        resolveEnvironment: async () => ({ executable: { uri: { fsPath: executable } } }),
      },
    }),
  };
}

describe("the extension, activated with the VS Code API stubbed", () => {
  let stub: VscodeStub;
  let uninstall: () => void;
  let extension: ExtensionModule;
  const context = { subscriptions: [] as Array<{ dispose(): unknown }>, extensionUri: { fsPath: "/ext" } };
  const savedPath = process.env.PATH;

  beforeEach(() => {
    stub = new VscodeStub();
    uninstall = installStub(stub);
    const sources = resolve(__dirname, "..", "src");
    for (const key of Object.keys(require.cache)) {
      if (key.startsWith(sources)) delete require.cache[key];
    }
    extension = require("../src/extension") as ExtensionModule;
    context.subscriptions = [];
  });

  afterEach(async () => {
    await extension.deactivate();
    for (const disposable of context.subscriptions) disposable.dispose();
    uninstall();
    process.env.PATH = savedPath;
  });

  async function activate(): Promise<void> {
    await extension.activate(context as never);
  }

  it("starts `<sylla.interpreter> -m sylla lsp` over stdio for JSON, JSONC and XML documents", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    stub.config["sylla.profile"] = "pretest";
    stub.config["sylla.select"] = ["SY1"];
    stub.extensionsById["ms-python.python"] = pythonExtension(withoutSylla);
    await activate();
    assert.equal(stub.clients.length, 1);
    const client = stub.clients[0]!;
    assert.equal(client.id, "sylla");
    assert.deepEqual(client.serverOptions, { command: withSylla, args: ["-m", "sylla", "lsp"], transport: 0 });
    assert.deepEqual(
      client.clientOptions.documentSelector.map((filter) => filter.language),
      ["json", "jsonc", "xml", "json", "jsonc", "xml"],
    );
    assert.deepEqual(client.clientOptions.initializationOptions, { settings: { sylla: { profile: "pretest", select: ["SY1"] } } });
    assert.deepEqual(client.events, ["start"]);
    assert.ok(stub.commands.has("sylla.restartServer"));
    assert.equal(stub.errors.length, 0);
  });

  it("uses the Python extension's active interpreter when sylla.interpreter is empty", async () => {
    stub.config["sylla.interpreter"] = "";
    stub.extensionsById["ms-python.python"] = pythonExtension(withSylla);
    await activate();
    assert.equal(stub.clients[0]?.serverOptions.command, withSylla);
  });

  it("falls back to python3 and, when it lacks sylla, shows the install command instead of starting", async () => {
    process.env.PATH = `${join(scratch, "without")}:${savedPath ?? ""}`;
    await activate();
    assert.equal(stub.clients.length, 0);
    assert.equal(stub.errors.length, 1);
    const [error] = stub.errors;
    assert.match(error!.message, /^sylla is not installed for the Python interpreter "python3" \(the default; set "sylla.interpreter" to use another\)/);
    assert.match(error!.message, /Install it with: python3 -m pip install sylla/);
    assert.deepEqual(error!.items, ["Copy Install Command", "Install in Terminal", "Choose Interpreter"]);
  });

  it("copies the install command when the user picks that button", async () => {
    stub.config["sylla.interpreter"] = withoutSylla;
    stub.errorChoice = "Copy Install Command";
    await activate();
    await eventually(() => stub.clipboard.length > 0);
    assert.deepEqual(stub.clipboard, [`${withoutSylla} -m pip install sylla`]);
  });

  it("runs the install command in a terminal, or opens the interpreter setting, on those buttons", async () => {
    stub.config["sylla.interpreter"] = withoutSylla;
    stub.errorChoice = "Install in Terminal";
    await activate();
    await eventually(() => stub.terminalText.length > 0);
    assert.deepEqual(stub.terminalText, [`${withoutSylla} -m pip install sylla`]);

    stub.errorChoice = "Choose Interpreter";
    await stub.commands.get("sylla.restartServer")!();
    await eventually(() => stub.executed.length > 0);
    assert.deepEqual(stub.executed, [["workbench.action.openSettings", "sylla.interpreter"]]);
  });

  it("sends changed settings as workspace/didChangeConfiguration without restarting", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    stub.config["sylla.ignore"] = ["SY201"];
    stub.config["sylla.type"] = "ANT-A";
    stub.changeConfiguration(["sylla.ignore", "sylla.type"]);
    await eventually(() => stub.clients[0]!.notifications.length > 0);
    assert.deepEqual(stub.clients[0]!.notifications, [
      { method: "workspace/didChangeConfiguration", params: { settings: { sylla: { ignore: ["SY201"], type: "ANT-A" } } } },
    ]);
    assert.equal(stub.clients.length, 1);
  });

  it("ignores configuration changes outside the sylla section", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    stub.changeConfiguration(["editor.tabSize"]);
    await new Promise((done) => setTimeout(done, 30));
    assert.deepEqual(stub.clients[0]!.notifications, []);
    assert.equal(stub.clients.length, 1);
  });

  it("restarts the server when sylla.interpreter changes", async () => {
    stub.config["sylla.interpreter"] = withoutSylla;
    await activate();
    assert.equal(stub.clients.length, 0);
    stub.config["sylla.interpreter"] = withSylla;
    stub.changeConfiguration(["sylla.interpreter"]);
    await eventually(() => stub.clients.length === 1);
    assert.equal(stub.clients[0]!.serverOptions.command, withSylla);
  });

  it("stops and starts a new client on the sylla.restartServer command", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    await stub.commands.get("sylla.restartServer")!();
    assert.equal(stub.clients.length, 2);
    assert.deepEqual(stub.clients[0]!.events, ["start", "stop"]);
    assert.deepEqual(stub.clients[1]!.events, ["start"]);
  });

  it("answers the server's workspace/configuration pull for `sylla` with only the settings the user set", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    stub.folders = [{ uri: { fsPath: "/ws", toString: () => "file:///ws" }, name: "ws", index: 0 }];
    stub.config["sylla.registry"] = "${workspaceFolder}/reg.json";
    await activate();
    const middleware = stub.clients[0]!.clientOptions.middleware.workspace.configuration;
    const raw = { profile: "l2m", select: [], registry: "${workspaceFolder}/reg.json", interpreter: withSylla, trace: { server: "off" } };
    const items = [{ section: "sylla", scopeUri: "file:///ws/a.json" }, { section: "files" }];
    const answer = await middleware({ items }, undefined, async () => [raw, { exclude: {} }]);
    assert.deepEqual(answer, [{ registry: "/ws/reg.json" }, { exclude: {} }]);
  });

  it("suggests an editable install when the open folder is a sylla checkout", async () => {
    const checkout = join(scratch, "checkout");
    mkdirSync(checkout, { recursive: true });
    writeFileSync(join(checkout, "pyproject.toml"), '[project]\nname = "sylla"\n');
    stub.folders = [{ uri: { fsPath: checkout, toString: () => `file://${checkout}` }, name: "sylla", index: 0 }];
    stub.config["sylla.interpreter"] = withoutSylla;
    await activate();
    assert.match(stub.errors[0]!.message, new RegExp(`Install it with: ${withoutSylla} -m pip install -e ${checkout}`));
  });

  it("stops the server on deactivate", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    await extension.deactivate();
    assert.deepEqual(stub.clients[0]!.events, ["start", "stop"]);
  });
  it("probes no interpreter and shows no pop-up while no syllabus is open, then starts on the first one", async () => {
    stub.documents = [
      jsonDocument("/ws/package.json", '{"name": "app", "scripts": {}}'),
      jsonDocument("/ws/assistant.json", '{"instructions": "You are a helpful assistant"}'),
    ];
    stub.config["sylla.interpreter"] = withoutSylla;
    await activate();
    assert.equal(stub.clients.length, 0);
    assert.deepEqual(stub.errors, []);
    assert.ok(!stub.output.some((line) => line.startsWith("interpreter:")), "the interpreter was probed");
    assert.equal(stub.status[0]?.text, "sylla: idle");

    stub.config["sylla.interpreter"] = withSylla;
    stub.open(syllabusDocument("/ws/ste_syllabus.json"));
    await eventually(() => stub.clients.length === 1);
    assert.deepEqual(stub.clients[0]!.events, ["start"]);
  });

  it("starts for a Science Birds configMeta.xml but not for other XML", async () => {
    stub.documents = [jsonDocument("/ws/pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>", "xml")];
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    assert.equal(stub.clients.length, 0);
    stub.open(jsonDocument("/ws/configMeta.xml", '<?xml version="1.0" encoding="utf-16"?>\n<config_generation>\n</config_generation>\n', "xml"));
    await eventually(() => stub.clients.length === 1);
  });

  it("starts for a bare instruction list and a misspelt instructions key, as the server's detection does", async () => {
    stub.documents = [jsonDocument("/ws/exp1.json", '{"instrutions": [{"$phase": "1.train"}]}')];
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    assert.equal(stub.clients.length, 1);
  });

  it("stays off with sylla.enable false, starts when it is turned on and stops when it is turned off", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    stub.config["sylla.enable"] = false;
    await activate();
    assert.equal(stub.clients.length, 0);
    assert.equal(stub.status[0]?.text, "sylla: disabled");

    stub.config["sylla.enable"] = true;
    stub.changeConfiguration(["sylla.enable"]);
    await eventually(() => stub.clients.length === 1);

    stub.config["sylla.enable"] = false;
    stub.changeConfiguration(["sylla.enable"]);
    await eventually(() => stub.clients[0]!.events.includes("stop"));
    await eventually(() => stub.status[0]?.text === "sylla: disabled");
  });

  it("shows the running server and its interpreter in the language status, and why it did not start", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    const item = stub.status[0]!;
    assert.equal(item.text, "sylla");
    assert.match(item.detail ?? "", new RegExp(`^server running · ${withSylla} \\(set by "sylla.interpreter"\\)$`));
    assert.equal(item.severity, 0);
    assert.deepEqual(item.command, { title: "Show Output", command: "sylla.showOutput" });

    stub.config["sylla.interpreter"] = withoutSylla;
    stub.changeConfiguration(["sylla.interpreter"]);
    await eventually(() => item.text === "sylla: not started");
    assert.equal(item.severity, 2);
    assert.match(item.detail ?? "", /sylla is not installed/);
  });

  it("registers Show Output and Fix All; Fix All runs the source.fixAll.sylla action on the active editor", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    await stub.commands.get("sylla.showOutput")!();
    assert.equal(stub.shownOutput.length, 1);

    await stub.commands.get("sylla.fixAll")!();
    assert.deepEqual(stub.executed, []);
    assert.match(stub.infos[0] ?? "", /open a syllabus first/);

    stub.activeEditor = { document: syllabusDocument() };
    await stub.commands.get("sylla.fixAll")!();
    assert.deepEqual(stub.executed, [["editor.action.codeAction", { kind: "source.fixAll.sylla", apply: "first" }]]);
  });

  it("tells the server about sylla.toml and pyproject.toml edits through a file watcher", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    await activate();
    assert.deepEqual(stub.watchers, ["**/{sylla.toml,pyproject.toml}"]);
  });

  it("adds sylla.schemaPatterns to json.schemas in the scope where it is set, and removes it when emptied", async () => {
    stub.config["sylla.interpreter"] = withSylla;
    stub.config["json.schemas"] = [{ fileMatch: ["other.json"], url: "https://example.invalid/other.json" }];
    stub.config["sylla.schemaPatterns"] = ["experiments/*.json"];
    await activate();
    await eventually(() => stub.updates.length === 1);
    assert.deepEqual(stub.updates[0], {
      section: "json",
      key: "schemas",
      value: [
        { fileMatch: ["other.json"], url: "https://example.invalid/other.json" },
        { fileMatch: ["experiments/*.json"], url: "file:///ext/schemas/syllabus.schema.json" },
      ],
      target: 1,
    });
    stub.config["sylla.schemaPatterns"] = [];
    stub.changeConfiguration(["sylla.schemaPatterns"]);
    await eventually(() => stub.updates.length === 2);
    assert.deepEqual(stub.updates[1]!.value, [{ fileMatch: ["other.json"], url: "https://example.invalid/other.json" }]);
  });
});
