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

export interface StubDocument {
  readonly uri: { fsPath: string; scheme: string; toString(): string };
  readonly languageId: string;
  getText(): string;
}

export interface StubStatusItem {
  id: string;
  text: string;
  detail?: string;
  severity: number;
  busy: boolean;
  name?: string;
  command?: { title: string; command: string };
}

export function jsonDocument(fsPath: string, text: string, languageId = "json"): StubDocument {
  return { uri: { fsPath, scheme: "file", toString: () => `file://${fsPath}` }, languageId, getText: () => text };
}

export function syllabusDocument(fsPath = "/ws/syllabus_ANT.json"): StubDocument {
  return jsonDocument(fsPath, '{"instructions": [{"$phase": "1.train"}]}');
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
  /** Open documents; by default one syllabus, as when VS Code activates on opening it. */
  documents: StubDocument[] = [syllabusDocument()];
  readonly openListeners: Array<Listener<StubDocument>> = [];
  readonly status: StubStatusItem[] = [];
  readonly updates: Array<{ section: string; key: string; value: unknown; target: unknown }> = [];
  readonly shownOutput: number[] = [];
  readonly watchers: string[] = [];
  activeEditor: unknown;

  /** Open a document as VS Code does: it joins textDocuments and onDidOpenTextDocument fires. */
  open(document: StubDocument): void {
    this.documents.push(document);
    for (const listener of this.openListeners) listener(document);
  }

  /** Fire onDidChangeConfiguration as VS Code does after `keys` (e.g. `sylla.ignore`) changed. */
  changeConfiguration(keys: string[]): void {
    const event = {
      affectsConfiguration: (section: string) => keys.some((key) => key === section || key.startsWith(`${section}.`)),
    };
    for (const listener of this.configListeners) listener(event);
  }

  vscodeModule(): unknown {
    const stub = this;
    const uri = (fsPath: string) => ({ fsPath, scheme: "file", toString: () => `file://${fsPath}` });
    const disposable = { dispose: () => undefined };
    const inspectIn = (section: string, key: string) => {
      const name = `${section}.${key}`;
      const workspaceName = `workspace:${name}`;
      return {
        key: name,
        ...(name in stub.config ? { globalValue: stub.config[name] } : {}),
        ...(workspaceName in stub.config ? { workspaceValue: stub.config[workspaceName] } : {}),
      };
    };
    return {
      Uri: {
        file: uri,
        parse: (value: string) => uri(value.replace(/^file:\/\//, "")),
        joinPath: (base: { fsPath: string }, ...parts: string[]) => uri([base.fsPath, ...parts].join("/")),
      },
      ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
      LanguageStatusSeverity: { Information: 0, Warning: 1, Error: 2 },
      languages: {
        createLanguageStatusItem: (id: string) => {
          const item: StubStatusItem & { dispose(): void } = { id, text: "", severity: 0, busy: false, dispose: () => undefined };
          stub.status.push(item);
          return item;
        },
      },
      window: {
        get activeTextEditor() {
          return stub.activeEditor;
        },
        createOutputChannel: () => ({
          appendLine: (line: string) => stub.output.push(line),
          show: () => void stub.shownOutput.push(1),
          dispose: () => undefined,
        }),
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
        get textDocuments() {
          return stub.documents;
        },
        getWorkspaceFolder: () => stub.folders[0],
        getConfiguration: (section: string) => ({
          get: <T>(key: string, fallback?: T) => {
            const name = `${section}.${key}`;
            return name in stub.config ? stub.config[name] : fallback;
          },
          inspect: (key: string) => inspectIn(section, key),
          update: async (key: string, value: unknown, target: unknown) => {
            stub.updates.push({ section, key, value, target });
            stub.config[`${target === 2 ? "workspace:" : ""}${section}.${key}`] = value;
          },
        }),
        onDidOpenTextDocument: (listener: Listener<StubDocument>) => {
          stub.openListeners.push(listener);
          return disposable;
        },
        onDidChangeTextDocument: () => disposable,
        createFileSystemWatcher: (glob: string) => {
          stub.watchers.push(glob);
          return disposable;
        },
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
