/**
 * Whether an open document looks like a sylla syllabus, so that the extension probes the
 * interpreter and starts the server only in projects that have one (no pop-ups elsewhere).
 *
 * This mirrors `sylla.grammar.syllabus.detect.is_syllabus`, the server's own decision: a directive key
 * (`$phase`, `$repeat`, `$episode`, `$dataset`, `$info`) anywhere, or a top-level
 * `"instructions"` list. The server still makes the final call per file (including the
 * `syllabi = [globs]` of sylla.toml), so a false "yes" here costs one idle server, never a finding.
 */
const DIRECTIVE = /(?<!\\)"\$(?:phase|repeat|episode|dataset|info)"\s*:/;
const INSTRUCTIONS_LIST = /(?<!\\)"instructions"\s*:\s*(?:(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*\[/;

export function looksLikeSyllabus(text: string): boolean {
  if (DIRECTIVE.test(text)) {
    return true;
  }
  if (!INSTRUCTIONS_LIST.test(text)) {
    return false;
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    // JSONC (comments, trailing commas): the textual evidence is all there is.
    return true;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) && Array.isArray((value as { instructions?: unknown }).instructions);
}

/** The documents the extension looks at: JSON and JSONC files and untitled buffers. */
export function isJsonDocument(languageId: string, scheme: string): boolean {
  return (languageId === "json" || languageId === "jsonc") && (scheme === "file" || scheme === "untitled");
}
