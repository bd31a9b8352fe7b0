import { describeSource, type Interpreter } from "./interpreter";
import { commandLine } from "./shell";
import type { ProbeResult } from "./syllaProbe";

export const ACTION_COPY = "Copy Install Command";
export const ACTION_TERMINAL = "Install in Terminal";
export const ACTION_CHOOSE_INTERPRETER = "Choose Interpreter";

/** The notification shown when the server cannot start because of the interpreter. */
export interface InstallAdvice {
  readonly message: string;
  readonly installCommand: string;
  readonly actions: readonly string[];
}

export interface AdviceContext {
  /** A workspace folder that is a sylla checkout, installed editable instead of from PyPI. */
  readonly checkout?: string;
  readonly platform: NodeJS.Platform;
}

export function installCommand(python: string, context: AdviceContext): string {
  const target = context.checkout === undefined ? ["sylla"] : ["-e", context.checkout];
  return commandLine([python, "-m", "pip", "install", ...target], context.platform);
}

function alternative(python: string, context: AdviceContext): string {
  if (context.checkout === undefined) {
    return `From a sylla checkout: ${commandLine([python, "-m", "pip", "install", "-e"], context.platform)} <path-to-sylla>`;
  }
  return `From PyPI instead: ${commandLine([python, "-m", "pip", "install", "sylla"], context.platform)}`;
}

/** Advice for a failed probe; undefined when sylla imports fine. */
export function installAdvice(probe: ProbeResult, interpreter: Interpreter, context: AdviceContext): InstallAdvice | undefined {
  const python = interpreter.command;
  const source = describeSource(interpreter.source);
  const command = installCommand(python, context);
  switch (probe.kind) {
    case "ok":
      return undefined;
    case "missing":
      return {
        message:
          `sylla is not installed for the Python interpreter "${python}" (${source}), so the sylla language server cannot start. ` +
          `Install it with: ${command} — ${alternative(python, context)}. Then run "sylla: Restart Server".`,
        installCommand: command,
        actions: [ACTION_COPY, ACTION_TERMINAL, ACTION_CHOOSE_INTERPRETER],
      };
    case "no-interpreter":
      return {
        message:
          `The Python interpreter "${python}" (${source}) could not be run, so the sylla language server cannot start. ` +
          `Set "sylla.interpreter" to a Python that has sylla, or install sylla there with: ${command}.`,
        installCommand: command,
        actions: [ACTION_CHOOSE_INTERPRETER, ACTION_COPY],
      };
    case "broken":
      return {
        message:
          `sylla could not be imported by the Python interpreter "${python}" (${source}): ${probe.detail}. ` +
          `Reinstall it with: ${command}. Then run "sylla: Restart Server".`,
        installCommand: command,
        actions: [ACTION_COPY, ACTION_TERMINAL, ACTION_CHOOSE_INTERPRETER],
      };
  }
}
