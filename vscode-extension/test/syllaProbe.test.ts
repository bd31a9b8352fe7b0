import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { classifyProbe, importCheckArgs, probeSylla, runProcess, type ProcessRunner } from "../src/syllaProbe";

describe("classifyProbe", () => {
  it("is ok when `import sylla` exits 0", () => {
    assert.deepEqual(classifyProbe({ exitCode: 0, stderr: "" }), { kind: "ok" });
  });

  it("is missing when Python reports no module named sylla", () => {
    const stderr = "Traceback (most recent call last):\n  File \"<string>\", line 1\nModuleNotFoundError: No module named 'sylla'\n";
    assert.deepEqual(classifyProbe({ exitCode: 1, stderr }), { kind: "missing" });
  });

  it("is broken, with the last error line, when sylla is there but fails to import", () => {
    const stderr = "Traceback ...\nModuleNotFoundError: No module named 'pygls'\n";
    assert.deepEqual(classifyProbe({ exitCode: 1, stderr }), { kind: "broken", detail: "ModuleNotFoundError: No module named 'pygls'" });
    assert.deepEqual(classifyProbe({ exitCode: 3, stderr: "" }), { kind: "broken", detail: "exit code 3" });
  });

  it("is no-interpreter when the interpreter cannot be started, and broken on a timeout", () => {
    const spawnError = { code: "ENOENT", message: "spawn python9 ENOENT" };
    assert.deepEqual(classifyProbe({ exitCode: null, stderr: "", spawnError }), { kind: "no-interpreter", detail: "spawn python9 ENOENT" });
    assert.equal(classifyProbe({ exitCode: null, stderr: "", timedOut: true }).kind, "broken");
  });
});

describe("probeSylla", () => {
  it("runs `<python> -c \"import sylla\"`", async () => {
    const calls: Array<[string, readonly string[]]> = [];
    const run: ProcessRunner = async (command, args) => {
      calls.push([command, args]);
      return { exitCode: 0, stderr: "" };
    };
    assert.deepEqual(await probeSylla("/ws/.venv/bin/python", run), { kind: "ok" });
    assert.deepEqual(calls, [["/ws/.venv/bin/python", ["-c", "import sylla"]]]);
    assert.deepEqual(importCheckArgs(), ["-c", "import sylla"]);
  });
});

describe("runProcess (real processes)", () => {
  it("reports the exit code and stderr of a process", async () => {
    const outcome = await runProcess(process.execPath, ["-e", "process.stderr.write('nope'); process.exit(3)"], 10_000);
    assert.deepEqual(outcome, { exitCode: 3, stderr: "nope", timedOut: false });
  });

  it("reports a spawn error for an interpreter that does not exist", async () => {
    const outcome = await runProcess(join(tmpdir(), "no-such-python-for-sylla"), ["-c", "import sylla"], 10_000);
    assert.equal(outcome.spawnError?.code, "ENOENT");
  });

  it("tells a real Python with and without a module apart", async (t) => {
    const python = (await runProcess("python3", ["-c", "pass"], 10_000)).exitCode === 0 ? "python3" : undefined;
    if (!python) {
      t.skip("python3 is not on PATH");
      return;
    }
    assert.deepEqual(await probeSylla(python, runProcess, "json"), { kind: "ok" });
    assert.deepEqual(await probeSylla(python, runProcess, "sylla_no_such_module_xyz"), { kind: "missing" });
  });

  it("classifies a fake interpreter script the same way as a real one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sylla-probe-"));
    const fake = join(dir, "python");
    writeFileSync(fake, "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'sylla'\" >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    assert.deepEqual(await probeSylla(fake, runProcess), { kind: "missing" });
  });
});
