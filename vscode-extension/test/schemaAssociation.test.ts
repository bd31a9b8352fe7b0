import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withSchemaPatterns } from "../src/schemaAssociation";

const url = "file:///ext/schemas/syllabus.schema.json";
const other = { fileMatch: ["x.json"], url: "https://example.invalid/x.json" };

describe("withSchemaPatterns", () => {
  it("adds one entry for the patterns after the user's own entries", () => {
    assert.deepEqual(withSchemaPatterns([other], ["exp*.json", " runs/*.json "], url), [other, { fileMatch: ["exp*.json", "runs/*.json"], url }]);
  });

  it("replaces its own entry instead of adding a second one", () => {
    assert.deepEqual(withSchemaPatterns([{ fileMatch: ["old.json"], url }, other], ["new.json"], url), [other, { fileMatch: ["new.json"], url }]);
  });

  it("removes its entry when the patterns are emptied, and changes nothing when already in step", () => {
    assert.deepEqual(withSchemaPatterns([other, { fileMatch: ["a.json"], url }], [], url), [other]);
    assert.equal(withSchemaPatterns([other, { fileMatch: ["a.json"], url }], ["a.json"], url), undefined);
    assert.equal(withSchemaPatterns(undefined, [], url), undefined);
  });

  it("ignores values of the wrong type instead of writing them", () => {
    assert.deepEqual(withSchemaPatterns("nonsense", ["a.json", 3, ""], url), [{ fileMatch: ["a.json"], url }]);
  });
});
