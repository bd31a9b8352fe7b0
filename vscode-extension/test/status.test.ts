import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { statusView } from "../src/status";

const venv = { command: "/ws/.venv/bin/python", source: "setting" as const };

describe("statusView", () => {
  it("names the server's version and the interpreter with why it was chosen while running", () => {
    assert.deepEqual(statusView({ phase: "running", version: "0.3.1", interpreter: venv }), {
      text: "sylla 0.3.1",
      detail: 'server running · /ws/.venv/bin/python (set by "sylla.interpreter")',
      severity: "information",
      busy: false,
    });
  });

  it("is busy while starting, an error with the reason when blocked or failed", () => {
    assert.equal(statusView({ phase: "starting", interpreter: venv }).busy, true);
    const blocked = statusView({ phase: "blocked", interpreter: venv, reason: "sylla is not installed for ..." });
    assert.deepEqual([blocked.severity, blocked.detail], ["error", "sylla is not installed for ..."]);
    assert.equal(statusView({ phase: "failed", reason: "exit 2" }).severity, "error");
  });

  it("says why nothing runs when idle or disabled", () => {
    assert.match(statusView({ phase: "idle" }).detail, /when a syllabus is opened/);
    assert.match(statusView({ phase: "disabled" }).detail, /sylla\.enable/);
  });
});
