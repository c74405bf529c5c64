// The line formats merged by key (issue 26): .env (KEY=VALUE, `export KEY=VALUE`, # comments), .ini and
// .editorconfig ([section] headers, `key = value` or `key: value`, ; and # comments) and .properties
// (key=value, key: value, key value, lines continued with a backslash). Keys the snippet shows are set in
// place (the value's text replaced, the key and its spacing kept); new keys go after the key that precedes
// them in the snippet, else after the last key of their section; a new section goes at the end. Nothing
// else is touched. A snippet without a header whose keys are in one section only is set there.

import { ConfigRefusal, eolOf, finishMerge, isConfigPlaceholder, lineOfOffset, type PendingChange, refusedResult, withEol } from './keyed';
import type { ConfigFormat, ConfigMerge, ConfigTextEdit, KeptKeys } from './types';

export type LineFormat = Extract<ConfigFormat, 'env' | 'ini' | 'editorconfig' | 'properties'>;

interface Entry {
  key: string;
  /** The value as compared (env: unquoted; others: trimmed text, continuation lines joined). */
  value: string;
  lineStart: number;
  valueStart: number;
  valueEnd: number;
  /** After the entry's last line (and its line break). */
  end: number;
}

interface Section {
  /** '' for the keys before the first header. */
  name: string;
  headerStart: number;
  entries: Entry[];
}

interface ReadFile {
  sections: Section[];
}

const hasSections = (format: LineFormat) => format === 'ini' || format === 'editorconfig';
const isComment = (format: LineFormat, trimmed: string) =>
  trimmed.startsWith('#') || (format !== 'env' && trimmed.startsWith(';')) || (format === 'properties' && trimmed.startsWith('!'));

