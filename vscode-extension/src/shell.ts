/** Quote one argument for the user's shell so a pasted command keeps paths with spaces intact. */
export function quoteArg(arg: string, platform: NodeJS.Platform): string {
  if (/^[\w@%+=:,./\\-]+$/.test(arg)) {
    return arg;
  }
  if (platform === "win32") {
    return `"${arg.replace(/"/g, '\\"')}"`;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(args: readonly string[], platform: NodeJS.Platform): string {
  return args.map((arg) => quoteArg(arg, platform)).join(" ");
}
