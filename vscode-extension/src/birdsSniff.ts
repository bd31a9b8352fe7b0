/**
 * Whether an open XML document is a Science Birds trial config, so that the extension starts
 * the server for configMeta.xml and config.xml but not for every XML file in a project.
 *
 * This mirrors `sylla.grammar.birds.detect.birds_kind`, the server's own decision: the first
 * start tag after the XML declaration, comments and the doctype, in the first 64 KB, is
 * `<config_generation>` (configMeta.xml) or `<evaluation>` (config.xml). The file name never
 * decides. The server still makes the final call per file, so a false "yes" here costs one
 * idle server, never a finding.
 */
const SKIP = /^\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)/;
const ROOT = /^\s*<([A-Za-z_][\w.-]*)/;
const ROOTS = new Set(["config_generation", "evaluation"]);

export function looksLikeBirdsConfig(text: string): boolean {
  let rest = text.slice(0, 65536).replace(/^\uFEFF/, "");
  for (;;) {
    const skipped = SKIP.exec(rest);
    if (!skipped || skipped[0].length === 0) break;
    rest = rest.slice(skipped[0].length);
  }
  const root = ROOT.exec(rest);
  return root !== null && ROOTS.has(root[1]!);
}

/** The documents the extension looks at for Science Birds configs: XML files and untitled buffers. */
export function isXmlDocument(languageId: string, scheme: string): boolean {
  return languageId === "xml" && (scheme === "file" || scheme === "untitled");
}
