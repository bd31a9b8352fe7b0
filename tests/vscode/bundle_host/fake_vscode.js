// A minimal stand-in for the editor's `vscode` module: only the host API surface (documents,
// configuration, windows, registrations, value classes). The language client is NOT faked: it
// is the real vscode-languageclient bundled inside the packaged dist/extension.js.
//
// Registrations the test does not look at return a disposable; everything the test asserts on
// (diagnostics, output, error pop-ups, language status) is recorded in `host`.
"use strict";
const path = require("node:path");
const { EventEmitter: NodeEmitter } = require("node:events");

const host = {
  config: {},
  folders: [],
  documents: [],
  diagnostics: new Map(), // uri -> [{code, message, line}]
  output: [],
  errors: [],
  infos: [],
  statusItems: [],
  commands: new Map(),
  watchers: [],
  unknown: new Set(),
  events: new NodeEmitter(),
};

class Disposable {
  constructor(fn) { this._fn = fn; }
  static from(...items) { return new Disposable(() => items.forEach((i) => i && i.dispose && i.dispose())); }
  dispose() { if (this._fn) { this._fn(); this._fn = undefined; } }
}

class EventEmitter {
  constructor() {
    this._listeners = [];
    this.event = (listener, thisArg) => {
      const bound = thisArg ? listener.bind(thisArg) : listener;
      this._listeners.push(bound);
      return new Disposable(() => { this._listeners = this._listeners.filter((l) => l !== bound); });
    };
  }
  fire(value) { for (const l of [...this._listeners]) l(value); }
  dispose() { this._listeners = []; }
}

class Uri {
  constructor(scheme, authority, fsPath, query, fragment) {
    this.scheme = scheme; this.authority = authority || ""; this.path = fsPath; this.query = query || ""; this.fragment = fragment || "";
  }
  get fsPath() { return this.path; }
  static file(p) { return new Uri("file", "", path.resolve(p)); }
  static parse(value) {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`fake vscode: cannot parse URI ${value}`);
    return new Uri(m[1], m[2], decodeURIComponent(m[3]), m[4], m[5]);
  }
  with(change) { return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment); }
  toString() {
    const encoded = this.path.split("/").map(encodeURIComponent).join("/");
    return `${this.scheme}://${this.authority}${encoded}${this.query ? `?${this.query}` : ""}${this.fragment ? `#${this.fragment}` : ""}`;
  }
  toJSON() { return { scheme: this.scheme, path: this.path, fsPath: this.path, external: this.toString() }; }
}

class Position {
  constructor(line, character) { this.line = line; this.character = character; }
  isBefore(o) { return this.line < o.line || (this.line === o.line && this.character < o.character); }
  isEqual(o) { return this.line === o.line && this.character === o.character; }
  translate(dl = 0, dc = 0) { return new Position(this.line + dl, this.character + dc); }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === "number") { this.start = new Position(a, b); this.end = new Position(c, d); }
    else { this.start = a; this.end = b; }
  }
  get isEmpty() { return this.start.isEqual(this.end); }
  contains(p) { const q = p.start || p; return !q.isBefore(this.start) && !this.end.isBefore(q); }
}

class Selection extends Range {}
class Location { constructor(uri, range) { this.uri = uri; this.range = range; } }
class Diagnostic { constructor(range, message, severity = 0) { this.range = range; this.message = message; this.severity = severity; } }
class DiagnosticRelatedInformation { constructor(location, message) { this.location = location; this.message = message; } }
class MarkdownString {
  constructor(value = "", supportThemeIcons = false) { this.value = value; this.supportThemeIcons = supportThemeIcons; }
  appendMarkdown(v) { this.value += v; return this; }
  appendText(v) { this.value += v; return this; }
  appendCodeblock(v, lang = "") { this.value += `\n\`\`\`${lang}\n${v}\n\`\`\`\n`; return this; }
}
class TextEdit {
  constructor(range, newText) { this.range = range; this.newText = newText; }
  static replace(r, t) { return new TextEdit(r, t); }
  static insert(p, t) { return new TextEdit(new Range(p, p), t); }
  static delete(r) { return new TextEdit(r, ""); }
}
class WorkspaceEdit {
  constructor() { this._edits = []; }
  replace(uri, range, text) { this._edits.push([uri, new TextEdit(range, text)]); }
  set(uri, edits) { for (const e of edits) this._edits.push([uri, e]); }
  entries() { return this._edits.map(([u, e]) => [u, [e]]); }
}
// The client pulls diagnostics for the documents shown in tabs: each open document has one.
class TabInputText { constructor(uri) { this.uri = uri; } }

