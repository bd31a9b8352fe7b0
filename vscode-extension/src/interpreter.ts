import { expandPath, type PathContext } from "./paths";

/** Where the Python interpreter that runs `sylla lsp` came from, in order of precedence. */
export type InterpreterSource = "setting" | "python-extension" | "default";

export interface Interpreter {
  readonly command: string;
  readonly source: InterpreterSource;
}

export const DEFAULT_PYTHON = "python3";

export interface InterpreterCandidates {
  /** The `sylla.interpreter` setting, as the user wrote it. */
  readonly setting?: string;
  /** The Python extension's active interpreter, when that extension is installed and answers. */
  readonly pythonExtension?: string;
}

/** Pick the interpreter: the setting, else the Python extension's choice, else `python3`. */
export function chooseInterpreter(candidates: InterpreterCandidates, context: PathContext): Interpreter {
  const setting = candidates.setting?.trim();
  if (setting) {
    return { command: expandPath(setting, context), source: "setting" };
  }
  const fromExtension = candidates.pythonExtension?.trim();
  if (fromExtension) {
    return { command: fromExtension, source: "python-extension" };
  }
  return { command: DEFAULT_PYTHON, source: "default" };
}

/** A short phrase telling the user why this interpreter was used. */
export function describeSource(source: InterpreterSource): string {
  switch (source) {
    case "setting":
      return 'set by "sylla.interpreter"';
    case "python-extension":
      return "the Python extension's active interpreter";
    case "default":
      return 'the default; set "sylla.interpreter" to use another';
  }
}
