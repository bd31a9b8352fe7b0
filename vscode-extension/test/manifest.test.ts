import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { FIX_ALL_COMMAND, RESTART_COMMAND, SHOW_OUTPUT_COMMAND } from "../src/commands";
import { PROFILES, SYLLABUS_TYPES } from "../src/settings";

/** A file-name glob (only `*`) as VS Code applies a fileMatch without a slash: to the base name. */
function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);
}

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[]; description: string } };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  contributes: {
    commands: Array<{ command: string; title: string; category: string; enablement?: string }>;
    configuration: { properties: Record<string, { type: string | string[]; enum?: unknown[]; default: unknown; items?: { type: string } }> };
    jsonValidation: Array<{ fileMatch: string; url: string }>;
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as Manifest;
const properties = manifest.contributes.configuration.properties;

describe("package.json contributions", () => {
  it("activates on JSON, JSONC, XML and workspaces that hold syllabi or a sylla.toml, and loads the bundle", () => {
    assert.deepEqual(manifest.activationEvents, [
      "onLanguage:json",
      "onLanguage:jsonc",
      "onLanguage:xml",
      "workspaceContains:**/*syllabus*.json",
      "workspaceContains:**/sylla.toml",
    ]);
    assert.equal(manifest.main, "./dist/extension.js");
  });

  it("runs limited in untrusted workspaces, where a workspace's sylla.interpreter is not used", () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, "limited");
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ["sylla.interpreter"]);
    assert.match(manifest.capabilities.untrustedWorkspaces.description, /sylla\.interpreter/);
  });

  it("contributes exactly the settings the server and client read", () => {
    assert.deepEqual(Object.keys(properties).sort(), [
      "sylla.enable",
      "sylla.ignore",
      "sylla.interpreter",
      "sylla.profile",
      "sylla.registry",
      "sylla.schemaPatterns",
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

  it("registers the commands under the ids the extension handles", () => {
    assert.deepEqual(
      manifest.contributes.commands.map((c) => [c.command, c.title, c.category]),
      [
        [RESTART_COMMAND, "Restart Server", "sylla"],
        [SHOW_OUTPUT_COMMAND, "Show Output", "sylla"],
        [FIX_ALL_COMMAND, "Fix All", "sylla"],
      ],
    );
    assert.equal(properties["sylla.enable"]?.default, true);
  });

  it("validates files named like real syllabi against the schema copied from grammar/", () => {
    assert.deepEqual(manifest.contributes.jsonValidation, [
      { fileMatch: "*syllabus*.json", url: "./schemas/syllabus.schema.json" },
      { fileMatch: "*syllabus*.jsonc", url: "./schemas/syllabus.schema.json" },
    ]);
    // The names of real syllabi that the old "*.syllabus.json" pattern missed.
    const matches = (name: string) => manifest.contributes.jsonValidation.some((v) => globToRegExp(v.fileMatch).test(name));
    for (const name of ["syllabus_ANT.json", "ste_syllabus.json", "ant.syllabus.json", "my-syllabus.jsonc"]) {
      assert.ok(matches(name), name);
    }
    for (const name of ["package.json", "tsconfig.json", "syllabus.txt"]) {
      assert.ok(!matches(name), name);
    }
  });

  it("keeps @types/vscode no newer than the engine, as vsce requires", () => {
    assert.equal(manifest.engines.vscode, `^${manifest.devDependencies["@types/vscode"]}`);
  });
});
