// The table of configuration merges by format (configFormatOf, which format a file is, in formatOfFile.ts).
// Each merge is its own module, loaded on first use: the parsers (jsonc-parser, yaml, smol-toml) stay out
// of everything that does not merge a configuration.

import type { ConfigFormat, ConfigMerge } from './types';
import { configFormatOf } from './formatOfFile';

export { configFormatOf };

/**
 * The merge of each format, loaded on first use. A format without an entry is placed by structure, as a
 * code block of any other file is.
 */
export const CONFIG_MERGES: Readonly<Partial<Record<ConfigFormat, () => Promise<ConfigMerge>>>> = {
  json: () => import('./json').then((m) => m.mergeJson),
  jsonc: () => import('./json').then((m) => m.mergeJsonc),
  yaml: () => import('./yaml').then((module) => module.mergeYaml),
  toml: () => import('./toml').then((module) => module.mergeToml),
  env: () => import('./lineFormats').then((module) => module.mergeEnv),
  ini: () => import('./lineFormats').then((module) => module.mergeIni),
  editorconfig: () => import('./lineFormats').then((module) => module.mergeEditorconfig),
  properties: () => import('./lineFormats').then((module) => module.mergeProperties),
};

/** The merge for a file, loaded; undefined when the file is no configuration file or its format has no merge yet. */
export async function configMergeFor(fileName: string | undefined, languageId?: string): Promise<ConfigMerge | undefined> {
  const format = configFormatOf(fileName, languageId);
  const load = format ? CONFIG_MERGES[format] : undefined;
  return load ? load() : undefined;
}
