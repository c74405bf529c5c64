// When a code block is a whole-file rewrite (issue 25, rule 2), shared by the planner and the audit: only
// when it shows every top-level declaration of the file (by kind and name; imports and loose statements
// may change) or the file has none, and never for a configuration file (JSON, YAML, TOML), whose partial
// snippets are merged by key or refused. A block that begins at the file's top and shows some of its
// declarations is a partial edit: the ones it omits are kept.

import { type Decl, describeDecl } from '../../match/structure/outline';

const CONFIG_LANGUAGES = new Set(['json', 'jsonc', 'json5', 'yaml', 'toml', 'dockercompose']);
const CONFIG_EXTENSIONS = /\.(json|jsonc|json5|yaml|yml|toml|lock)$/i;

/** A configuration file (JSON, YAML, TOML): a block of it is never a whole-file rewrite. */
export function isConfigFile(languageId: string | undefined, fileName: string | undefined): boolean {
  return (languageId !== undefined && CONFIG_LANGUAGES.has(languageId.toLowerCase())) || CONFIG_EXTENSIONS.test(fileName ?? '');
}

const keyOf = (decl: Pick<Decl, 'family' | 'name'>): string => `${decl.family} ${decl.name}`;

/** The file's top-level declarations the block's top level does not show (by family and name, counted). */
export function unshownTopDecls(fileTop: readonly Decl[], blockTop: readonly Decl[]): Decl[] {
  const shown = new Map<string, number>();
  for (const d of blockTop) {
    shown.set(keyOf(d), (shown.get(keyOf(d)) ?? 0) + 1);
  }
  const missing: Decl[] = [];
  for (const d of fileTop) {
    const left = shown.get(keyOf(d)) ?? 0;
    if (left > 0) {
      shown.set(keyOf(d), left - 1);
    } else {
      missing.push(d);
    }
  }
  return missing;
}

export interface RewriteQuestion {
  fileTop: readonly Decl[];
  blockTop: readonly Decl[];
  /** The block has placeholder lines (then it is never a rewrite). */
  placeholders: boolean;
  config: boolean;
}

/**
 * Whether the block MAY rewrite the whole file (the rule's necessary condition): no placeholders, not a
 * configuration file, and every top-level declaration of the file shown (or the file has none). The
 * planner asks more of a file without declarations (its first and last lines, half its length).
 */
export function rewriteAllowed(q: RewriteQuestion): boolean {
  return !q.placeholders && !q.config && unshownTopDecls(q.fileTop, q.blockTop).length === 0;
}

/** "function b, function c" (at most `limit` named, then "and N more"). */
export function listDecls(decls: readonly Decl[], limit = 6): string {
  const named = decls.slice(0, limit).map(describeDecl);
  const rest = decls.length - named.length;
  return rest > 0 ? `${named.join(', ')} and ${rest} more` : named.join(', ');
}
