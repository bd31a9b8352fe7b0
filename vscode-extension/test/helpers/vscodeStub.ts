/**
 * A stand-in for the `vscode` module and `vscode-languageclient/node`, installed with a
 * require hook so that the compiled extension can be activated under plain Node.
 */
import Module from "node:module";

type Listener<T> = (event: T) => unknown;

export interface RecordedClient {
  readonly id: string;
  readonly name: string;
  readonly serverOptions: { command: string; args: string[]; transport: number };
  readonly clientOptions: {
    documentSelector: Array<{ scheme: string; language: string }>;
    initializationOptions: unknown;
    middleware: {
      workspace: {
        configuration: (params: { items: Array<{ section?: string; scopeUri?: string }> }, token: unknown, next: (...args: unknown[]) => unknown) => Promise<unknown>;
      };
    };
  };
  readonly events: string[];
  readonly notifications: Array<{ method: string; params: unknown }>;
}

export interface FakeExtension {
  isActive: boolean;
  exports: unknown;
  activate(): Promise<unknown>;
}

export class VscodeStub {
  config: Record<string, unknown> = {};
  folders: Array<{ uri: { fsPath: string; toString(): string }; name: string; index: number }> = [];
  extensionsById: Record<string, FakeExtension> = {};
  errorChoice: string | undefined;
  readonly errors: Array<{ message: string; items: string[] }> = [];
  readonly infos: string[] = [];
  readonly clipboard: string[] = [];
  readonly terminalText: string[] = [];
  readonly executed: unknown[][] = [];
  readonly commands = new Map<string, (...args: unknown[]) => unknown>();
  readonly configListeners: Array<Listener<{ affectsConfiguration(section: string): boolean }>> = [];
  readonly output: string[] = [];
  readonly clients: RecordedClient[] = [];

  /** Fire onDidChangeConfiguration as VS Code does after `keys` (e.g. `sylla.ignore`) changed. */
  changeConfiguration(keys: string[]): void {
    const event = {
      affectsConfiguration: (section: string) => keys.some((key) => key === section || key.startsWith(`${section}.`)),
    };
    for (const listener of this.configListeners) listener(event);
  }

  vscodeModule(): unknown {
    const stub = this;
    const uri = (fsPath: string) => ({ fsPath, toString: () => `file://${fsPath}` });
    return {
      Uri: { file: uri, parse: (value: string) => uri(value.replace(/^file:\/\//, "")) },
      window: {
        createOutputChannel: () => ({ appendLine: (line: string) => stub.output.push(line), dispose: () => undefined }),
        showErrorMessage: async (message: string, ...items: string[]) => {
          stub.errors.push({ message, items });
          return stub.errorChoice;
        },
        showInformationMessage: async (message: string) => {
          stub.infos.push(message);
          return undefined;
        },
        createTerminal: () => ({ show: () => undefined, sendText: (text: string) => stub.terminalText.push(text) }),
      },
      env: { clipboard: { writeText: async (text: string) => void stub.clipboard.push(text) } },
      commands: {
        registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
          stub.commands.set(id, handler);
          return { dispose: () => stub.commands.delete(id) };
        },
        executeCommand: async (...args: unknown[]) => void stub.executed.push(args),
      },
      workspace: {
        get workspaceFolders() {
          return stub.folders.length ? stub.folders : undefined;
        },
        getWorkspaceFolder: () => stub.folders[0],
        getConfiguration: (section: string) => ({
          get: (key: string) => stub.config[`${section}.${key}`],
          inspect: (key: string) => {
            const name = `${section}.${key}`;
            return name in stub.config ? { key: name, globalValue: stub.config[name] } : { key: name };
          },
        }),
        onDidChangeConfiguration: (listener: Listener<{ affectsConfiguration(section: string): boolean }>) => {
          stub.configListeners.push(listener);
          return { dispose: () => stub.configListeners.splice(stub.configListeners.indexOf(listener), 1) };
        },
      },
      extensions: { getExtension: (id: string) => stub.extensionsById[id] },
    };
  }

  languageClientModule(): unknown {
    const stub = this;
    class LanguageClient {
      private readonly record: RecordedClient;
      constructor(id: string, name: string, serverOptions: RecordedClient["serverOptions"], clientOptions: RecordedClient["clientOptions"]) {
        this.record = { id, name, serverOptions, clientOptions, events: [], notifications: [] };
        stub.clients.push(this.record);
      }
      async start(): Promise<void> {
        this.record.events.push("start");
      }
      async stop(): Promise<void> {
        this.record.events.push("stop");
      }
      async sendNotification(type: { method: string }, params: unknown): Promise<void> {
        this.record.notifications.push({ method: type.method, params });
      }
    }
    return {
      LanguageClient,
      TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 },
      DidChangeConfigurationNotification: { type: { method: "workspace/didChangeConfiguration" } },
    };
  }
}

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleInternals = Module as unknown as { _load: Loader };

/** Route `require("vscode")` and `require("vscode-languageclient/node")` to `stub`. */
export function installStub(stub: VscodeStub): () => void {
  const original = moduleInternals._load;
  moduleInternals._load = function (request, parent, isMain) {
    if (request === "vscode") return stub.vscodeModule();
    if (request === "vscode-languageclient/node") return stub.languageClientModule();
    return original.call(this, request, parent, isMain);
  };
  return () => {
    moduleInternals._load = original;
  };
}

/** Wait until `condition` holds, for work the extension started without awaiting it. */
export async function eventually(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
