/** Where `${workspaceFolder}`, `${userHome}` and a leading `~` point when a setting is expanded. */
export interface PathContext {
  readonly workspaceFolder?: string;
  readonly home: string;
}

/** Expand the variables VS Code users commonly write in path settings. */
export function expandPath(value: string, context: PathContext): string {
  let expanded = value.trim();
  if (expanded === "~" || expanded.startsWith("~/") || expanded.startsWith("~\\")) {
    expanded = context.home + expanded.slice(1);
  }
  expanded = expanded.replace(/\$\{userHome\}/g, context.home);
  if (context.workspaceFolder !== undefined) {
    expanded = expanded.replace(/\$\{workspaceFolder\}/g, context.workspaceFolder);
  }
  return expanded;
}
