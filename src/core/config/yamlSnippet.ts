// A YAML snippet made ready for the parser: line breaks as \n, placeholder lines written as YAML comments
// (a bare `...` would end the document, a `// ...` would not parse), and a fragment copied from inside a
// file moved to column 0. Remembers where the placeholders were, so a list with one among its items is
// read as "these items added", not "the list is now these items".

import { isConfigPlaceholder } from './keyed';

export interface PreparedSnippet {
  text: string;
  /** Columns removed from every line (added back to a parser error's column). */
  dedent: number;
  /**
   * Where a block list (its node range and its items' start offsets in `text`) has placeholders among,
   * just before or just after its items: g when one is before item g (g = item count: after the last).
   */
  listPlaceholderGaps(range: readonly [number, number, number], itemStarts: readonly number[]): Set<number> | undefined;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

export function prepareYamlSnippet(snippetText: string): PreparedSnippet {
  const rawLines = snippetText.replace(/\r\n?/g, '\n').split('\n');
  const placeholder = rawLines.map((line) => isConfigPlaceholder(line));
  const content = rawLines.filter((line, i) => !placeholder[i] && line.trim() !== '' && !line.trimStart().startsWith('#'));
  const dedent = content.length === 0 ? 0 : Math.min(...content.map(indentOf));
  const lines = rawLines.map((line, i) => {
    const kept = line.slice(Math.min(dedent, indentOf(line)));
    return placeholder[i] ? `${' '.repeat(indentOf(kept))}# ...` : kept;
  });
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const text = lines.join('\n');
  const lineAt = (at: number) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= at) {
      line++;
    }
    return line;
  };
  return {
    text,
    dedent,
    listPlaceholderGaps(range, itemStarts) {
      const first = lineAt(range[0]);
      const column = range[0] - starts[first];
      const last = lineAt(Math.max(range[0], range[1] - 1));
      const itemLines = itemStarts.map(lineAt);
      const gaps = new Set<number>();
      const holds = (i: number) => placeholder[i] && indentOf(lines[i]) >= column && indentOf(lines[i]) <= column + 2;
      const gapAt = (i: number) => itemLines.filter((line) => line < i).length;
      for (let i = first; i <= last; i++) {
        if (holds(i)) {
          gaps.add(gapAt(i));
        }
      }
      // Just before the first item (between the list's key and its first dash) or after the last one
      // when nothing follows in the snippet.
      for (let i = first - 1; i >= 0 && (placeholder[i] || lines[i].trim() === ''); i--) {
        if (holds(i)) {
          gaps.add(0);
        }
      }
      let next = last + 1;
      while (next < lines.length && (placeholder[next] || lines[next].trim() === '')) {
        next++;
      }
      for (let i = last + 1; next === lines.length && i < lines.length; i++) {
        if (holds(i)) {
          gaps.add(itemStarts.length);
        }
      }
      return gaps.size > 0 ? gaps : undefined;
    },
  };
}
