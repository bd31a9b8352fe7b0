import { describeSource, type Interpreter } from "./interpreter";

/** What the language-status item beside "JSON" in the status bar says. */
export interface StatusView {
  readonly text: string;
  readonly detail: string;
  readonly severity: "information" | "warning" | "error";
  readonly busy: boolean;
}

export type ServerPhase = "idle" | "disabled" | "starting" | "running" | "blocked" | "failed";

export interface StatusFacts {
  readonly phase: ServerPhase;
  readonly version?: string;
  readonly interpreter?: Interpreter;
  readonly reason?: string;
}

/** The status item for the server's current phase: running, its version and interpreter, or why not. */
export function statusView(facts: StatusFacts): StatusView {
  const python = facts.interpreter ? `${facts.interpreter.command} (${describeSource(facts.interpreter.source)})` : "";
  switch (facts.phase) {
    case "idle":
      return { text: "sylla: idle", detail: "starts when a syllabus is opened", severity: "information", busy: false };
    case "disabled":
      return { text: "sylla: disabled", detail: '"sylla.enable" is off', severity: "information", busy: false };
    case "starting":
      return { text: "sylla: starting", detail: python, severity: "information", busy: true };
    case "running":
      return {
        text: facts.version ? `sylla ${facts.version}` : "sylla",
        detail: `server running · ${python}`,
        severity: "information",
        busy: false,
      };
    case "blocked":
      return { text: "sylla: not started", detail: facts.reason ?? python, severity: "error", busy: false };
    case "failed":
      return { text: "sylla: failed", detail: facts.reason ?? "see the sylla output", severity: "error", busy: false };
  }
}
