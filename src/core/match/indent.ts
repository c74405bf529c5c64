// The indentation relation between SEARCH lines and the file lines they matched, and how to carry it
// over to REPLACE lines. A match needs ONE relation that holds for every non-blank line pair and keeps
// order: identity; a prefix added or removed; or, measured in columns, file = SEARCH * num / den +
// offset (tabs vs spaces at one tab width, an indent-unit rescale 2 <-> 4 <-> 8 or tab <-> N spaces,
// with or without an outer shift). Equal SEARCH indentation therefore always maps to equal file
// indentation; a SEARCH that puts a body at the depth of its header does not match.

import { isBlank, leadingWhitespace } from './normalize';

export type IndentMap =
  | { kind: 'identity' }
  /** The file's lines carry `prefix` in front of SEARCH's indentation. */
  | { kind: 'add'; prefix: string }
  /** SEARCH's indentation carries `prefix` in front of the file's. */
  | { kind: 'remove'; prefix: string }
  /**
   * Measured in columns (SEARCH's tabs `searchWidth` wide, the file's `fileWidth` wide):
   * file column = (SEARCH column * num + offset) / den, written with tabs when the file's lines use them.
   */
  | {
      kind: 'columns';
      searchWidth: number;
      fileWidth: number;
      num: number;
      den: number;
      offset: number;
      tabs: boolean;
      /** A prefix every SEARCH line carries, removed before counting columns. */
      strip?: string;
    };

export const IDENTITY: IndentMap = { kind: 'identity' };

/** Tab widths tried, most common first. */
const TAB_WIDTHS = [4, 8, 2, 3];
/** Indent units a rescale may relate (2 <-> 4 <-> 8 spaces, 3); a ratio of two of them. */
const UNITS = [2, 3, 4, 8];

export function columns(lead: string, width: number): number {
  let c = 0;
  for (let i = 0; i < lead.length; i++) {
    if (lead.charCodeAt(i) === 9) {
      c = (Math.floor(c / width) + 1) * width;
    } else {
      c++;
    }
  }
  return c;
}

export function renderColumns(cols: number, width: number, tabs: boolean): string {
  if (cols <= 0) {
    return '';
  }
  return tabs ? '\t'.repeat(Math.floor(cols / width)) + ' '.repeat(cols % width) : ' '.repeat(cols);
}

/** Leading whitespace pairs [search, file] of the non-blank line pairs. */
export function leadPairs(pairs: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [s, d] of pairs) {
    if (isBlank(s) || isBlank(d)) {
      continue;
    }
    out.push([leadingWhitespace(s), leadingWhitespace(d)]);
  }
  return out;
}

function gcd(a: number, b: number): number {
  while (b) {
    [a, b] = [b, a % b];
  }
  return a;
}

/** Whether num/den is a ratio of two indent units (or 1). */
function allowedRatio(num: number, den: number): boolean {
  if (num <= 0 || den <= 0) {
    return false;
  }
  const g = gcd(num, den);
  const n = num / g;
  const d = den / g;
  if (n === d) {
    return true;
  }
  for (const a of UNITS) {
    for (const b of UNITS) {
      if (a * d === b * n) {
        return true;
      }
    }
  }
  return false;
}

/**
 * The columns relation at these tab widths that fits every pair, if any. Distinct indentations on one
 * side must be distinct depths at its tab width (a file that writes "\t" and 4 spaces for two levels,
 * Perl style, is not read at width 4, where they would be one level).
 */
