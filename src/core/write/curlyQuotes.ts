// Curly quotes a model wrote where code has straight ones. Chat renderers and some models "smarten" quotes:
// `console.log(“saving”)` is not JavaScript. Text the model wrote follows the file: a curly quote the file
// never uses is written straight, unless it stands inside a straight-quoted string (`"He said “hi”"`),
// where it is the string's content. Not for Markdown, where curly quotes are typography.

const CURLY_DOUBLE = /[\u201C\u201D\u201E\u201F]/;
const CURLY_SINGLE = /[\u2018\u2019\u201A\u201B]/;
const STRAIGHT = new Set(['"', "'", '`']);

/** `text` with the curly quotes that stand outside straight-quoted strings, and that the file lacks, straightened. */
export function straightenCurlyQuotes(text: string, fileHas: (ch: string) => boolean): string {
  if (!/[\u2018-\u201F]/.test(text)) {
    return text;
  }
  let out = '';
  // The quote that opened the string we are in ('"', "'", '`'), and whether a curly one opened it.
  let open: string | undefined;
  let openedCurly = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const double = CURLY_DOUBLE.test(ch);
    const single = !double && CURLY_SINGLE.test(ch);
    if (open !== undefined) {
      if (ch === '\\' && i + 1 < text.length) {
        out += ch + text[++i];
        continue;
      }
      const closesCurly = openedCurly && ((open === '"' && double) || (open === "'" && single));
      if (ch === open || closesCurly) {
        out += closesCurly && !fileHas(ch) ? open : ch;
        open = undefined;
        continue;
      }
      out += ch;
      continue;
    }
    if (STRAIGHT.has(ch)) {
      open = ch;
      openedCurly = false;
      out += ch;
    } else if ((double || single) && !fileHas(ch)) {
      const straight = double ? '"' : "'";
      // An apostrophe inside a word (don’t) opens nothing.
      const inWord = single && /\w/.test(text[i - 1] ?? '') && /\w/.test(text[i + 1] ?? '');
      if (!inWord) {
        open = straight;
        openedCurly = true;
      }
      out += straight;
    } else {
      out += ch;
    }
  }
  return out;
}
