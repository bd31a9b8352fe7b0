import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { isSyllaCheckout } from "./checkout";
import { createLanguageClient } from "./client";
import { ServerController } from "./controller";
import { installAdvice } from "./installAdvice";
import { chooseInterpreter, type Interpreter } from "./interpreter";
import { showInstallAdvice } from "./notify";
import type { PathContext } from "./paths";
import { activeInterpreter, pythonEnvironmentsApi, type DisposableLike } from "./pythonExtension";
import { explicitReader, SETTINGS_SECTION, toServerSettings, type ConfigurationItem, type ServerSettings } from "./settings";
import { probeSylla, runProcess } from "./syllaProbe";

export const RESTART_COMMAND = "sylla.restartServer";

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

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("sylla");
  const log = (line: string): void => output.appendLine(line);
  let pythonExtensionWatch: DisposableLike | undefined;

  const resolveInterpreter = async (): Promise<Interpreter> => {
    const setting = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>("interpreter");
    let fromPythonExtension: string | undefined;
    if (!setting?.trim()) {
      const api = await pythonEnvironmentsApi(vscode.extensions);
      if (api) {
        pythonExtensionWatch ??= api.onDidChangeActiveEnvironmentPath?.(() => {
          if (!vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>("interpreter")?.trim()) {
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
  });
  controller = current;

  context.subscriptions.push(
    output,
    vscode.commands.registerCommand(RESTART_COMMAND, () => current.restart()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.interpreter`)) {
        void current.restart();
      } else if (event.affectsConfiguration(SETTINGS_SECTION)) {
        void current.settingsChanged();
      }
    }),
    { dispose: () => pythonExtensionWatch?.dispose() },
  );

  try {
    await current.start();
  } catch (error) {
    log(`the sylla language server failed to start: ${String(error)}`);
    void vscode.window.showErrorMessage(`The sylla language server failed to start: ${String(error)}. See the "sylla" output.`);
  }
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
