/**
 * The Python extension's active interpreter, read through its public `environments` API.
 * Types are structural so that this module never imports `vscode`; every step is guarded
 * because the extension may be missing, fail to activate, or be an older version.
 */
export const PYTHON_EXTENSION_ID = "ms-python.python";

export interface ExtensionLike {
  readonly isActive: boolean;
  readonly exports: unknown;
  activate(): PromiseLike<unknown>;
}

export interface ExtensionRegistry {
  getExtension(id: string): ExtensionLike | undefined;
}

export interface DisposableLike {
  dispose(): unknown;
}

interface EnvironmentPath {
  readonly id?: string;
  readonly path?: string;
}

interface ResolvedEnvironment {
  readonly executable?: { readonly uri?: { readonly fsPath?: string } };
}

export interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: unknown): EnvironmentPath | undefined;
  resolveEnvironment?(environment: EnvironmentPath | string): PromiseLike<ResolvedEnvironment | undefined>;
  onDidChangeActiveEnvironmentPath?(listener: () => unknown): DisposableLike;
}

function environmentsOf(api: unknown): PythonEnvironmentsApi | undefined {
  const environments = (api as { environments?: unknown } | undefined)?.environments;
  if (typeof environments !== "object" || environments === null) {
    return undefined;
  }
  const candidate = environments as Partial<PythonEnvironmentsApi>;
  return typeof candidate.getActiveEnvironmentPath === "function" ? (candidate as PythonEnvironmentsApi) : undefined;
}

/** The `environments` API of the Python extension, activating it if needed; undefined when unavailable. */
export async function pythonEnvironmentsApi(registry: ExtensionRegistry): Promise<PythonEnvironmentsApi | undefined> {
  try {
    const extension = registry.getExtension(PYTHON_EXTENSION_ID);
    if (!extension) {
      return undefined;
    }
    const api = extension.isActive ? extension.exports : await extension.activate();
    return environmentsOf(api ?? extension.exports);
  } catch {
    return undefined;
  }
}

/** The executable of the active environment for `resource`; undefined when it cannot be told. */
export async function activeInterpreter(api: PythonEnvironmentsApi, resource?: unknown): Promise<string | undefined> {
  try {
    const environment = api.getActiveEnvironmentPath(resource);
    if (!environment) {
      return undefined;
    }
    if (typeof api.resolveEnvironment === "function") {
      const resolved = await api.resolveEnvironment(environment);
      const executable = resolved?.executable?.uri?.fsPath;
      if (executable) {
        return executable;
      }
    }
    return environment.path || undefined;
  } catch {
    return undefined;
  }
}
