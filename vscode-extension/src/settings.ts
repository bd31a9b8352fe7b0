import { expandPath, type PathContext } from "./paths";

export const SETTINGS_SECTION = "sylla";

export const PROFILES = ["l2m", "pretest"] as const;
export type Profile = (typeof PROFILES)[number];

export const SYLLABUS_TYPES = ["CL", "ANT-A", "ANT-B", "ANT-C"] as const;
export type SyllabusType = (typeof SYLLABUS_TYPES)[number];

/**
 * The settings the server reads, under the names it reads them by. A key is absent when the
 * user left it unset, so that the file's `pyproject.toml` / `sylla.toml` decides instead.
 */
export interface ServerSettings {
  profile?: Profile;
  select?: string[];
  ignore?: string[];
  registry?: string;
  type?: SyllabusType;
}

/** Reads one key of the `sylla` section; undefined when the user did not set it. */
export type SettingReader = (key: string) => unknown;

/** What `WorkspaceConfiguration.inspect` reports for one key. */
export interface SettingInspection {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

export interface InspectableConfiguration {
  inspect(key: string): SettingInspection | undefined;
}

/**
 * Read only values the user set (folder over workspace over user settings), never the
 * manifest's defaults, so that an unset key leaves the decision to the project's files.
 */
export function explicitReader(config: InspectableConfiguration): SettingReader {
  return (key) => {
    const inspection = config.inspect(key);
    return inspection?.workspaceFolderValue ?? inspection?.workspaceValue ?? inspection?.globalValue;
  };
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

function codeList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }
  return value.filter((item): item is string => typeof item === "string").map((item) => item.trim()).filter(Boolean);
}

/** Map the `sylla.*` configuration to the object sent to the server. */
export function toServerSettings(read: SettingReader, context: PathContext): ServerSettings {
  const settings: ServerSettings = {};
  const profile = oneOf(read("profile"), PROFILES);
  if (profile) settings.profile = profile;
  const select = codeList(read("select"));
  if (select) settings.select = select;
  const ignore = codeList(read("ignore"));
  if (ignore) settings.ignore = ignore;
  const registry = read("registry");
  if (typeof registry === "string" && registry.trim()) settings.registry = expandPath(registry, context);
  const type = oneOf(read("type"), SYLLABUS_TYPES);
  if (type) settings.type = type;
  return settings;
}

/** `workspace/didChangeConfiguration` params, shaped as `{settings: {sylla: {...}}}`. */
export function didChangeConfigurationParams(settings: ServerSettings): { settings: { sylla: ServerSettings } } {
  return { settings: { [SETTINGS_SECTION]: settings } as { sylla: ServerSettings } };
}

/** One item of a `workspace/configuration` request. */
export interface ConfigurationItem {
  readonly section?: string | null;
  readonly scopeUri?: string | null;
}

/**
 * Replace the raw `sylla` section in a `workspace/configuration` answer (which includes the
 * manifest's defaults) with the mapped server settings; other sections pass through unchanged.
 */
export function mapConfigurationResults(
  items: readonly ConfigurationItem[],
  results: readonly unknown[],
  map: (item: ConfigurationItem) => ServerSettings,
): unknown[] {
  return results.map((result, index) => {
    const item = items[index];
    return item?.section === SETTINGS_SECTION ? map(item) : result;
  });
}
