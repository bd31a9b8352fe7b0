import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isJsonDocument, looksLikeSyllabus } from "../src/syllabusSniff";

// tests/vscode/test_syllabus_sniff.py checks this against the server's own decision on every
// JSON fixture of the repository; these are the cases named in issue 14.
describe("looksLikeSyllabus", () => {
  it("accepts an instructions list, a bare instruction list and a misspelt instructions key", () => {
    assert.ok(looksLikeSyllabus('{"instructions": [{"$phase": "1.train"}]}'));
    assert.ok(looksLikeSyllabus('{"instructions": []}'));
    assert.ok(looksLikeSyllabus('[{"$phase": "1.train"}, {"$episode": "Pong"}]'));
    assert.ok(looksLikeSyllabus('{"instrutions": [{"$repeat": {"$episode": "Pong"}, "count": 5}]}'));
    assert.ok(looksLikeSyllabus('{\n  // jsonc\n  "instructions": [\n  ],\n}'));
  });

  it("turns away package.json, an assistant config and nested instructions", () => {
    assert.ok(!looksLikeSyllabus('{"name": "app", "version": "1.0.0", "scripts": {"build": "tsc"}}'));
    assert.ok(!looksLikeSyllabus('{"instructions": "You are a helpful assistant"}'));
    assert.ok(!looksLikeSyllabus('{"recipe": {"instructions": ["boil", "serve"]}}'));
    assert.ok(!looksLikeSyllabus('{"note": "the key \\"$phase\\": is documented elsewhere"}'));
  });

  it("looks only at JSON and JSONC files and untitled buffers", () => {
    assert.ok(isJsonDocument("json", "file") && isJsonDocument("jsonc", "untitled"));
    assert.ok(!isJsonDocument("yaml", "file") && !isJsonDocument("json", "git"));
  });
});
