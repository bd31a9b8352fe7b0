/**
 * The user setting `sylla.schemaPatterns` extends the manifest's `jsonValidation` (which is
 * static) by one entry of VS Code's own `json.schemas` setting, pointing at the schema shipped
 * in the extension. The entry is recognised by its url, so it is replaced, never duplicated,
 * and removed again when the patterns are emptied; other entries are left as they are.
 */
export interface JsonSchemaEntry {
  readonly fileMatch?: readonly string[];
  readonly url?: string;
  readonly [key: string]: unknown;
}

function cleanPatterns(patterns: unknown): string[] {
  if (!Array.isArray(patterns)) return [];
  return patterns.filter((p): p is string => typeof p === "string").map((p) => p.trim()).filter(Boolean);
}

/** The new `json.schemas` value, or undefined when nothing needs to change. */
export function withSchemaPatterns(current: unknown, patterns: unknown, schemaUrl: string): JsonSchemaEntry[] | undefined {
  const entries = Array.isArray(current) ? (current as JsonSchemaEntry[]) : [];
  const others = entries.filter((entry) => entry?.url !== schemaUrl);
  const wanted = cleanPatterns(patterns);
  const next = wanted.length > 0 ? [...others, { fileMatch: wanted, url: schemaUrl }] : others;
  return JSON.stringify(next) === JSON.stringify(entries) ? undefined : next;
}