class CancellationTokenSource {
  constructor() { const e = new EventEmitter(); this.token = { isCancellationRequested: false, onCancellationRequested: e.event }; this._e = e; }
  cancel() { this.token.isCancellationRequested = true; this._e.fire(); }
  dispose() {}
}
class CodeActionKind {
  constructor(value) { this.value = value; }
  append(part) { return new CodeActionKind(this.value ? `${this.value}.${part}` : part); }
  contains(other) { return this.value === other.value || other.value.startsWith(`${this.value}.`); }
  intersects(other) { return this.contains(other) || other.contains(this); }
}
for (const [name, value] of Object.entries({ Empty: "", QuickFix: "quickfix", Refactor: "refactor", Source: "source", SourceFixAll: "source.fixAll", SourceOrganizeImports: "source.organizeImports", RefactorExtract: "refactor.extract", RefactorInline: "refactor.inline", RefactorRewrite: "refactor.rewrite", Notebook: "notebook" })) {
  CodeActionKind[name] = new CodeActionKind(value);
}
// Value classes the client may build while converting a server answer the test does not read.
function plainClass(name) {
  return { [name]: class { constructor(...args) { this.args = args; } } }[name];
}

function enumOf(...names) { const e = {}; names.forEach((n, i) => { e[n] = i; e[i] = n; }); return e; }

function textDocument(file, languageId, text) {
  const lines = text.split(/\r\n|\r|\n/);
  const offsets = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) offsets.push(m.index + m[0].length);
  const doc = {
    uri: Uri.file(file),
    fileName: path.resolve(file),
    languageId,
    version: 1,
    isDirty: false,
    isClosed: false,
    isUntitled: false,
    eol: 1,
    lineCount: lines.length,
    getText: (range) => (range ? text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end)) : text),
    offsetAt: (p) => Math.min(text.length, offsets[p.line] + p.character),
    positionAt: (o) => { let l = 0; while (l + 1 < offsets.length && offsets[l + 1] <= o) l++; return new Position(l, o - offsets[l]); },
    lineAt: (l) => ({ text: lines[typeof l === "number" ? l : l.line], lineNumber: l }),
    save: async () => true,
  };
  return doc;
}

function matchesFilter(filter, doc) {
  if (typeof filter === "string") return filter === doc.languageId;
  if (filter.language && filter.language !== doc.languageId) return false;
  if (filter.scheme && filter.scheme !== doc.uri.scheme) return false;
  if (filter.pattern) {
    const pattern = typeof filter.pattern === "string" ? filter.pattern : filter.pattern.pattern;
    if (!new RegExp(`^${pattern.replace(/[.+^$()|[\]\\]/g, "\\$&").replace(/\*\*\/?/g, ".*").replace(/(?<!\.)\*/g, "[^/]*")}$`).test(doc.fileName)) return false;
  }
  return true;
}

const onOpen = new EventEmitter();
const onClose = new EventEmitter();
const onConfig = new EventEmitter();
const disposable = () => new Disposable(() => undefined);
const none = new EventEmitter().event;

// Namespaces whose unlisted members are registrations or events: answer with a disposable, and
// remember the name so the test can print what the client touched if something goes wrong.
function namespace(name, members) {
  return new Proxy(members, {
    get(target, prop) {
      if (prop in target) return target[prop];
      if (typeof prop !== "string") return undefined;
      host.unknown.add(`${name}.${prop}`);
      if (prop.startsWith("onDid") || prop.startsWith("onWill")) return none;
      return () => disposable();
    },
  });
}

