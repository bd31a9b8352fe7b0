/** True when `pyproject.toml` text declares the `sylla` project, i.e. its folder is a sylla checkout. */
export function isSyllaCheckout(pyprojectText: string): boolean {
  let inProject = false;
  for (const rawLine of pyprojectText.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line.startsWith("[")) {
      inProject = line === "[project]";
      continue;
    }
    if (inProject && /^name\s*=\s*["']sylla["']\s*(#.*)?$/.test(line)) {
      return true;
    }
  }
  return false;
}
