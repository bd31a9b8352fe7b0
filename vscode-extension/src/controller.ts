import type { InstallAdvice } from "./installAdvice";
import type { Interpreter } from "./interpreter";
import { serverLaunch, type ServerLaunch } from "./serverLaunch";
import type { ServerSettings } from "./settings";
import type { StatusFacts } from "./status";
import type { ProbeResult } from "./syllaProbe";

/** The part of a language client the controller drives. */
export interface ClientHandle {
  start(): Promise<void>;
  stop(): Promise<void>;
  sendSettings(settings: ServerSettings): Promise<void>;
  /** The server's version from its `initialize` answer, once started. */
  serverVersion?(): string | undefined;
}

export interface ControllerDeps {
  resolveInterpreter(): Promise<Interpreter>;
  probe(python: string): Promise<ProbeResult>;
  advise(probe: ProbeResult, interpreter: Interpreter): InstallAdvice | undefined;
  readSettings(): ServerSettings;
  createClient(launch: ServerLaunch, settings: ServerSettings): ClientHandle;
  showProblem(advice: InstallAdvice): void;
  log(line: string): void;
  /** Told about every change of the server's phase, for the language-status item. */
  report?(facts: StatusFacts): void;
}

export type ControllerState = "stopped" | "running" | "blocked";

/**
 * Starts, stops and restarts the server. Operations are queued so that a restart
 * never overlaps a start, and a failed step leaves the controller usable.
 */
export class ServerController {
  private client: ClientHandle | undefined;
  private queue: Promise<void> = Promise.resolve();
  private currentState: ControllerState = "stopped";

  constructor(private readonly deps: ControllerDeps) {}

  get state(): ControllerState {
    return this.currentState;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  /** Push the current settings to a running server. */
  settingsChanged(): Promise<void> {
    return this.enqueue(async () => {
      if (this.client) {
        await this.client.sendSettings(this.deps.readSettings());
      }
    });
  }

  private enqueue(operation: () => Promise<void>): Promise<void> {
    const next = this.queue.then(operation, operation);
    this.queue = next.catch((error: unknown) => this.deps.log(`error: ${String(error)}`));
    return next;
  }

  private async doStart(): Promise<void> {
    if (this.client) {
      return;
    }
    const interpreter = await this.deps.resolveInterpreter();
    this.deps.log(`interpreter: ${interpreter.command} (${interpreter.source})`);
    this.deps.report?.({ phase: "starting", interpreter });
    const probe = await this.deps.probe(interpreter.command);
    const advice = this.deps.advise(probe, interpreter);
    if (advice) {
      this.currentState = "blocked";
      this.deps.log(advice.message);
      this.deps.report?.({ phase: "blocked", interpreter, reason: advice.message });
      this.deps.showProblem(advice);
      return;
    }
    const launch = serverLaunch(interpreter.command);
    this.deps.log(`starting: ${launch.command} ${launch.args.join(" ")}`);
    const client = this.deps.createClient(launch, this.deps.readSettings());
    this.client = client;
    try {
      await client.start();
      this.currentState = "running";
      this.deps.report?.({ phase: "running", interpreter, version: client.serverVersion?.() });
    } catch (error) {
      this.client = undefined;
      this.currentState = "stopped";
      this.deps.report?.({ phase: "failed", interpreter, reason: String(error) });
      throw error;
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.currentState = "stopped";
    if (client) {
      await client.stop();
    }
  }
}
