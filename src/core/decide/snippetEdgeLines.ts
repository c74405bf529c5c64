// A code block's lines next to a placeholder that pair with the file's lines there as changed ones (issue
// 25): `// ... existing code ...` then `fmt.Println(sub(3, 1))` beside the file's last `fmt.Println(add(1, 2))`
// may be that line changed or a line added after it. Read as a change only when surely so; else refused,
// naming both ways and what to show for each.

import { similarity } from '../match/fuzzy/similarity';
import { lineSpan, PlanRefusal, type ScopeContext } from './snippetTypes';

/** A unit of a scope (a line, a placeholder, a declaration) by its lines [start, end). */
interface LineUnit {
  type: string;
  start: number;
  end: number;
}

/** A changed line beside a placeholder this similar to the file's line there is that line edited. */
const SURELY_CHANGED_SCORE = 0.75;
/** A line that brings in a name from elsewhere: `import`, `from x import`, `using`, `#include`, `use`, `require(`. */
const IMPORT_LINE =
  /^(?:import\b|from\s+\S+\s+import\b|using\s+[\w.]+\s*;|#\s*include\b|use\s+[\w:\\]+|(?:const|let|var)\s+.*=\s*require\()/;

/** A last statement: a line after it would never run, so a line like it after a placeholder replaces it. */
export const ENDS_FLOW = /^(?:return|throw|raise|break|continue|exit)\b/;

/** Whether `mine` has every token of `theirs`, in order, and more: the file's line with something added. */
function extendsLine(mine: string, theirs: string): boolean {
  const tokens = (text: string) => text.match(/\w+|[^\w\s]/g) ?? [];
  const longer = tokens(mine);
  const shorter = tokens(theirs);
  let k = 0;
  for (const token of longer) {
    if (k < shorter.length && token === shorter[k]) {
      k++;
    }
  }
  return k === shorter.length && longer.length > shorter.length;
}

/**
 * Lines of the block paired as changed between the scope's edge (or a paired unit) and a placeholder, with no
 * line the file has unchanged on the placeholder's side of them: `// ... existing code ...` then
 * `fmt.Println(sub(3, 1))` beside the file's last `fmt.Println(add(1, 2))` reads as that line changed or as a
 * line added after it (a list of similar calls grows so), and nothing tells which. Refused, naming both.
 */
export function refuseChangedBesidePlaceholder<U extends LineUnit>(
  context: ScopeContext,
  side: 'left' | 'right',
  inward: readonly U[],
  order: readonly U[],
  paired: number,
  same: (unit: U | undefined, fileUnit: U | undefined) => boolean,
): void {
  let unsure = paired;
  while (unsure > 0 && !same(inward[unsure - 1], order[unsure - 1])) {
    unsure--;
  }
  if (unsure === paired) {
    return;
  }
  const surelyChanged = (k: number): boolean => {
    const mine = context.snippet.lines[inward[k].start].trim().replace(/\s+/g, ' ');
    const theirs = context.file.lines[order[k].start].trim().replace(/\s+/g, ' ');
    if (side === 'right' && k === 0 && ENDS_FLOW.test(mine) && ENDS_FLOW.test(theirs)) {
      return true;
    }
    // `import { a, b } from 'z'` beside the file's `import { a } from 'z'`: a new line repeating the whole of
    // its neighbour and more is rare; the line grew.
    if (extendsLine(mine, theirs)) {
      return true;
    }
    // Imports are added far more often than rewritten; other lines this close are the line edited
    // (`output += "</checkstyle>" + EOL;` for `output += "</checkstyle>\n";`), where a new line beside a
    // similar one differs in what it names (`app.use(helmet())` after `app.use(cors())`).
    return !IMPORT_LINE.test(mine) && similarity(mine, theirs) >= SURELY_CHANGED_SCORE;
  };
  let certain = true;
  for (let k = unsure; k < paired; k++) {
    certain &&= surelyChanged(k);
  }
  if (certain) {
    return;
  }
  const units = inward.slice(unsure, paired);
  const fileUnits = order.slice(unsure, paired);
  const extent = (us: readonly U[]) => ({ start: Math.min(...us.map((u) => u.start)), end: Math.max(...us.map((u) => u.end)) });
  const [blockExtent, fileExtent] = [extent(units), extent(fileUnits)];
  const [blockLines, fileLines] = [lineSpan(blockExtent.start, blockExtent.end), lineSpan(fileExtent.start, fileExtent.end)];
  const where = side === 'right' ? 'after' : 'before';
  const neighbour = side === 'right' ? 'before' : 'after';
  const beyond = order[paired]?.type === 'line' ? order[paired] : undefined;
  throw new PlanRefusal({
    status: 'ambiguous',
    what: `${blockLines} of the code block`,
    reason:
      `${blockLines} of the code block, next to a placeholder, ${units.length === 1 ? 'is' : 'are'} like the file's ${fileLines} but not the same, ` +
      `so ${units.length === 1 ? 'it' : 'they'} may change ${fileUnits.length === 1 ? 'that line' : 'those lines'} or be ${units.length === 1 ? 'a new line' : 'new lines'} ${where} ${fileUnits.length === 1 ? 'it' : 'them'}; ` +
      `to change ${fileUnits.length === 1 ? 'it' : 'them'}, show the file's line ${neighbour} ${fileUnits.length === 1 ? 'it' : 'them'}${beyond ? ` (line ${beyond.start + 1})` : ''} unchanged between the placeholder and the changed ${units.length === 1 ? 'line' : 'lines'}; ` +
      `to add, show the file's ${fileLines} unchanged and the new ${units.length === 1 ? 'line' : 'lines'} ${where} ${fileUnits.length === 1 ? 'it' : 'them'}`,
    places: [fileExtent],
    twoReadings: true,
  });
}
