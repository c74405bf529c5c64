// The shared shape of a configuration snippet merged by key (issue 26): JSON/JSONC, YAML, TOML and the
// line formats (.env, .ini, .properties, .editorconfig). Each format's merge reads the file and the snippet
// with a parser made for it and answers with minimal text edits, so every byte it does not touch stays.

export type ConfigFormat = 'json' | 'jsonc' | 'yaml' | 'toml' | 'env' | 'ini' | 'properties' | 'editorconfig';

/** One minimal edit of the file's text (offsets in UTF-16 code units of the original text). */
export interface ConfigTextEdit {
  offset: number;
  length: number;
  content: string;
}

/** A key path from the document's root: object keys as strings, list items by index. */
export type KeyPath = ReadonlyArray<string | number>;

/** What the merge did to one key the snippet shows. */
export interface KeyChange {
  path: KeyPath;
  action: 'set' | 'added' | 'removed' | 'unchanged';
  /** 1-based line of the key in the merged text (or, for a removal, in the original). */
  line: number;
}

/** Keys of one object/table/section the snippet did not show, kept as they were. */
export interface KeptKeys {
  /** The object's path ([] for the root). */
  path: KeyPath;
  keys: string[];
}

export type ConfigMergeResult =
  | {
      kind: 'merged';
      /** The file's text after the edits. */
      text: string;
      edits: ConfigTextEdit[];
      changes: KeyChange[];
      kept: KeptKeys[];
    }
  | {
      kind: 'refused';
      /** ambiguous: a bare key fits several places; invalid-snippet: the snippet does not parse as the format
       * even as a fragment; invalid-file: the file does not parse; audit: the merged text failed the re-parse
       * check (does not parse, or a key the snippet did not show changed). */
      reason: 'ambiguous' | 'invalid-snippet' | 'invalid-file' | 'audit' | 'unsupported';
      /** One line a user and a model can act on, naming the place (line, column, key path). */
      message: string;
      /** For 'ambiguous': every place the key fits, with its 1-based line. */
      places?: Array<{ path: KeyPath; line: number }>;
    };

/** Each format's merge: the file's text, the snippet's text. */
export type ConfigMerge = (fileText: string, snippetText: string) => ConfigMergeResult;