function unquoteEnv(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(trimmed);
  if (quoted) {
    return quoted[2];
  }
  // An unquoted value ends at a comment (` #`).
  return trimmed.replace(/\s+#.*$/, '');
}

/** One entry line: where its key and value are, or undefined when the line is no entry. */
function readEntryLine(format: LineFormat, line: string): { key: string; valueFrom: number; valueTo: number } | undefined {
  const pattern =
    format === 'env'
      ? /^(\s*(?:export\s+)?)([A-Za-z_][\w.-]*)(\s*=\s*)(.*?)(\s*)$/
      : format === 'properties'
        ? /^(\s*)((?:\\.|[^\s=:\\])+)(\s*[=:]\s*|\s+)(.*?)(\s*)$/
        : /^(\s*)([^=:\s[][^=:]*?)(\s*[=:]\s*)(.*?)(\s*)$/;
  const match = pattern.exec(line);
  if (!match) {
    return undefined;
  }
  const valueFrom = match[1].length + match[2].length + match[3].length;
  let raw = match[4];
  if (format === 'env') {
    // The value's text ends at its closing quote, or (unquoted) before a ` # comment`.
    const quoted = /^(["'`])(?:\\.|(?!\1).)*\1/.exec(raw);
    raw = quoted ? quoted[0] : raw.replace(/\s+#.*$/, '');
  }
  return { key: match[2].trim(), valueFrom, valueTo: valueFrom + raw.length };
}

/** Reads a file or snippet of a line format into sections and entries (offsets into `text`). */
function readLines(format: LineFormat, text: string, what: 'file' | 'snippet'): ReadFile {
  const sections: Section[] = [{ name: '', headerStart: -1, entries: [] }];
  let offset = 0;
  let lineNumber = 0;
  while (offset < text.length) {
    lineNumber++;
    const lineEnd = text.indexOf('\n', offset);
    let end = lineEnd < 0 ? text.length : lineEnd + 1;
    const line = text.slice(offset, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
    const trimmed = line.trim();
    const header = /^\s*\[([^\]]*)\]\s*(?:[#;].*)?$/.exec(line);
    if (trimmed === '' || isComment(format, trimmed) || isConfigPlaceholder(line)) {
      // nothing to read
    } else if (format === 'ini' && /^\s/.test(line) && continues(sections, offset)) {
      // An indented line right after an entry continues its value (Python's configparser, setup.cfg).
      const entry = lastEntry(sections)!;
      entry.value += `\n${trimmed}`;
      entry.valueEnd = offset + line.trimEnd().length;
      entry.end = end;
    } else if (header && hasSections(format)) {
      sections.push({ name: header[1].trim(), headerStart: offset, entries: [] });
    } else {
      const entry = readEntryLine(format, line);
      if (!entry) {
        throw new ConfigRefusal(
          what === 'file' ? 'invalid-file' : 'invalid-snippet',
          `the ${what} does not read as ${format === 'env' ? '.env' : format} key = value lines: line ${lineNumber}, column 1: ${JSON.stringify(trimmed.slice(0, 60))}`,
        );
      }
      let valueEnd = offset + entry.valueTo;
      let value = line.slice(entry.valueFrom, entry.valueTo);
      // .properties: a value whose line ends in an odd number of backslashes goes on to the next line.
      while (format === 'properties' && /(^|[^\\])(\\\\)*\\$/.test(text.slice(offset, valueEnd)) && end < text.length) {
        const nextEnd = text.indexOf('\n', end);
        const next = text.slice(end, nextEnd < 0 ? text.length : nextEnd).replace(/\r$/, '');
        value = value.slice(0, -1) + next.trim();
        valueEnd = end + next.trimEnd().length;
        end = nextEnd < 0 ? text.length : nextEnd + 1;
        lineNumber++;
      }
      sections[sections.length - 1].entries.push({
        key: entry.key,
        value: format === 'env' ? unquoteEnv(value) : value.trim(),
        lineStart: offset,
        valueStart: offset + entry.valueFrom,
        valueEnd,
        end,
      });
    }
    offset = end;
  }
  return { sections };
}

const lastEntry = (sections: Section[]) => sections[sections.length - 1].entries.at(-1);
const continues = (sections: Section[], offset: number) => lastEntry(sections)?.end === offset;

const findSection = (read: ReadFile, name: string) => read.sections.find((section) => section.name === name);
const findEntry = (section: Section, key: string) => section.entries.find((entry) => entry.key === key);

/** The merge of one line format. */
export function lineFormatMerge(format: LineFormat): ConfigMerge {
  return (fileText, snippetText) => {
    try {
      return mergeLines(format, fileText, snippetText);
    } catch (error) {
      return refusedResult(error);
    }
  };
}

export const mergeEnv = lineFormatMerge('env');
export const mergeIni = lineFormatMerge('ini');
export const mergeEditorconfig = lineFormatMerge('editorconfig');
export const mergeProperties = lineFormatMerge('properties');

/** The section of the file a snippet section goes to: its own name; a snippet without headers, where its keys are. */
function targetSection(fileText: string, file: ReadFile, snippetSection: Section, snippetHasHeaders: boolean): Section | undefined {
  const named = findSection(file, snippetSection.name);
  if (snippetSection.name !== '' || snippetHasHeaders || file.sections.length === 1) {
    return named;
  }
  const keys = snippetSection.entries.map((entry) => entry.key);
  const held = (section: Section) => keys.filter((key) => findEntry(section, key)).length;
  const counts = file.sections.map(held);
  const best = Math.max(...counts);
  if (counts[0] === best && (best > 0 || file.sections[0].entries.length > 0)) {
    return file.sections[0];
  }
  const fits = file.sections.filter((_, i) => counts[i] === best && best > 0);
  if (fits.length === 1) {
    return fits[0];
  }
  const places = (fits.length > 0 ? fits : file.sections.slice(1)).map((section) => ({
    path: [section.name],
    line: lineOfOffset(fileText, Math.max(0, section.headerStart)),
  }));
  throw new ConfigRefusal(
    'ambiguous',
    best > 0
      ? `the key "${keys.find((key) => findEntry(fits[0], key))}" fits ${fits.length} sections: ${fits.map((s) => `[${s.name}]`).join(', ')}; show the section header to say which`
      : `the snippet has no [section] header and its keys are in no section of the file: show the section header to say which`,
    places,
  );
}

function mergeLines(format: LineFormat, fileText: string, snippetText: string) {
  const snippet = snippetText.replace(/\r\n?/g, '\n');
  const file = readLines(format, fileText, 'file');
  const shown = readLines(format, snippet, 'snippet');
  const eol = eolOf(fileText);
  const edits: ConfigTextEdit[] = [];
  const changes: PendingChange[] = [];
  const kept: KeptKeys[] = [];
  const snippetHasHeaders = shown.sections.length > 1;
  const newSections: string[] = [];
  const insertLine = (offset: number, line: string) => {
    const atEndWithoutBreak = offset === fileText.length && fileText.length > 0 && !fileText.endsWith('\n');
    edits.push({ offset, length: 0, content: atEndWithoutBreak ? eol + line : line + eol });
    return edits.length - 1;
  };
  const placed = new Map<Section, Section>();
  for (const section of shown.sections) {
    if (section.entries.length === 0 && section.name === '') {
      continue;
    }
    const target = targetSection(fileText, file, section, snippetHasHeaders);
    if (!target) {
      const lines = section.entries.map((entry) => snippet.slice(entry.lineStart, entry.end).replace(/\n$/, ''));
      newSections.push([`[${section.name}]`, ...lines].join('\n'));
      section.entries.forEach((entry) =>
        changes.push({ path: [section.name, entry.key], action: 'added', at: { fileOffset: fileText.length } }),
      );
      continue;
    }
    if (placed.has(target)) {
      throw new ConfigRefusal('ambiguous', `two parts of the snippet fit the section [${target.name}]`);
    }
    placed.set(target, section);
    const path = target.name === '' ? [] : [target.name];
    const shownKeys = new Set(section.entries.map((entry) => entry.key));
    kept.push({ path, keys: target.entries.map((entry) => entry.key).filter((key) => !shownKeys.has(key)) });
    let anchor: Entry | undefined;
    const sectionEnd = target.entries.length > 0 ? target.entries[target.entries.length - 1].end : sectionBodyStart(fileText, target);
    for (const entry of section.entries) {
      const existing = findEntry(target, entry.key);
      if (existing) {
        if (existing.value === entry.value) {
          changes.push({ path: [...path, entry.key], action: 'unchanged', at: { fileOffset: existing.lineStart } });
        } else {
          const content = snippet.slice(entry.valueStart, entry.valueEnd);
          edits.push({ offset: existing.valueStart, length: existing.valueEnd - existing.valueStart, content: withEol(content, eol) });
          changes.push({ path: [...path, entry.key], action: 'set', at: { fileOffset: existing.lineStart } });
        }
        anchor = existing;
        continue;
      }
      const line = snippet.slice(entry.lineStart, entry.end).replace(/\n$/, '');
      const edit = insertLine(anchor ? anchor.end : sectionEnd, withEol(line, eol));
      changes.push({
        path: [...path, entry.key],
        action: 'added',
        at: { edit, lineInContent: edits[edit].content.startsWith(eol) && !anchor ? 1 : 0 },
      });
    }
  }
  if (newSections.length > 0) {
    const separator = fileText.trim() === '' ? '' : fileText.endsWith('\n') ? eol : eol + eol;
    edits.push({ offset: fileText.length, length: 0, content: separator + withEol(newSections.join('\n\n'), eol) + eol });
  }
  return finishMerge(fileText, edits, changes, kept, (merged) => auditLines(format, file, shown, merged, targetsOf(placed)));
}

const targetsOf = (placed: Map<Section, Section>) => new Map([...placed].map(([target, shown]) => [shown, target.name]));

/** Where a section's first key would go: after its header line (or at the start of the file). */
function sectionBodyStart(text: string, section: Section): number {
  if (section.headerStart < 0) {
    return 0;
  }
  const lineEnd = text.indexOf('\n', section.headerStart);
  return lineEnd < 0 ? text.length : lineEnd + 1;
}

type Values = Map<string, Map<string, string>>;
const valuesOf = (read: ReadFile): Values => {
  const values: Values = new Map();
  for (const section of read.sections) {
    const map = values.get(section.name) ?? new Map<string, string>();
    for (const entry of section.entries) {
      map.set(entry.key, entry.value);
    }
    values.set(section.name, map);
  }
  return values;
};

/** The re-read check: every key has the value the file had, or the snippet's where the snippet shows it. */
function auditLines(format: LineFormat, file: ReadFile, shown: ReadFile, merged: string, targets: Map<Section, string>): void {
  let after: Values;
  try {
    after = valuesOf(readLines(format, merged, 'file'));
  } catch (error) {
    throw new ConfigRefusal('audit', `the merged text does not read as ${format} lines (${(error as Error).message}); nothing was written`);
  }
  const expected = valuesOf(file);
  for (const section of shown.sections) {
    const name = targets.get(section) ?? section.name;
    const map = expected.get(name) ?? new Map<string, string>();
    for (const entry of section.entries) {
      map.set(entry.key, entry.value);
    }
    if (map.size > 0 || name !== '') {
      expected.set(name, map);
    }
  }
  for (const [name, map] of expected) {
    for (const [key, value] of map) {
      if (after.get(name)?.get(key) !== value) {
        throw new ConfigRefusal(
          'audit',
          `the merged text would change ${name ? `[${name}] ` : ''}${key} other than the snippet says; nothing was written`,
        );
      }
    }
  }
  const count = (values: Values) => [...values.values()].reduce((sum, map) => sum + map.size, 0);
  if (count(after) !== count(expected)) {
    throw new ConfigRefusal('audit', 'the merged text has keys the file and the snippet do not; nothing was written');
  }
}
