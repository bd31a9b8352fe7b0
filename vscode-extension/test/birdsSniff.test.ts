import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isXmlDocument, looksLikeBirdsConfig } from "../src/birdsSniff";

// tests/vscode/test_syllabus_sniff.py checks this against the server's own decision
// (sylla.grammar.birds.detect.claims) on every XML fixture of the repository.
describe("looksLikeBirdsConfig", () => {
  it("accepts configMeta.xml and config.xml by their root element, after a declaration and comments", () => {
    assert.ok(looksLikeBirdsConfig('<?xml version="1.0" encoding="utf-16"?>\n<config_generation>\n</config_generation>'));
    assert.ok(looksLikeBirdsConfig("\uFEFF<!-- generated -->\r\n<evaluation><trials/></evaluation>"));
  });

  it("turns away other XML, whatever the file is called", () => {
    assert.ok(!looksLikeBirdsConfig('<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>'));
    assert.ok(!looksLikeBirdsConfig("<configuration><config_generation/></configuration>"));
    assert.ok(!looksLikeBirdsConfig(""));
  });

  it("finds the root behind any length of prolog, and claims a root hidden by a NUL (issue 38)", () => {
    assert.ok(looksLikeBirdsConfig(`<!--${"x".repeat(70000)}-->\n<config_generation/>`));
    assert.ok(looksLikeBirdsConfig("<config_gen\u0000eration/>"));
    assert.ok(looksLikeBirdsConfig("\u0089PNG\u0000", "/a/configMeta.xml") && !looksLikeBirdsConfig("\u0089PNG\u0000", "/a/image.png"));
    assert.ok(!looksLikeBirdsConfig("<!-- being typed") && !looksLikeBirdsConfig("<proj"));
  });

  it("looks only at XML files and untitled buffers", () => {
    assert.ok(isXmlDocument("xml", "file") && isXmlDocument("xml", "untitled"));
    assert.ok(!isXmlDocument("json", "file") && !isXmlDocument("xml", "git"));
  });
});
