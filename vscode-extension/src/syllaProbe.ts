import { execFile } from "node:child_process";

/** What running a process produced; `spawnError` is set when it could not be started at all. */
export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly spawnError?: { readonly code?: string; readonly message: string };
  readonly timedOut?: boolean;
}

export type ProcessRunner = (command: string, args: readonly string[], timeoutMs: number) => Promise<ProcessOutcome>;

export type ProbeResult =
  | { readonly kind: "ok" }
  | { readonly kind: "missing" }
  | { readonly kind: "no-interpreter"; readonly detail: string }
  | { readonly kind: "broken"; readonly detail: string };

export const PROBE_TIMEOUT_MS = 20_000;

export function importCheckArgs(module = "sylla"): string[] {
  return ["-c", `import ${module}`];
}

function lastLine(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  return lines[lines.length - 1] ?? "";
}

/** Classify the outcome of `<python> -c "import sylla"`. */
export function classifyProbe(outcome: ProcessOutcome, module = "sylla"): ProbeResult {
  if (outcome.spawnError) {
    return { kind: "no-interpreter", detail: outcome.spawnError.message };
  }
  if (outcome.timedOut) {
    return { kind: "broken", detail: `"import ${module}" did not finish within ${PROBE_TIMEOUT_MS / 1000} s` };
  }
  if (outcome.exitCode === 0) {
    return { kind: "ok" };
  }
  const notFound = new RegExp(`No module named '${module}'`);
  if (notFound.test(outcome.stderr)) {
    return { kind: "missing" };
  }
  return { kind: "broken", detail: lastLine(outcome.stderr) || `exit code ${String(outcome.exitCode)}` };
}

export async function probeSylla(python: string, run: ProcessRunner, module = "sylla"): Promise<ProbeResult> {
  return classifyProbe(await run(python, importCheckArgs(module), PROBE_TIMEOUT_MS), module);
}

/** Run a process to completion without a shell, the real `ProcessRunner`. */
export const runProcess: ProcessRunner = (command, args, timeoutMs) =>
  new Promise((resolve) => {
    execFile(command, [...args], { timeout: timeoutMs, windowsHide: true }, (error, _stdout, stderr) => {
      if (!error) {
        resolve({ exitCode: 0, stderr: String(stderr) });
        return;
      }
      const failure = error as NodeJS.ErrnoException & { code?: string | number; killed?: boolean };
      if (typeof failure.code === "string") {
        resolve({ exitCode: null, stderr: String(stderr), spawnError: { code: failure.code, message: failure.message } });
        return;
      }
      resolve({
        exitCode: typeof failure.code === "number" ? failure.code : null,
        stderr: String(stderr),
        timedOut: failure.killed === true,
      });
    });
  });
