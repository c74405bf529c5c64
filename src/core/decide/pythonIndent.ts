// Python indentation a code block gets wrong (issue 25). tree-sitter's Python grammar reads an unexpected
// indent or an unindent to no outer level without an error (the dedented line becomes a statement of an
// outer scope), where CPython raises IndentationError. A block with such a line, placed by its outline,
// writes a different program than the one shown, so it is refused like a block that does not parse.
// Line numbers are 0-based.

/** The first line of `lines` whose indentation Python would reject, with why; undefined when there is none. */
export interface IndentProblem {
  line: number;
  reason: string;
}

const width = (line: string) => {
  let column = 0;
  for (const c of line) {
    if (c === ' ') {
      column += 1;
    } else if (c === '\t') {
      column += 8 - (column % 8);
    } else {
      break;
    }
  }
  return column;
};

/**
 * Per line: does it start a logical line (not inside brackets, a triple-quoted string or after a backslash),
 * and does the logical line it ends open a block (ends with `:` outside brackets and strings)?
 */
function logicalLines(lines: readonly string[]): Array<{ starts: boolean; opensBlock: boolean; ends: boolean }> {
  const out: Array<{ starts: boolean; opensBlock: boolean; ends: boolean }> = [];
  let depth = 0;
  let longString: string | undefined;
  let continued = false;
  for (const line of lines) {
    const starts = depth === 0 && longString === undefined && !continued;
    let last = '';
    let i = 0;
    while (i < line.length) {
      const c = line[i];
      if (longString !== undefined) {
        if (line.startsWith(longString, i)) {
          i += 3;
          longString = undefined;
          last = '"';
        } else {
          i += c === '\\' ? 2 : 1;
        }
        continue;
      }
      if (c === '#') {
        break;
      }
      if (c === '"' || c === "'") {
        if (line.startsWith(c.repeat(3), i)) {
          longString = c.repeat(3);
          i += 3;
          continue;
        }
        i += 1;
        while (i < line.length && line[i] !== c) {
          i += line[i] === '\\' ? 2 : 1;
        }
        i += 1;
        last = c;
        continue;
      }
      if ('([{'.includes(c)) {
        depth += 1;
      } else if (')]}'.includes(c)) {
        depth = Math.max(0, depth - 1);
      }
      if (c.trim() !== '') {
        last = c;
      }
      i += 1;
    }
    continued = longString === undefined && depth === 0 && /\\\s*$/.test(line);
    const ends = depth === 0 && longString === undefined && !continued;
    out.push({ starts, opensBlock: ends && last === ':', ends });
  }
  return out;
}

/**
 * Python's indentation rules on a block that may start at any depth and leave code out: a line deeper than
 * the previous statement's without a `:` ending it is an unexpected indent; a line less deep than the
 * previous one that is no outer level's depth (and not below every depth the block has shown: the block may
 * start inside a body) matches no outer indentation level. After a placeholder line any depth may follow.
 */
export function pythonIndentProblem(lines: readonly string[], placeholders: readonly boolean[]): IndentProblem | undefined {
  const logical = logicalLines(lines);
  let stack: number[] = [];
  // Levels first seen right after a placeholder (or at the block's start): the levels around them are unknown.
  const unsureLevels = new Set<number>();
  let opensBlock = false;
  let afterPlaceholder = true;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].trim();
    if (placeholders[i]) {
      afterPlaceholder = true;
      opensBlock = false;
      continue;
    }
    if (!logical[i].starts || text === '' || text.startsWith('#')) {
      if (logical[i].ends && !text.startsWith('#') && text !== '') {
        opensBlock = logical[i].opensBlock;
      }
      continue;
    }
    const column = width(lines[i]);
    const top = stack[stack.length - 1];
    if (afterPlaceholder || top === undefined) {
      // A placeholder stands for code of any depth: what follows starts a new run.
      stack = stack.filter((level) => level < column);
      stack.push(column);
      unsureLevels.add(column);
    } else if (column > top) {
      if (!opensBlock) {
        return {
          line: i,
          reason: `line ${i + 1} of the code block is indented deeper than the line before it, which opens no block (Python: unexpected indent)`,
        };
      }
      stack.push(column);
    } else if (column < top) {
      let unsure = false;
      while (stack.length > 0 && stack[stack.length - 1] > column) {
        // Pop first: `unsure ||= has(pop())` stops popping once unsure, and the loop never ends.
        const level = stack.pop()!;
        unsure = unsureLevels.has(level) || unsure;
      }
      const outer = stack[stack.length - 1];
      if (unsure && outer !== column) {
        // The level came after a placeholder, which may stand for the levels between.
        stack.push(column);
        unsureLevels.add(column);
      } else if (outer !== undefined && outer !== column) {
        return {
          line: i,
          reason: `line ${i + 1} of the code block is indented to no outer level of the lines before it (Python: unindent does not match any outer indentation level)`,
        };
      }
      if (outer === undefined) {
        stack.push(column);
      }
    } else if (opensBlock) {
      return {
        line: i,
        reason: `line ${i + 1} of the code block should be indented under the line before it, which opens a block (Python: expected an indented block)`,
      };
    }
    afterPlaceholder = false;
    opensBlock = logical[i].ends && logical[i].opensBlock;
  }
  return undefined;
}
