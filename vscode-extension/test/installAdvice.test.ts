import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isSyllaCheckout } from "../src/checkout";
import { ACTION_CHOOSE_INTERPRETER, ACTION_COPY, ACTION_TERMINAL, installAdvice, installCommand } from "../src/installAdvice";
import type { Interpreter } from "../src/interpreter";
import { quoteArg } from "../src/shell";

const venv: Interpreter = { command: "/ws/.venv/bin/python", source: "python-extension" };
const linux = { platform: "linux" as const };

describe("installAdvice", () => {
  it("says nothing when sylla imports", () => {
    assert.equal(installAdvice({ kind: "ok" }, venv, linux), undefined);
  });

  it("names the interpreter, why it was used, and the pip command when sylla is missing", () => {
    const advice = installAdvice({ kind: "missing" }, venv, linux);
    assert.deepEqual(advice, {
      message:
        'sylla is not installed for the Python interpreter "/ws/.venv/bin/python" (the Python extension\'s active interpreter), ' +
        "so the sylla language server cannot start. Install it with: /ws/.venv/bin/python -m pip install sylla — " +
        'From a sylla checkout: /ws/.venv/bin/python -m pip install -e <path-to-sylla>. Then run "sylla: Restart Server".',
      installCommand: "/ws/.venv/bin/python -m pip install sylla",
      actions: [ACTION_COPY, ACTION_TERMINAL, ACTION_CHOOSE_INTERPRETER],
    });
  });

  it("installs an open sylla checkout in editable mode, and still mentions PyPI", () => {
    const advice = installAdvice({ kind: "missing" }, { command: "python3", source: "default" }, { checkout: "/src/sylla", platform: "linux" });
    assert.equal(advice?.installCommand, "python3 -m pip install -e /src/sylla");
    assert.match(advice?.message ?? "", /Install it with: python3 -m pip install -e \/src\/sylla — From PyPI instead: python3 -m pip install sylla\./);
    assert.match(advice?.message ?? "", /\(the default; set "sylla.interpreter" to use another\)/);
  });

  it("quotes paths with spaces so that the copied command works", () => {
    const python = { command: "/Users/ada/My Envs/bin/python", source: "setting" as const };
    assert.equal(installCommand(python.command, linux), "'/Users/ada/My Envs/bin/python' -m pip install sylla");
    assert.equal(installCommand("C:\\Py 3\\python.exe", { platform: "win32" }), '"C:\\Py 3\\python.exe" -m pip install sylla');
  });

  it("asks to choose another interpreter when this one cannot run", () => {
    const advice = installAdvice({ kind: "no-interpreter", detail: "ENOENT" }, { command: "python3", source: "default" }, linux);
    assert.equal(
      advice?.message,
      'The Python interpreter "python3" (the default; set "sylla.interpreter" to use another) could not be run, so the sylla ' +
        'language server cannot start. Set "sylla.interpreter" to a Python that has sylla, or install sylla there with: python3 -m pip install sylla.',
    );
    assert.deepEqual(advice?.actions, [ACTION_CHOOSE_INTERPRETER, ACTION_COPY]);
  });

  it("shows the import error when sylla is installed but broken", () => {
    const advice = installAdvice({ kind: "broken", detail: "ImportError: cannot import name 'x'" }, venv, linux);
    assert.match(advice?.message ?? "", /could not be imported by the Python interpreter "\/ws\/.venv\/bin\/python" .*: ImportError: cannot import name 'x'\. Reinstall it with: \/ws\/.venv\/bin\/python -m pip install sylla\./);
  });
});

describe("quoteArg", () => {
  it("leaves plain arguments alone and quotes the rest for the platform's shell", () => {
    assert.equal(quoteArg("/a/b-c_d.e", "linux"), "/a/b-c_d.e");
    assert.equal(quoteArg("it's", "darwin"), "'it'\\''s'");
    assert.equal(quoteArg("a b", "win32"), '"a b"');
  });
});

describe("isSyllaCheckout", () => {
  it("recognises the sylla project's pyproject.toml", () => {
    assert.equal(isSyllaCheckout('[build-system]\nrequires = []\n\n[project]\nname = "sylla"\nversion = "0.1.0"\n'), true);
  });

  it("rejects other projects and a `name` outside [project]", () => {
    assert.equal(isSyllaCheckout('[project]\nname = "sylla-plugins"\n'), false);
    assert.equal(isSyllaCheckout('[tool.other]\nname = "sylla"\n[project]\nname = "x"\n'), false);
    assert.equal(isSyllaCheckout(""), false);
  });
});
