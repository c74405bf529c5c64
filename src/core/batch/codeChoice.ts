// A code block put at a place the user chose. When the snippet applier refuses a code block (a name that
// fits two places, a part with nowhere to go), its outcome lists candidates; choosing one means "these
// lines become the code block". That is an ordinary SEARCH/REPLACE block: SEARCH the chosen lines, REPLACE
// the code, both without their common indentation so the engine's indentation relation writes the code
// at the place's depth in the file's own style, and a line hint that keeps it at the chosen place when
// the same lines occur twice. Only code without placeholder lines can be put anywhere this way (a
// placeholder would stand for lines nobody chose). A configuration file's code block is merged by key
// (configSnippet.ts), never written over lines: its refusal (a key that fits two objects) offers no place.
import { isPlaceholderLine, type PlaceholderContext } from '../formats/placeholders';
import { configFormatOf } from '../config/configFormats';
import type { LineRange, SearchReplaceBlock } from '../types';

/** The lines without the indentation every non-blank one shares. */
function dedent(lines: readonly string[]): string[] {
  const leads = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0] ?? '');
  let common = leads[0] ?? '';
  for (const lead of leads) {
    while (!lead.startsWith(common)) {
      common = common.slice(0, -1);
    }
  }
  return lines.map((l) => (l.startsWith(common) ? l.slice(common.length) : l.trimStart()));
}

/** Whether a code block can be put at a chosen place: it has code and no placeholder line, and its file is no configuration file. */
export function canPlaceCodeAnywhere(code: string, context?: PlaceholderContext): boolean {
  if (context && configFormatOf(context.fileName, context.languageId)) {
    return false;
  }
  const lines = code.split(/\r?\n/);
  return lines.some((l) => l.trim() !== '') && !lines.some((l) => isPlaceholderLine(l, context));
}

/**
 * The block that replaces the chosen lines (`place.text` as the document had them on `place`'s lines)
 * with `code`; undefined when the code has placeholders (see canPlaceCodeAnywhere).
 */
export function codeBlockAt(
  code: string,
  place: LineRange & { text: string },
  context?: PlaceholderContext,
): SearchReplaceBlock | undefined {
  if (!canPlaceCodeAnywhere(code, context)) {
    return undefined;
  }
  const trimEnds = (lines: string[]): string[] => {
    while (lines.length > 0 && lines[lines.length - 1].trim() === '') {
      lines.pop();
    }
    while (lines.length > 0 && lines[0].trim() === '') {
      lines.shift();
    }
    return lines;
  };
  const search = dedent(place.text.split(/\r?\n/)).join('\n');
  const replace = dedent(trimEnds(code.split(/\r?\n/))).join('\n');
  return { index: 1, search, replace, startLine: place.startLine, sourceLine: 1 };
}
