// The audit's rule that no scope gains a second declaration of a name (issue 25): of the names the block
// shows or the plan wrote, a scope of the result may declare each as often as the file did, or as the block
// itself does in that scope (a getter and a setter), or more only as new overloads.

import { type Decl, describeDecl, walkDecls } from '../../match/structure/outline';
import type { AuditFailure, AuditInput } from './auditTypes';
import { fileLineOf, keptLines } from './lineDiff';

const placeOf = (decl: Decl): { start: number; end: number } => ({ start: decl.lead, end: decl.end + 1 });

/**
 * Declarations per scope and name: "enclosing path|family|name" -> the declarations, in the order first
 * met depth first. With `names`, only declarations of those names are listed (every scope is still walked,
 * and a name or scope with a `|` in it, `operator|`, is always listed: its key reads the same either way);
 * a key is made only for them, not for each of the file's thousands of declarations.
 */
function byScope(decls: readonly Decl[], names?: ReadonlySet<string>): Map<string, Decl[]> {
  const scopes = new Map<string, Decl[]>();
  const path: string[] = [];
  let barsInPath = 0;
  const walk = (list: readonly Decl[]): void => {
    for (const decl of list) {
      const bar = decl.name.includes('|');
      if (!names || names.has(decl.name) || bar || barsInPath > 0) {
        const key = `${path.join('.')}|${decl.family}|${decl.name}`;
        const known = scopes.get(key);
        if (known) {
          known.push(decl);
        } else {
          scopes.set(key, [decl]);
        }
      }
      if (decl.children.length > 0) {
        path.push(decl.name);
        barsInPath += bar ? 1 : 0;
        walk(decl.children);
        barsInPath -= bar ? 1 : 0;
        path.pop();
      }
    }
  };
  walk(decls);
  return scopes;
}

export function noSecondDeclaration(input: AuditInput): AuditFailure | undefined {
  if (input.resultOutline.reader === 'outline') {
    return undefined;
  }
  const names = new Set([...walkDecls(input.blockOutline.decls)].map(({ decl }) => decl.name));
  // And the declarations the plan wrote, as the result reads them: a block that does not parse whole
  // (Flow types read by the JavaScript grammar) may list fewer than it holds.
  const kept = keptLines(input.fileLines, input.resultLines);
  if (kept) {
    const fromFile = fileLineOf(kept, input.resultLines.length);
    const written = (decls: readonly Decl[]): void => {
      for (const decl of decls) {
        if (fromFile[decl.start] < 0) {
          names.add(decl.name);
        }
        written(decl.children);
      }
    };
    written(input.resultOutline.decls);
  }
  // Only a name the block shows or the plan wrote can fail the rule: the outlines are listed for those.
  const before = byScope(input.fileOutline.decls, names);
  // A block that itself declares a name twice in one scope asks for that (its own scope path may be
  // shorter than the file's: a method shown without its class).
  const shownScopes = [...byScope(input.blockOutline.decls)].map(([key, list]) => ({
    path: key.slice(0, key.indexOf('|')),
    what: key.slice(key.indexOf('|')),
    times: list.length,
  }));
  /** How often the block declares a name in the scope at `key`: its own path is that scope's, or the end of it. */
  const shownIn = (key: string): number => {
    const path = key.slice(0, key.indexOf('|'));
    const what = key.slice(key.indexOf('|'));
    const within = (own: string) => own === '' || own === path || path.endsWith(`.${own}`);
    return Math.max(0, ...shownScopes.filter((s) => s.what === what && within(s.path)).map((s) => s.times));
  };
  for (const [key, list] of byScope(input.resultOutline.decls, names)) {
    if (list.length < 2) {
      continue;
    }
    const name = key.slice(key.lastIndexOf('|') + 1);
    const had = before.get(key) ?? [];
    const shown = shownIn(key);
    if (!names.has(name) || list.length <= Math.max(had.length, shown)) {
      continue;
    }
    // A new overload (parameters no other declaration of the name has) is no second declaration.
    const params = list.map((d) => d.params ?? '');
    const repeated = params.some(
      (p, i) => params.indexOf(p) !== i && params.filter((q) => q === p).length > had.filter((d) => (d.params ?? '') === p).length,
    );
    if (repeated) {
      const scope = key.slice(0, key.indexOf('|'));
      return {
        rule: 'no-second-declaration',
        reason: `the result would declare ${describeDecl(list[0])} ${list.length} times${scope ? ` in ${scope}` : ' at the top level'} (the file has ${had.length})`,
        places: had.map(placeOf),
      };
    }
  }
  return undefined;
}
