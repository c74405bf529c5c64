// Which configuration format a file is: by its name first, then its VS Code language id, then its
// extension. Only the names: the merges themselves (and their parsers) are loaded on first use through
// the table in batch/configSnippet.ts, so code that only asks whether a file is a configuration file (the
// code block choice, in the extension's bundle) does not pull jsonc-parser, yaml or smol-toml in.

import type { ConfigFormat } from './types';

/** Names that are JSON with comments whatever their extension says (VS Code reads them as `jsonc`). */
const JSONC_NAMES =
  /^(settings|launch|tasks|keybindings|extensions|devcontainer|\.devcontainer|argv)\.json$|^(tsconfig|jsconfig)([.-].*)?\.json$|^\.(eslintrc|babelrc|jshintrc|swcrc|hintrc)(\.json)?$|\.jsonc$/i;

/** File names (lower case) that name their format outright. */
function formatByName(name: string): ConfigFormat | undefined {
  if (name === '.editorconfig') {
    return 'editorconfig';
  }
  if (name === '.env' || name.startsWith('.env.') || name.endsWith('.env')) {
    return 'env';
  }
  if (JSONC_NAMES.test(name)) {
    return 'jsonc';
  }
  return undefined;
}

/** VS Code language ids (built in and from the common extensions) of configuration formats. */
const BY_LANGUAGE: Readonly<Record<string, ConfigFormat>> = {
  json: 'json',
  jsonc: 'jsonc',
  yaml: 'yaml',
  dockercompose: 'yaml',
  'github-actions-workflow': 'yaml',
  toml: 'toml',
  dotenv: 'env',
  env: 'env',
  ini: 'ini',
  'java-properties': 'properties',
  editorconfig: 'editorconfig',
};

/**
 * VS Code's 'properties' language also covers .conf (nginx, Apache), .gitattributes, .gitconfig and .cfg:
 * only a `.properties` file is read as key=value lines, a `.cfg` as INI; the rest are no configuration
 * files here (their code blocks are placed by structure, as the CLI places them).
 */
const BY_PROPERTIES_EXTENSION: Readonly<Record<string, ConfigFormat>> = { properties: 'properties', cfg: 'ini' };

const BY_EXTENSION: Readonly<Record<string, ConfigFormat>> = {
  json: 'json',
  jsonc: 'jsonc',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  cfg: 'ini',
  properties: 'properties',
};

/**
 * The configuration format of a file, or undefined when it is no configuration file (its code blocks are
 * then placed by structure). `fileName` may be a path or a URI; its last segment decides.
 */
export function configFormatOf(fileName: string | undefined, languageId?: string): ConfigFormat | undefined {
  const name = (fileName ?? '').split(/[\\/]/).pop()?.toLowerCase() ?? '';
  const named = formatByName(name);
  if (named) {
    return named;
  }
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1) : '';
  if (languageId === 'properties') {
    return BY_PROPERTIES_EXTENSION[extension];
  }
  const language = languageId ? BY_LANGUAGE[languageId] : undefined;
  if (language) {
    return language;
  }
  if (languageId && languageId !== 'plaintext') {
    // A file whose language is known and is no configuration (a `.json` opened as JavaScript) is not merged by key.
    return undefined;
  }
  return extension ? BY_EXTENSION[extension] : undefined;
}
