import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PROFILES, SYLLABUS_TYPES } from "../src/settings";

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  contributes: {
    commands: Array<{ command: string; title: string; category: string }>;
    configuration: { properties: Record<string, { type: string | string[]; enum?: unknown[]; default: unknown; items?: { type: string } }> };
    jsonValidation: Array<{ fileMatch: string; url: string }>;
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as Manifest;
const properties = manifest.contributes.configuration.properties;

describe("package.json contributions", () => {
  it("activates on JSON and JSONC and loads the bundle", () => {
    assert.deepEqual(manifest.activationEvents, ["onLanguage:json", "onLanguage:jsonc"]);
    assert.equal(manifest.main, "./dist/extension.js");
  });

  it("contributes exactly the settings the server and client read", () => {
    assert.deepEqual(Object.keys(properties).sort(), [
      "sylla.ignore",
      "sylla.interpreter",
      "sylla.profile",
      "sylla.registry",
      "sylla.select",
      "sylla.trace.server",
      "sylla.type",
    ]);
  });

  it("offers the same enum values that the settings mapping accepts", () => {
    assert.deepEqual(properties["sylla.profile"]?.enum, [...PROFILES]);
    assert.deepEqual(properties["sylla.type"]?.enum, [...SYLLABUS_TYPES, ""]);
    assert.deepEqual(properties["sylla.trace.server"]?.enum, ["off", "messages", "verbose"]);
    assert.equal(properties["sylla.select"]?.items?.type, "string");
    assert.equal(properties["sylla.ignore"]?.items?.type, "string");
  });

  it("registers the restart command under the id the extension handles", () => {
    assert.deepEqual(manifest.contributes.commands, [{ command: "sylla.restartServer", title: "Restart Server", category: "sylla" }]);
  });

  it("validates *.syllabus.json against the schema copied from grammar/", () => {
    assert.deepEqual(manifest.contributes.jsonValidation, [{ fileMatch: "*.syllabus.json", url: "./schemas/syllabus.schema.json" }]);
  });

  it("keeps @types/vscode no newer than the engine, as vsce requires", () => {
    assert.equal(manifest.engines.vscode, `^${manifest.devDependencies["@types/vscode"]}`);
  });
});
