import * as vscode from "vscode";
import { ACTION_CHOOSE_INTERPRETER, ACTION_COPY, ACTION_TERMINAL, type InstallAdvice } from "./installAdvice";

/** Show the advice as an error notification and carry out the button the user picks. */
export async function showInstallAdvice(advice: InstallAdvice): Promise<void> {
  const choice = await vscode.window.showErrorMessage(advice.message, ...advice.actions);
  switch (choice) {
    case ACTION_COPY:
      await vscode.env.clipboard.writeText(advice.installCommand);
      void vscode.window.showInformationMessage(`Copied "${advice.installCommand}". Run "sylla: Restart Server" after installing.`);
      break;
    case ACTION_TERMINAL: {
      const terminal = vscode.window.createTerminal("sylla: install");
      terminal.show();
      terminal.sendText(advice.installCommand, true);
      break;
    }
    case ACTION_CHOOSE_INTERPRETER:
      await vscode.commands.executeCommand("workbench.action.openSettings", "sylla.interpreter");
      break;
    default:
      break;
  }
}
