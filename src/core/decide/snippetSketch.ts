// A code block that is a sketch, not an edit (issue 25): models show code to explain it ("Current usings in
// Door.cs:" above the lines, a note appended to a line of the file, a doc comment shortened to its gist).
// Written as it stands, the prose becomes code, the note a comment in the file, and the left-out comment
// lines are deleted. Such a block is refused, naming the line that looked unintended. Line numbers are 0-based.

import { type Decl, walkDecls } from '../match/structure/outline';
import type { FileView, SnippetView } from './snippetTypes';

/** Words a line of prose starts with that open code in some language (`class Foo:`, `case 1:`, `default:`). */
const CODE_WORDS =
  /^(if|elif|else|for|while|with|try|except|finally|def|class|case|default|public|private|protected|internal|static|async|match|switch|do|loop|begin|when|then|lambda|label|section|module|package|namespace|interface|struct|enum|impl|trait|fn|func|function|return|yield|import|from|export|let|const|var|type|using|region|template)\b/i;

/**
 * A line of prose: words and a few punctuation marks only, three words at least, ending in a colon ("Here is
 * the updated function:", "Current usings in Door.cs:"), not a line of the file.
 */
function isProse(line: string): boolean {
  const text = line.trim();
  if (!/^[\p{L}][\p{L}\p{N}\s.,'\u2019`()/-]*:$/u.test(text) || CODE_WORDS.test(text)) {
    return false;
  }
  return text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length >= 3;
}

/** A comment at the end of a line, after the code: `using X;  // this using is needed` -> the code and the note. */
function trailingNote(line: string): { code: string; note: string } | undefined {
  const match = /^(.*?\S)\s+(\/\/|#|--)\s*(.*)$/.exec(line.trim());
  // The marker must stand outside a string: an even number of each quote before it.
  const quotesOpen = (quote: string) => match !== null && match[1].split(quote).length % 2 === 0;
  if (!match || /^(\/\/|#|--)/.test(match[1]) || quotesOpen('"') || quotesOpen("'") || quotesOpen('`')) {
    return undefined;
  }
  return { code: match[1], note: match[3] };
}

/** What a note to the reader says (not what the code does): "needed", "added", "<- changed", "NEW". */
const NOTE_WORDS =
  /\b(needed|necessary|required|added|add this|new|changed|change|updated|update|modified|fix|fixed|here|this line|remove|removed|keep|kept|important|note|moved)\b|<-|\u2190|!\s*$/i;

/** A comment above a declaration the block shows shorter than the file's, its lines all the file's, none marking the gap. */
function shortenedComment(file: FileView, snippet: SnippetView): { decl: Decl; shown: number; file: number } | undefined {
  const fileDecls = [...walkDecls(file.outline.decls)].map((w) => w.decl);
  for (const { decl } of walkDecls(snippet.outline.decls)) {
    if (decl.lead >= decl.start) {
      continue;
    }
    const shown = snippet.lines.slice(decl.lead, decl.start).map((l) => l.trim());
    if (snippet.placeholders.slice(decl.lead, decl.start).some(Boolean)) {
      continue;
    }
    const header = snippet.lines[decl.start].trim();
    for (const target of fileDecls) {
      if (target.name !== decl.name || target.kind !== decl.kind || target.lead >= target.start) {
        continue;
      }
      const theirs = file.lines.slice(target.lead, target.start).map((l) => l.trim());
      if (theirs.length > shown.length && file.lines[target.start].trim() === header && isSubsequence(shown, theirs)) {
        return { decl, shown: shown.length, file: theirs.length };
      }
    }
  }
  return undefined;
}

function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const line of whole) {
    if (at < part.length && part[at] === line) {
      at++;
    }
  }
  return at === part.length;
}

/** Why the block reads as a sketch rather than the code to write, or undefined. */
export function sketchReason(file: FileView, snippet: SnippetView): string | undefined {
  // The file's lines, trimmed, made only for a block line with a note (a set of 10,000 lines per code block otherwise).
  let madeTexts: Set<string> | undefined;
  const fileTexts = (): Set<string> => (madeTexts ??= new Set(file.lines.map((l) => l.trim())));
  const first = snippet.lines.findIndex((l) => l.trim() !== '');
  // A file with such lines of its own (YAML keys, Markdown) has no prose to tell apart.
  const prose = first >= 0 && !snippet.placeholders[first] && isProse(snippet.lines[first]) && !file.lines.some(isProse);
  if (prose) {
    return `line ${first + 1} of the code block (${JSON.stringify(snippet.lines[first].trim())}) is prose, not code: it reads as an explanation of the code, so the block looks like a sketch; re-send only the code, as the file should read`;
  }
  for (let i = 0; i < snippet.lines.length; i++) {
    const note = snippet.placeholders[i] ? undefined : trailingNote(snippet.lines[i]);
    if (note && NOTE_WORDS.test(note.note) && !fileTexts().has(snippet.lines[i].trim()) && fileTexts().has(note.code)) {
      return `line ${i + 1} of the code block is a line of the file with a note added (${JSON.stringify(note.note)}), which reads as a remark to the reader, not code; re-send the block without notes on the lines it does not change (or say the change in words)`;
    }
  }
  const shortened = shortenedComment(file, snippet);
  if (shortened) {
    const { decl } = shortened;
    return `the code block shows ${shortened.shown} of the ${shortened.file} lines of the comment above ${decl.kind} ${decl.name}, with no placeholder where the others were, so it looks like a sketch that would delete them; show the comment whole, or put a placeholder line where lines are left out`;
  }
  return undefined;
}
