import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { FIX_ALL_COMMAND, FIX_ALL_KIND, RESTART_COMMAND, SHOW_OUTPUT_COMMAND } from "./commands";
import { isSyllaCheckout } from "./checkout";
import { createLanguageClient } from "./client";
import { ServerController } from "./controller";
import { installAdvice } from "./installAdvice";
import { chooseInterpreter, type Interpreter } from "./interpreter";
import { showInstallAdvice } from "./notify";
import type { PathContext } from "./paths";
import { activeInterpreter, pythonEnvironmentsApi, type DisposableLike } from "./pythonExtension";
import { explicitReader, SETTINGS_SECTION, toServerSettings, type ConfigurationItem, type ServerSettings } from "./settings";
import { withSchemaPatterns } from "./schemaAssociation";
import { statusView, type StatusFacts } from "./status";
import { isXmlDocument, looksLikeBirdsConfig } from "./birdsSniff";
import { isJsonDocument, looksLikeSyllabus } from "./syllabusSniff";
import { probeSylla, runProcess } from "./syllaProbe";

export { FIX_ALL_COMMAND, FIX_ALL_KIND, RESTART_COMMAND, SHOW_OUTPUT_COMMAND };

let controller: ServerController | undefined;

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

function pathContext(folder: vscode.WorkspaceFolder | undefined = firstFolder()): PathContext {
  return { workspaceFolder: folder?.uri.fsPath, home: homedir() };
}

function syllaCheckout(): string | undefined {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    try {
      if (isSyllaCheckout(readFileSync(join(folder.uri.fsPath, "pyproject.toml"), "utf8"))) {
        return folder.uri.fsPath;
      }
    } catch {
      // No readable pyproject.toml: not a checkout.
    }
  }
  return undefined;
}

function settingsFor(item: ConfigurationItem = {}): ServerSettings {
  const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
  const folder = scope ? vscode.workspace.getWorkspaceFolder(scope) : firstFolder();
  return toServerSettings(explicitReader(vscode.workspace.getConfiguration(SETTINGS_SECTION, scope)), pathContext(folder));
}

function enabled(): boolean {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<boolean>("enable", true) !== false;
}

/** A document the server would lint: a syllabus (JSON) or a Science Birds trial config (XML). */
function isOpenSyllabus(document: vscode.TextDocument): boolean {
  const { languageId, uri } = document;
  if (isJsonDocument(languageId, uri.scheme)) return looksLikeSyllabus(document.getText());
  return isXmlDocument(languageId, uri.scheme) && looksLikeBirdsConfig(document.getText(), uri.path);
}