function fitColumns(
  leads: ReadonlyArray<readonly [string, string]>,
  searchWidth: number,
  fileWidth: number,
  tabs: boolean,
  strip: string,
): IndentMap | undefined {
  const byS = new Map<number, number>();
  const sLead = new Map<number, string>();
  const fLead = new Map<number, string>();
  for (const [s, d] of leads) {
    const sc = columns(s, searchWidth);
    const fc = columns(d, fileWidth);
    if ((sLead.get(sc) ?? s) !== s || (fLead.get(fc) ?? d) !== d) {
      return undefined;
    }
    sLead.set(sc, s);
    fLead.set(fc, d);
    const known = byS.get(sc);
    if (known === undefined) {
      byS.set(sc, fc);
    } else if (known !== fc) {
      return undefined;
    }
  }
  const keys = [...byS.keys()].sort((a, b) => a - b);
  const lo = keys[0];
  const hi = keys[keys.length - 1];
  let num = 1;
  let den = 1;
  if (hi !== lo) {
    num = byS.get(hi)! - byS.get(lo)!;
    den = hi - lo;
    if (!allowedRatio(num, den)) {
      return undefined;
    }
    const g = gcd(num, den);
    num /= g;
    den /= g;
  }
  const offset = byS.get(lo)! * den - lo * num;
  for (const [sc, fc] of byS) {
    if (fc * den !== sc * num + offset) {
      return undefined;
    }
  }
  const map: IndentMap = { kind: 'columns', searchWidth, fileWidth, num, den, offset, tabs };
  if (strip) {
    map.strip = strip;
  }
  return map;
}

/** One relation that holds for every pair, or undefined when the indentation is inconsistent. */
export function deriveIndentMap(leads: ReadonlyArray<readonly [string, string]>): IndentMap | undefined {
  if (leads.length === 0) {
    return IDENTITY;
  }
  let same = true;
  for (const [s, d] of leads) {
    if (s !== d) {
      same = false;
    }
  }
  if (same) {
    return IDENTITY;
  }
  const [s0, d0] = leads[0];
  if (d0.endsWith(s0)) {
    const prefix = d0.slice(0, d0.length - s0.length);
    if (leads.every(([s, d]) => d === prefix + s)) {
      return { kind: 'add', prefix };
    }
  }
  if (s0.endsWith(d0)) {
    const prefix = s0.slice(0, s0.length - d0.length);
    if (leads.every(([s, d]) => s === prefix + d)) {
      return { kind: 'remove', prefix };
    }
  }
  // Equal SEARCH indentation maps to equal file indentation and back (a one-to-one relation).
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (const [s, d] of leads) {
    if ((forward.get(s) ?? d) !== d || (backward.get(d) ?? s) !== s) {
      return undefined;
    }
    forward.set(s, d);
    backward.set(d, s);
  }
  const fileTabs = leads.some(([, d]) => d.includes('\t'));
  // SEARCH lines may share a prefix the relation strips first: the space a numbered view put after
  // "12:" in front of tab-indented code ("12: \tcode"), which a tab swallows when counting columns.
  let common = leads[0][0];
  for (const [s] of leads) {
    while (!s.startsWith(common)) {
      common = common.slice(0, -1);
    }
  }
  const strips = [...new Set(['', common.slice(0, leadingSpaces(common)), common])];
  let best: { map: IndentMap; rank: number } | undefined;
  for (const strip of strips) {
    const stripped = strip ? leads.map(([s, d]) => [s.slice(strip.length), d] as const) : leads;
    const searchTabs = stripped.some(([s]) => s.includes('\t'));
    for (const fw of fileTabs ? TAB_WIDTHS : [0]) {
      for (const sw of searchTabs ? TAB_WIDTHS : [0]) {
        // Tabs on both sides are read at one width (one editor shows both).
        if (fw && sw && fw !== sw) {
          continue;
        }
        // Without tabs on a side its width does not matter; REPLACE's tabs there count as the other side's.
        const fileWidth = fw || sw || 4;
        const searchWidth = sw || fileWidth;
        const fit = fitColumns(stripped, searchWidth, fileWidth, fileTabs, strip);
        if (!fit || fit.kind !== 'columns') {
          continue;
        }
        // Tabs vs spaces at one width beats the same with a shift, which beats a rescale.
        const rank = (fit.num === fit.den ? 0 : 2) + (fit.offset === 0 ? 0 : 1) + (strip ? 0.5 : 0);
        if (!best || rank < best.rank) {
          best = { map: fit, rank };
        }
      }
    }
  }
  return best?.map;
}

function leadingSpaces(s: string): number {
  let n = 0;
  while (n < s.length && s.charCodeAt(n) === 32) {
    n++;
  }
  return n;
}

/** Whether `map` relates this pair. */
function relates(map: IndentMap, s: string, d: string): boolean {
  if (map.kind === 'columns') {
    return columns(d, map.fileWidth) === mappedColumns(map, s);
  }
  return mapIndent(map, s) === d;
}

