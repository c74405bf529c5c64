// The message of a configuration snippet merged by key (issue 26): what was set and added, at which line,
// which keys the snippet did not show and were kept (so a user who meant a removal sees it), or why it
// was refused, naming the places. The same text for the CLI, the tool, chat and the editor.

/** A key path from the document's root: object keys, list items by index (config/types.ts KeyPath). */
export type MessageKeyPath = ReadonlyArray<string | number>;

export interface ConfigMessageInput {
  fileName: string;
  outcome:
    | {
        kind: 'merged';
        changes: ReadonlyArray<{ path: MessageKeyPath; action: 'set' | 'added' | 'removed' | 'unchanged'; line: number }>;
        kept: ReadonlyArray<{ path: MessageKeyPath; keys: readonly string[] }>;
      }
    | { kind: 'refused'; message: string };
}

/** How many kept keys of one object are named before "and N more". */
const MAX_KEPT_NAMED = 8;

/** `scripts.lint`, `devDependencies["@types/node"]`, `configurations[1].program`; the root is "the top level". */
export function formatKeyPath(path: MessageKeyPath): string {
  if (path.length === 0) {
    return 'the top level';
  }
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') {
      out += `[${part}]`;
    } else if (/^[A-Za-z_$][\w$-]*$/.test(part)) {
      out += out === '' ? part : `.${part}`;
    } else {
      out += `[${JSON.stringify(part)}]`;
    }
  }
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function keptPhrase(kept: ConfigMessageInput['outcome'] & { kind: 'merged' }): string {
  const groups = kept.kept.filter((k) => k.keys.length > 0);
  if (groups.length === 0) {
    return '';
  }
  const names = (keys: readonly string[]): string =>
    keys.length > MAX_KEPT_NAMED ? `${keys.slice(0, MAX_KEPT_NAMED).join(', ')} and ${keys.length - MAX_KEPT_NAMED} more` : keys.join(', ');
  const total = groups.reduce((n, g) => n + g.keys.length, 0);
  if (groups.length === 1) {
    const [only] = groups;
    const where = only.path.length === 0 ? '' : ` in ${formatKeyPath(only.path)}`;
    return `kept ${plural(total, 'key')} the snippet did not show${where}: ${names(only.keys)}`;
  }
  return `kept ${plural(total, 'key')} the snippet did not show: ${groups.map((g) => `${g.path.length === 0 ? 'at the top level' : `in ${formatKeyPath(g.path)}`}: ${names(g.keys)}`).join('; ')}`;
}

/** The one message of a configuration merge. */
export function formatConfigMessage(input: ConfigMessageInput): string {
  const { fileName, outcome } = input;
  if (outcome.kind === 'refused') {
    return `The snippet was not applied to ${fileName}: ${outcome.message.replace(/\.?$/, '.')}`;
  }
  const done = outcome.changes.filter((c) => c.action !== 'unchanged');
  if (done.length === 0) {
    const shown = outcome.changes.slice(0, 3).map((c) => `${formatKeyPath(c.path)} at line ${c.line}`);
    return `Nothing to apply to ${fileName}: it already holds every key the snippet shows${shown.length > 0 ? ` (${shown.join(', ')})` : ''}. Do not re-send it.`;
  }
  const verbs = done.map((c) => `${c.action} ${formatKeyPath(c.path)} (line ${c.line})`);
  const kept = keptPhrase(outcome);
  return `Applied the snippet to ${fileName}: ${verbs.join(', ')}${kept ? `; ${kept}` : ''}.`;
}