/** Keep the `json.schemas` entry that carries `sylla.schemaPatterns` in step with the setting. */
async function applySchemaPatterns(context: vscode.ExtensionContext, log: (line: string) => void): Promise<void> {
  const inspection = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<string[]>("schemaPatterns");
  const inWorkspace = inspection?.workspaceValue !== undefined;
  const patterns = inWorkspace ? inspection?.workspaceValue : inspection?.globalValue;
  const target = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const schemas = vscode.workspace.getConfiguration("json").inspect<unknown[]>("schemas");
  const current = inWorkspace ? schemas?.workspaceValue : schemas?.globalValue;
  const url = vscode.Uri.joinPath(context.extensionUri, "schemas", "syllabus.schema.json").toString();
  const next = withSchemaPatterns(current, patterns, url);
  if (next !== undefined) {
    log(`json.schemas: syllabus schema for ${JSON.stringify(patterns ?? [])}`);
    await vscode.workspace.getConfiguration("json").update("schemas", next, target);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("sylla");
  const log = (line: string): void => output.appendLine(line);
  let pythonExtensionWatch: DisposableLike | undefined;
  /** Whether the server was asked for: a syllabus was opened (or a restart asked) while enabled. */
  let wanted = false;

  const status = vscode.languages.createLanguageStatusItem("sylla.server", [
    { language: "json" },
    { language: "jsonc" },
    { language: "xml" },
  ]);
  status.name = "sylla language server";
  status.command = { title: "Show Output", command: SHOW_OUTPUT_COMMAND };
  const report = (facts: StatusFacts): void => {
    const view = statusView(facts);
    status.text = view.text;
    status.detail = view.detail;
    status.busy = view.busy;
    status.severity =
      view.severity === "error"
        ? vscode.LanguageStatusSeverity.Error
        : view.severity === "warning"
          ? vscode.LanguageStatusSeverity.Warning
          : vscode.LanguageStatusSeverity.Information;
  };
  report({ phase: enabled() ? "idle" : "disabled" });

  const resolveInterpreter = async (): Promise<Interpreter> => {
    const setting = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>("interpreter");
    let fromPythonExtension: string | undefined;
    if (!setting?.trim()) {
      const api = await pythonEnvironmentsApi(vscode.extensions);
      if (api) {
        pythonExtensionWatch ??= api.onDidChangeActiveEnvironmentPath?.(() => {
          if (wanted && !vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>("interpreter")?.trim()) {
            void current.restart();
          }
        });
        fromPythonExtension = await activeInterpreter(api, firstFolder()?.uri);
      }
    }
    return chooseInterpreter({ setting, pythonExtension: fromPythonExtension }, pathContext());
  };

  const current = new ServerController({
    resolveInterpreter,
    probe: (python) => probeSylla(python, runProcess),
    advise: (probe, interpreter) => installAdvice(probe, interpreter, { checkout: syllaCheckout(), platform: process.platform }),
    readSettings: () => settingsFor(),
    createClient: (launch, settings) => createLanguageClient(launch, settings, { output, settingsFor }),
    showProblem: (advice) => void showInstallAdvice(advice),
    log,
    report,
  });
  controller = current;

  const start = async (): Promise<void> => {
    wanted = true;
    try {
      await current.start();
    } catch (error) {
      log(`the sylla language server failed to start: ${String(error)}`);
      void vscode.window.showErrorMessage(`The sylla language server failed to start: ${String(error)}. See the "sylla" output.`);
    }
  };
  /** Start the server the first time a syllabus or a Science Birds config is open; other JSON
   * and XML never probes Python. */
  const startIfSyllabus = (documents: readonly vscode.TextDocument[]): void => {
    if (!wanted && enabled() && documents.some(isOpenSyllabus)) {
      void start();
    }
  };

  const fixAll = async (): Promise<void> => {
    if (!vscode.window.activeTextEditor) {
      void vscode.window.showInformationMessage("sylla: Fix All works on the active editor; open a syllabus first.");
      return;
    }
    await vscode.commands.executeCommand("editor.action.codeAction", { kind: FIX_ALL_KIND, apply: "first" });
  };

  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand(RESTART_COMMAND, async () => {
      if (!enabled()) {
        void vscode.window.showInformationMessage('sylla is disabled ("sylla.enable"): the server stays off.');
        return;
      }
      wanted = true;
      await current.restart();
    }),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => output.show(true)),
    vscode.commands.registerCommand(FIX_ALL_COMMAND, fixAll),
    vscode.workspace.onDidOpenTextDocument((document) => startIfSyllabus([document])),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (!wanted) startIfSyllabus([event.document]);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.enable`)) {
        if (enabled()) {
          report({ phase: "idle" });
          startIfSyllabus(vscode.workspace.textDocuments);
        } else {
          wanted = false;
          void current.stop().then(() => report({ phase: "disabled" }));
        }
      } else if (event.affectsConfiguration(`${SETTINGS_SECTION}.schemaPatterns`)) {
        void applySchemaPatterns(context, log);
      } else if (event.affectsConfiguration(`${SETTINGS_SECTION}.interpreter`)) {
        if (wanted) void current.restart();
      } else if (event.affectsConfiguration(SETTINGS_SECTION)) {
        void current.settingsChanged();
      }
    }),
    { dispose: () => pythonExtensionWatch?.dispose() },
  );

  void applySchemaPatterns(context, log).catch((error: unknown) => log(`json.schemas not updated: ${String(error)}`));
  if (enabled() && vscode.workspace.textDocuments.some(isOpenSyllabus)) {
    await start();
  }
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