/**
 * The relation most line pairs agree on, and the indices of the pairs it does not relate. For a
 * region the user chose (the relation to use anyway) and for saying which lines disagree.
 */
export function bestIndentMap(leads: ReadonlyArray<readonly [string, string]>): { map: IndentMap; disagree: number[] } {
  const strict = deriveIndentMap(leads);
  if (strict) {
    return { map: strict, disagree: [] };
  }
  // Candidates from every pair of distinct pairs (bounded), scored by how many pairs they relate.
  const distinct: Array<readonly [string, string]> = [];
  const seen = new Set<string>();
  for (const p of leads) {
    const key = `${p[0]}\u0000${p[1]}`;
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    distinct.push(p);
    if (distinct.length >= 24) {
      break;
    }
  }
  let best: { map: IndentMap; count: number } = { map: IDENTITY, count: -1 };
  const consider = (map: IndentMap | undefined) => {
    if (!map) {
      return;
    }
    let count = 0;
    for (const [s, d] of leads) {
      if (relates(map, s, d)) {
        count++;
      }
    }
    if (count > best.count) {
      best = { map, count };
    }
  };
  consider(IDENTITY);
  for (let i = 0; i < distinct.length; i++) {
    consider(deriveIndentMap([distinct[i]]));
    for (let j = i + 1; j < distinct.length; j++) {
      consider(deriveIndentMap([distinct[i], distinct[j]]));
    }
  }
  const disagree: number[] = [];
  leads.forEach(([s, d], i) => {
    if (!relates(best.map, s, d)) {
      disagree.push(i);
    }
  });
  return { map: best.map, disagree };
}

function mappedColumns(map: Extract<IndentMap, { kind: 'columns' }>, lead: string): number {
  const own = map.strip && lead.startsWith(map.strip) ? lead.slice(map.strip.length) : lead;
  return Math.round((columns(own, map.searchWidth) * map.num + map.offset) / map.den);
}

/** The file-side indentation for a REPLACE line indented `lead` that no SEARCH line shares. */
export function mapIndent(map: IndentMap, lead: string): string {
  switch (map.kind) {
    case 'identity':
      return lead;
    case 'add':
      return map.prefix + lead;
    case 'remove': {
      if (lead.startsWith(map.prefix)) {
        return lead.slice(map.prefix.length);
      }
      // A new line indented less than SEARCH's common prefix: remove what is there, by columns.
      const cols = columns(lead, 4) - columns(map.prefix, 4);
      return renderColumns(cols, 4, lead.includes('\t'));
    }
    case 'columns':
      return renderColumns(mappedColumns(map, lead), map.fileWidth, map.tabs);
  }
}

function unitText(s: string): string {
  const tabs = (s.match(/\t/g) ?? []).length;
  const spaces = s.length - tabs;
  const parts: string[] = [];
  if (tabs) {
    parts.push(`${tabs} tab${tabs === 1 ? '' : 's'}`);
  }
  if (spaces) {
    parts.push(`${spaces} space${spaces === 1 ? '' : 's'}`);
  }
  return parts.join(' and ') || 'no indentation';
}

export function describeIndentMap(map: IndentMap): string {
  switch (map.kind) {
    case 'identity':
      return 'indentation unchanged';
    case 'add':
      return `the file indents these lines ${unitText(map.prefix)} deeper`;
    case 'remove':
      return `the file indents these lines ${unitText(map.prefix)} less`;
    case 'columns': {
      if (map.num === map.den) {
        return map.tabs ? 'tabs in the file vs spaces in SEARCH' : 'spaces in the file vs tabs in SEARCH';
      }
      const shift = map.offset !== 0 ? ', and shifted' : '';
      const ratio =
        map.num > map.den
          ? `${+(map.num / map.den).toFixed(2)} times as wide as`
          : `${+(map.den / map.num).toFixed(2)} times narrower than`;
      return `the file's indent unit is ${ratio} SEARCH's${shift}`;
    }
  }
}

/** "4 spaces", "1 tab", "no indentation": for messages about one line's indentation. */
export function describeLead(lead: string): string {
  return unitText(lead);
}
