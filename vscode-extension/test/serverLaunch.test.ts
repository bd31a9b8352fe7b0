import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CLIENT_ID, DOCUMENT_SELECTOR, serverLaunch } from "../src/serverLaunch";

describe("serverLaunch", () => {
  it("runs `<python> -m sylla lsp` with exactly these arguments", () => {
    assert.deepEqual(serverLaunch("/ws/.venv/bin/python"), { command: "/ws/.venv/bin/python", args: ["-m", "sylla", "lsp"] });
  });

  it("returns fresh argument arrays, so one launch cannot change the next", () => {
    const first = serverLaunch("python3");
    (first.args as string[]).push("--tcp");
    assert.deepEqual(serverLaunch("python3").args, ["-m", "sylla", "lsp"]);
  });

  it("selects JSON and JSONC documents, saved and untitled", () => {
    assert.deepEqual(
      DOCUMENT_SELECTOR.map((filter) => `${filter.scheme}:${filter.language}`),
      ["file:json", "file:jsonc", "file:xml", "untitled:json", "untitled:jsonc", "untitled:xml"],
    );
  });

  it("uses the client id `sylla`, so that `sylla.trace.server` sets the trace level", () => {
    assert.equal(CLIENT_ID, "sylla");
  });
});
