import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chooseInterpreter, DEFAULT_PYTHON, describeSource } from "../src/interpreter";
import { expandPath } from "../src/paths";

const context = { workspaceFolder: "/ws", home: "/home/ada" };

describe("chooseInterpreter", () => {
  it("uses the sylla.interpreter setting first, even when the Python extension has one", () => {
    const chosen = chooseInterpreter({ setting: "/opt/py/bin/python", pythonExtension: "/ws/.venv/bin/python" }, context);
    assert.deepEqual(chosen, { command: "/opt/py/bin/python", source: "setting" });
  });

  it("expands ${workspaceFolder} and ~ in the setting", () => {
    assert.equal(chooseInterpreter({ setting: "${workspaceFolder}/.venv/bin/python" }, context).command, "/ws/.venv/bin/python");
    assert.equal(chooseInterpreter({ setting: "~/venvs/sylla/bin/python" }, context).command, "/home/ada/venvs/sylla/bin/python");
  });

  it("uses the Python extension's interpreter when the setting is empty or blank", () => {
    for (const setting of [undefined, "", "   "]) {
      const chosen = chooseInterpreter({ setting, pythonExtension: "/ws/.venv/bin/python" }, context);
      assert.deepEqual(chosen, { command: "/ws/.venv/bin/python", source: "python-extension" });
    }
  });

  it("falls back to python3 when there is neither a setting nor the Python extension", () => {
    assert.deepEqual(chooseInterpreter({}, context), { command: "python3", source: "default" });
    assert.deepEqual(chooseInterpreter({ setting: "", pythonExtension: "" }, context), { command: DEFAULT_PYTHON, source: "default" });
  });

  it("describes each source for the user", () => {
    assert.equal(describeSource("setting"), 'set by "sylla.interpreter"');
    assert.equal(describeSource("python-extension"), "the Python extension's active interpreter");
    assert.match(describeSource("default"), /default/);
  });
});

describe("expandPath", () => {
  it("leaves ${workspaceFolder} alone when there is no folder open", () => {
    assert.equal(expandPath("${workspaceFolder}/r.json", { home: "/h" }), "${workspaceFolder}/r.json");
  });

  it("expands ${userHome} and a bare ~ but not a ~ inside a name", () => {
    assert.equal(expandPath("${userHome}/r.json", { home: "/h" }), "/h/r.json");
    assert.equal(expandPath("~", { home: "/h" }), "/h");
    assert.equal(expandPath("a~b", { home: "/h" }), "a~b");
  });
});
