/**
 * Whether an open XML document is a Science Birds trial config, so that the extension starts
 * the server for configMeta.xml and config.xml but not for every XML file in a project.
 *
 * This mirrors `sylla.grammar.birds.detect.claims`, the server's own decision, pattern for
 * pattern: the first start tag after the XML declaration, comments, processing instructions and
 * the doctype, however long they are, is `<config_generation>` (configMeta.xml) or `<evaluation>`
 * (config.xml). A document whose root cannot be read because of characters XML cannot hold (a
 * NUL inside a tag, bytes that were not text) is one too, so that the server reports them where
 * they are; a document cut off or garbled before its root is one when a config's root tag, or
 * such a character, is in it; a document named `*.xml` that does not start like XML is one when
 * it holds such characters, or a config's root tag at the start of a line. An empty buffer, or
 * one whose root is still being typed, is not. The server still makes the final call per file,
 * so a false "yes" here costs one idle server, never a finding.
 */
const WS = "[ \\t\\r\\n]";
const SKIP = new RegExp(`${WS}*(?:<\\?[\\s\\S]*?\\?>|<!--[\\s\\S]*?-->|<!DOCTYPE[^>[]*(?:\\[[\\s\\S]*?\\])?${WS}*>)`, "y");
const LEADING = /[ \t\r\n\uFEFF]*/y;
const BLANKS = new RegExp(`${WS}*`, "y");
const NAME = /[A-Za-z_:][A-Za-z0-9_.:-]*/y;
const ANY_ROOT = /<(?:config_generation|evaluation)(?=[ \t\r\n/>]|$)/;
const LINE_ROOT = /(?:^|\n)[ \t\r\n]*<(?:config_generation|evaluation)(?=[ \t\r\n/>]|$)/;
const UNREADABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\uFFFD]/;
const LETTER = /[\p{L}\p{N}]/u;
const ROOTS = new Set(["config_generation", "evaluation"]);

type Scan = { status: "root" | "not-xml" | "unreadable" | "open"; name?: string };

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

function scan(text: string): Scan {
  let pos = matchAt(LEADING, text, 0)![0].length;
  if (pos < text.length && text[pos] !== "<") return { status: "not-xml" };
  for (;;) {
    const skipped = matchAt(SKIP, text, pos);
    if (!skipped || skipped[0].length === 0) break;
    pos += skipped[0].length;
  }
  pos += matchAt(BLANKS, text, pos)![0].length;
  const at = (i: number): string => text.slice(i, i + 1);
  if (UNREADABLE.test(at(pos)) || (at(pos) === "<" && UNREADABLE.test(at(pos + 1)))) return { status: "unreadable" };
  const name = at(pos) === "<" ? matchAt(NAME, text, pos + 1) : null;
  if (!name) return { status: "open" };
  const after = at(pos + 1 + name[0].length);
  if (UNREADABLE.test(after)) return { status: "unreadable" };
  if (LETTER.test(after)) return { status: "root", name: name[0] + after };
  if (!after && !ROOTS.has(name[0])) return { status: "open" };
  return { status: "root", name: name[0] };
}

export function looksLikeBirdsConfig(text: string, path = ""): boolean {
  const found = scan(text);
  if (found.status === "root") return ROOTS.has(found.name!);
  if (found.status === "not-xml") {
    return path.toLowerCase().endsWith(".xml") && (UNREADABLE.test(text) || LINE_ROOT.test(text));
  }
  return found.status === "unreadable" || ANY_ROOT.test(text) || UNREADABLE.test(text);
}

/** The documents the extension looks at for Science Birds configs: XML files and untitled buffers. */
export function isXmlDocument(languageId: string, scheme: string): boolean {
  return languageId === "xml" && (scheme === "file" || scheme === "untitled");
}
