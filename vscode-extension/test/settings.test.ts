import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  didChangeConfigurationParams,
  mapConfigurationResults,
  explicitReader,
  toServerSettings,
  type ServerSettings,
  type SettingReader,
} from "../src/settings";

const context = { workspaceFolder: "/ws", home: "/home/ada" };

function readerOf(section: unknown): SettingReader {
  const record = typeof section === "object" && section !== null ? (section as Record<string, unknown>) : {};
  return (key) => record[key];
}

describe("toServerSettings", () => {
  it("maps every setting the server reads to its key", () => {
    const raw = {
      profile: "pretest",
      select: ["SY1", "SY2"],
      ignore: ["SY201"],
      registry: "${workspaceFolder}/tasks.json",
      type: "ANT-B",
      interpreter: "/usr/bin/python3",
      trace: { server: "verbose" },
    };
    assert.deepEqual(toServerSettings(readerOf(raw), context), {
      profile: "pretest",
      select: ["SY1", "SY2"],
      ignore: ["SY201"],
      registry: "/ws/tasks.json",
      type: "ANT-B",
    });
  });

  it("leaves unset values out so that the project's configuration decides", () => {
    const raw = { profile: null, select: null, ignore: null, registry: "", type: "", interpreter: "" };
    assert.deepEqual(toServerSettings(readerOf(raw), context), {});
  });

  it("keeps an explicitly empty list, which overrides the project's list", () => {
    assert.deepEqual(toServerSettings(readerOf({ ignore: [] }), context), { ignore: [] });
  });

  it("drops values outside the enums and non-string codes", () => {
    const raw = { profile: "strict", type: "ANT-D", select: ["SY1", 3, " ", " SY4 "] };
    assert.deepEqual(toServerSettings(readerOf(raw), context), { select: ["SY1", "SY4"] });
  });

  it("reads nothing from a section that is not an object", () => {
    assert.deepEqual(toServerSettings(readerOf(undefined), context), {});
    assert.deepEqual(toServerSettings(readerOf("l2m"), context), {});
  });
});

describe("the settings sent to the server", () => {
  it("wraps them as workspace/didChangeConfiguration params under `sylla`", () => {
    const settings: ServerSettings = { profile: "l2m", ignore: ["SY3"] };
    assert.deepEqual(didChangeConfigurationParams(settings), { settings: { sylla: { profile: "l2m", ignore: ["SY3"] } } });
  });

  it("answers workspace/configuration for `sylla` with mapped settings and passes other sections through", () => {
    const items = [{ section: "sylla", scopeUri: "file:///ws/a.json" }, { section: "editor" }, { section: "sylla" }];
    const results = [{ profile: "l2m", select: [], interpreter: "x" }, { tabSize: 2 }, { type: "" }];
    const seen: Array<string | null | undefined> = [];
    const mapped = mapConfigurationResults(items, results, (item) => {
      seen.push(item.scopeUri);
      return item.scopeUri ? { profile: "pretest" } : { type: "CL" };
    });
    assert.deepEqual(mapped, [{ profile: "pretest" }, { tabSize: 2 }, { type: "CL" }]);
    assert.deepEqual(seen, ["file:///ws/a.json", undefined]);
  });
});

describe("explicitReader", () => {
  const inspections: Record<string, object> = {
    profile: { key: "sylla.profile", defaultValue: "l2m" },
    select: { key: "sylla.select", defaultValue: [], globalValue: ["SY1"] },
    ignore: { key: "sylla.ignore", defaultValue: [], globalValue: ["SY1"], workspaceValue: ["SY2"] },
    type: { key: "sylla.type", defaultValue: "", workspaceValue: "CL", workspaceFolderValue: "ANT-C" },
  };
  const read = explicitReader({ inspect: (key) => inspections[key] });

  it("never reads the manifest's defaults", () => {
    assert.equal(read("profile"), undefined);
    assert.equal(read("registry"), undefined);
  });

  it("prefers folder over workspace over user settings", () => {
    assert.deepEqual(read("select"), ["SY1"]);
    assert.deepEqual(read("ignore"), ["SY2"]);
    assert.equal(read("type"), "ANT-C");
  });

  it("sends only what the user set", () => {
    assert.deepEqual(toServerSettings(read, context), { select: ["SY1"], ignore: ["SY2"], type: "ANT-C" });
  });
});
