/** The process that runs the language server: `<python> -m sylla lsp`, speaking LSP over stdio (the client adds `--stdio`). */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
}

export const SERVER_MODULE_ARGS: readonly string[] = ["-m", "sylla", "lsp"];

export function serverLaunch(python: string): ServerLaunch {
  return { command: python, args: [...SERVER_MODULE_ARGS] };
}

/** The configuration files whose edits the server is told about (it re-lints on them). */
export const CONFIG_FILES_GLOB = "**/{sylla.toml,pyproject.toml}";

export const CLIENT_ID = "sylla";
export const CLIENT_NAME = "sylla";

/**
 * Every JSON, JSONC and XML document; the server itself ignores JSON that is not a syllabus and
 * XML that is not a Science Birds trial config (root `<config_generation>` or `<evaluation>`).
 */
export const DOCUMENT_SELECTOR: ReadonlyArray<{ readonly scheme: string; readonly language: string }> = [
  { scheme: "file", language: "json" },
  { scheme: "file", language: "jsonc" },
  { scheme: "file", language: "xml" },
  { scheme: "untitled", language: "json" },
  { scheme: "untitled", language: "jsonc" },
  { scheme: "untitled", language: "xml" },
];