function configuration(section) {
  const full = (key) => (section ? `${section}.${key}` : key);
  return {
    get: (key, fallback) => (full(key) in host.config ? host.config[full(key)] : fallback),
    has: (key) => full(key) in host.config,
    inspect: (key) => (full(key) in host.config ? { key: full(key), globalValue: host.config[full(key)] } : { key: full(key) }),
    update: async (key, value) => { host.config[full(key)] = value; },
  };
}

const vscode = {
  version: "1.99.0",
  Disposable, EventEmitter, Uri, Position, Range, Selection, Location, Diagnostic, DiagnosticRelatedInformation,
  MarkdownString, TextEdit, WorkspaceEdit, CancellationTokenSource, CodeActionKind,
  CodeAction: plainClass("CodeAction"), Hover: plainClass("Hover"), CompletionItem: plainClass("CompletionItem"),
  CompletionList: plainClass("CompletionList"), FoldingRange: plainClass("FoldingRange"), DocumentSymbol: plainClass("DocumentSymbol"),
  SymbolInformation: plainClass("SymbolInformation"), InlayHint: plainClass("InlayHint"), InlayHintLabelPart: plainClass("InlayHintLabelPart"),
  SnippetString: plainClass("SnippetString"), ThemeIcon: plainClass("ThemeIcon"), CodeLens: plainClass("CodeLens"),
  CallHierarchyItem: plainClass("CallHierarchyItem"), TypeHierarchyItem: plainClass("TypeHierarchyItem"),
  CancellationError: class CancellationError extends Error {},
  SemanticTokens: plainClass("SemanticTokens"), DocumentLink: plainClass("DocumentLink"), Color: plainClass("Color"),
  SignatureHelp: plainClass("SignatureHelp"), TabInputText, TabInputTextDiff: plainClass("TabInputTextDiff"),
  TabInputNotebook: plainClass("TabInputNotebook"), TabInputNotebookDiff: plainClass("TabInputNotebookDiff"),
  RelativePattern: class { constructor(base, pattern) { this.baseUri = typeof base === "string" ? Uri.file(base) : base.uri || base; this.base = this.baseUri.fsPath; this.pattern = pattern; } },
  DiagnosticSeverity: enumOf("Error", "Warning", "Information", "Hint"),
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  LanguageStatusSeverity: enumOf("Information", "Warning", "Error"),
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  CompletionItemKind: new Proxy({}, { get: (_t, p) => p }),
  SymbolKind: new Proxy({}, { get: (_t, p) => p }),
  CompletionTriggerKind: { Invoke: 0, TriggerCharacter: 1, TriggerForIncompleteCompletions: 2 },
  FoldingRangeKind: { Comment: 1, Imports: 2, Region: 3 },
  InlayHintKind: { Type: 1, Parameter: 2 },
  CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
  env: namespace("env", {
    appName: "fake vscode", language: "en", machineId: "fake", sessionId: "fake", uiKind: 1,
    clipboard: { writeText: async () => undefined, readText: async () => "" },
    openExternal: async () => true,
  }),
  workspace: namespace("workspace", {
    get workspaceFolders() { return host.folders.length ? host.folders : undefined; },
    get textDocuments() { return host.documents; },
    get notebookDocuments() { return []; },
    get isTrusted() { return true; },
    name: "fake",
    getWorkspaceFolder: (uri) => host.folders.find((f) => uri.fsPath.startsWith(f.uri.fsPath)),
    getConfiguration: configuration,
    onDidOpenTextDocument: onOpen.event,
    onDidCloseTextDocument: onClose.event,
    onDidChangeConfiguration: onConfig.event,
    // A watcher over the workspace folder: run_bundle.js fires it after it writes a file, as
    // VS Code's file watcher would (glob matching is left to the names the test writes).
    createFileSystemWatcher: (glob) => {
      const created = new EventEmitter();
      const changed = new EventEmitter();
      const deleted = new EventEmitter();
      host.watchers.push({ glob, created, changed, deleted });
      return { onDidCreate: created.event, onDidChange: changed.event, onDidDelete: deleted.event, dispose() {} };
    },
    findFiles: async () => [],
    fs: { stat: async () => ({ type: 1 }), readFile: async () => new Uint8Array() },
  }),
  window: namespace("window", {
    get activeTextEditor() { return undefined; },
    get visibleTextEditors() { return []; },
    get tabGroups() {
      const tabs = host.documents.map((d) => ({ input: new TabInputText(d.uri), label: path.basename(d.fileName), isActive: true }));
      return { all: [{ tabs, isActive: true, viewColumn: 1 }], activeTabGroup: { tabs }, onDidChangeTabs: none, onDidChangeTabGroups: none };
    },
    createOutputChannel: (name) => ({
      name,
      append: (t) => host.output.push(String(t)),
      appendLine: (t) => host.output.push(`${t}\n`),
      replace: () => undefined, clear: () => undefined, show: () => undefined, hide: () => undefined, dispose: () => undefined,
      trace() {}, debug() {}, info(t) { host.output.push(`${t}\n`); }, warn(t) { host.output.push(`${t}\n`); }, error(t) { host.output.push(`${t}\n`); },
    }),
    showErrorMessage: async (message, ...items) => { host.errors.push(message); host.events.emit("change"); return undefined; },
    showWarningMessage: async (message) => { host.errors.push(message); return undefined; },
    showInformationMessage: async (message) => { host.infos.push(message); return undefined; },
    createStatusBarItem: () => ({ show() {}, hide() {}, dispose() {} }),
  }),
  languages: namespace("languages", {
    match: (selector, doc) => ([].concat(selector).some((f) => matchesFilter(f, doc)) ? 10 : 0),
    createDiagnosticCollection: (name) => {
      const collection = {
        name,
        set(uri, diagnostics) {
          if (Array.isArray(uri)) { for (const [u, d] of uri) collection.set(u, d); return; }
          host.diagnostics.set(uri.toString(), (diagnostics || []).map((d) => ({
            code: typeof d.code === "object" && d.code !== null ? d.code.value : d.code,
            message: d.message,
            line: d.range.start.line,
          })));
          host.events.emit("change");
        },
        delete(uri) { host.diagnostics.delete(uri.toString()); },
        clear() {}, forEach() {}, get: (uri) => host.diagnostics.get(uri.toString()), has: (uri) => host.diagnostics.has(uri.toString()), dispose() {},
      };
      return collection;
    },
    createLanguageStatusItem: (id, selector) => {
      const item = { id, selector, text: "", detail: "", severity: 0, busy: false, command: undefined, dispose() {} };
      host.statusItems.push(item);
      return item;
    },
    getLanguages: async () => ["json", "jsonc"],
  }),
  commands: namespace("commands", {
    registerCommand: (id, handler) => { host.commands.set(id, handler); return new Disposable(() => host.commands.delete(id)); },
    executeCommand: async (id, ...args) => (host.commands.has(id) ? host.commands.get(id)(...args) : undefined),
    getCommands: async () => [...host.commands.keys()],
  }),
  extensions: namespace("extensions", { getExtension: () => undefined, all: [] }),
  notebooks: namespace("notebooks", {}),
  tests: namespace("tests", {}),
  debug: namespace("debug", {}),
  scm: namespace("scm", {}),
  tasks: namespace("tasks", {}),
  l10n: { t: (message, ...args) => (typeof message === "string" ? message.replace(/\{(\d+)\}/g, (_m, i) => String(args[i])) : message.message) },
};

/** Put a document in the workspace as if the user had opened it. */
function openDocument(file, languageId, text) {
  const doc = textDocument(file, languageId, text);
  host.documents.push(doc);
  onOpen.fire(doc);
  return doc;
}

module.exports = { vscode, host, openDocument, Uri };
