// The indentation relation between SEARCH lines and the file lines they matched, and how to carry it
// over to REPLACE lines. A match at the indentation tier needs one consistent relation for every
// non-blank line: the same prefix added or removed, or tabs vs spaces with a consistent tab width.

import { isBlank, leadingWhitespace } from './normalize';

export type IndentMap =
  | { kind: 'identity' }
  /** The file's lines carry `prefix` in front of SEARCH's indentation. */
  | { kind: 'add'; prefix: string }
  /** SEARCH's indentation carries `prefix` in front of the file's. */
  | { kind: 'remove'; prefix: string }
  /** Measured in columns with tabs `width` wide: file column = SEARCH column + offset. */
  | { kind: 'columns'; width: number; offset: number; tabs: boolean };

export const IDENTITY: IndentMap = { kind: 'identity' };

const TAB_WIDTHS = [4, 2, 8, 3];

export function columns(lead: string, width: number): number {
  let c = 0;
  for (let i = 0; i < lead.length; i++) {
    if (lead.charCodeAt(i) === 9) c = (Math.floor(c / width) + 1) * width;
    else c++;
  }
  return c;
}

export function renderColumns(cols: number, width: number, tabs: boolean): string {
  if (cols <= 0) return '';
  return tabs ? '\t'.repeat(Math.floor(cols / width)) + ' '.repeat(cols % width) : ' '.repeat(cols);
}

/** Leading whitespace pairs [search, file] of the non-blank line pairs. */
export function leadPairs(pairs: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [s, d] of pairs) {
    if (isBlank(s) || isBlank(d)) continue;
    out.push([leadingWhitespace(s), leadingWhitespace(d)]);
  }
  return out;
}

/** One relation that holds for every pair, or undefined when the indentation is inconsistent. */
export function deriveIndentMap(leads: ReadonlyArray<readonly [string, string]>): IndentMap | undefined {
  if (leads.length === 0) return IDENTITY;
  if (leads.every(([s, d]) => s === d)) return IDENTITY;
  const [s0, d0] = leads[0];
  if (d0.endsWith(s0)) {
    const prefix = d0.slice(0, d0.length - s0.length);
    if (leads.every(([s, d]) => d === prefix + s)) return { kind: 'add', prefix };
  }
  if (s0.endsWith(d0)) {
    const prefix = s0.slice(0, s0.length - d0.length);
    if (leads.every(([s, d]) => s === prefix + d)) return { kind: 'remove', prefix };
  }
  const fileTabs = leads.some(([, d]) => d.includes('\t'));
  const searchTabs = leads.some(([s]) => s.includes('\t'));
  if (fileTabs || searchTabs) {
    for (const width of TAB_WIDTHS) {
      const offset = columns(d0, width) - columns(s0, width);
      if (leads.every(([s, d]) => columns(d, width) - columns(s, width) === offset)) {
        return { kind: 'columns', width, offset, tabs: fileTabs };
      }
    }
  }
  return undefined;
}

/**
 * For placements that did not need consistent indentation (whitespace tier, fuzzy, a user's choice):
 * the consistent relation if there is one, else the one most line pairs agree on.
 */
export function deriveIndentMapLoose(leads: ReadonlyArray<readonly [string, string]>): IndentMap {
  const strict = deriveIndentMap(leads);
  if (strict) return strict;
  const votes = new Map<string, { map: IndentMap; count: number }>();
  for (const pair of leads) {
    const map = deriveIndentMap([pair]);
    if (!map) continue;
    const key = JSON.stringify(map);
    const entry = votes.get(key);
    if (entry) entry.count++;
    else votes.set(key, { map, count: 1 });
  }
  let best: { map: IndentMap; count: number } | undefined;
  for (const entry of votes.values()) if (!best || entry.count > best.count) best = entry;
  return best ? best.map : IDENTITY;
}

/** The file-side indentation for a changed line whose REPLACE indentation is `lead`. */
export function mapIndent(map: IndentMap, lead: string): string {
  switch (map.kind) {
    case 'identity':
      return lead;
    case 'add':
      return map.prefix + lead;
    case 'remove': {
      if (lead.startsWith(map.prefix)) return lead.slice(map.prefix.length);
      // A new line indented less than SEARCH's common prefix: remove what is there, by columns.
      const cols = columns(lead, 4) - columns(map.prefix, 4);
      return renderColumns(cols, 4, lead.includes('\t'));
    }
    case 'columns':
      return renderColumns(columns(lead, map.width) + map.offset, map.width, map.tabs);
  }
}

export type IndentStyle = 'tabs' | 'spaces' | 'unknown';

/** How the matched file lines are indented: only tabs, only spaces, or no evidence either way. */
export function indentStyle(fileLines: readonly string[]): IndentStyle {
  let tabs = 0;
  let spaces = 0;
  for (const line of fileLines) {
    if (isBlank(line)) continue;
    const lead = leadingWhitespace(line);
    if (lead.length === 0) continue;
    if (lead.charCodeAt(0) === 9) tabs++;
    else spaces++;
  }
  if (tabs > 0 && spaces === 0) return 'tabs';
  if (spaces > 0 && tabs === 0) return 'spaces';
  return 'unknown';
}

/**
 * Keep tabs as tabs: a changed line's indentation written with the other character is re-rendered in
 * the file's style (alignment spaces narrower than a tab survive).
 */
export function conformIndent(lead: string, style: IndentStyle, width: number): string {
  if (style === 'tabs' && lead.includes(' ')) {
    const cols = columns(lead, width);
    // Only convert when spaces make up at least one whole tab stop; "\t * " comment alignment stays.
    if (/ {2,}/.test(lead) && cols >= width) return renderColumns(cols, width, true);
    return lead;
  }
  if (style === 'spaces' && lead.includes('\t')) return renderColumns(columns(lead, width), width, false);
  return lead;
}

export function describeIndentMap(map: IndentMap): string {
  const unit = (s: string) => {
    const tabs = (s.match(/\t/g) ?? []).length;
    const spaces = s.length - tabs;
    const parts: string[] = [];
    if (tabs) parts.push(`${tabs} tab${tabs === 1 ? '' : 's'}`);
    if (spaces) parts.push(`${spaces} space${spaces === 1 ? '' : 's'}`);
    return parts.join(' and ');
  };
  switch (map.kind) {
    case 'identity':
      return 'indentation unchanged';
    case 'add':
      return `the file indents these lines ${unit(map.prefix)} deeper`;
    case 'remove':
      return `the file indents these lines ${unit(map.prefix)} less`;
    case 'columns':
      return map.tabs ? 'tabs in the file vs spaces in SEARCH' : 'spaces in the file vs tabs in SEARCH';
  }
}
