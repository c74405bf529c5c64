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
  /**
   * Indented code lines (not the ` * ` lines of a block comment), how many stand at a multiple of the unit,
   * and how many at a multiple of the unit that is not one of twice the unit (2 or 6 columns for a unit of 2).
   */
  grid?: { lines: number; onUnit: number; offDouble: number };
  /** A block's style only: its width is converted to the file's unit (blockStyle). */
  widens?: boolean;
}

/** Columns a tab stands for when depths are compared. */
export const TAB_COLUMNS = 4;

export function columnsOf(lead: string): number {
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
  const grid = { lines: 0, onUnit: 0, offDouble: 0 };
  const finalUnit = unit || TAB_COLUMNS;
  for (const line of lines) {
    const lead = leadOf(line);
    if (lead === '' || line.trim() === '' || /^\*/.test(line.trim())) {
      continue;
    }
    const cols = columnsOf(lead);
    grid.lines++;
    if (cols % finalUnit === 0) {
      grid.onUnit++;
      if (cols % (2 * finalUnit) !== 0) {
        grid.offDouble++;
      }
    }
  }
  return {
    tabs,
    mixed: tabbed > 0 && spaced > 0,
    unit: finalUnit,
    indentedBlanks: keptBlanks > emptyBlanks,
    measured: tabs || unit >= 2,
    grid,
  };
}

/** Share of a file's indented code lines that must stand on its unit for a block's width to be converted to it. */
const FILE_ON_UNIT = 0.95;

/**
 * Whether spaces of the block's width become the file's: both indent with spaces only, the file's unit is a
 * multiple of the block's, every indented line of the block stands on the block's unit and some at a depth
 * the file's unit cannot give (2 or 6 columns, not 4), and nearly all the file's on its own unit. A unit
 * read from few or odd lines (a Ruby body, aligned continuation lines) fails one of these and stays as written.
 */
/**
 * The indentation style of a code block for a file, with whether its width becomes the file's: the units
 * say so (convertsWidth), and the lines the block shares with the file do not say otherwise. A block that
 * copies the file's lines at the file's own depths is written as the file writes them already, even when
 * its unit reads as smaller (a Ruby method whose heredoc is indented by two inside code indented by four).
 */
export function blockStyle(blockLines: readonly string[], fileLines: readonly string[], fileStyle: IndentStyle): IndentStyle {
  const style = indentStyle(blockLines);
  return { ...style, widens: convertsWidth(style, fileStyle) && !sharedLinesKeepWidth(blockLines, fileLines, style, fileStyle) };
}

/**
 * Lines that stand once in the block and once in the file, in the block's order: between two of them at
 * different depths, the file's step is the block's (the block has the file's widths) more often than it is
 * the block's step rescaled.
 */
function sharedLinesKeepWidth(blockLines: readonly string[], fileLines: readonly string[], from: IndentStyle, to: IndentStyle): boolean {
  const once = (lines: readonly string[]) => {
    const at = new Map<string, number>();
    lines.forEach((line, i) => {
      const key = line.trim();
      if (/\w{3}/.test(key)) {
        at.set(key, at.has(key) ? -1 : i);
      }
    });
    return at;
  };
  const inFile = once(fileLines);
  const pairs: Array<[number, number]> = [];
  for (const [key, i] of once(blockLines)) {
    const j = inFile.get(key);
    if (i >= 0 && j !== undefined && j >= 0) {
      pairs.push([columnsOf(leadOf(blockLines[i])), columnsOf(leadOf(fileLines[j]))]);
    }
  }
  let same = 0;
  let rescaled = 0;
  for (let k = 1; k < pairs.length; k++) {
    const blockStep = pairs[k][0] - pairs[k - 1][0];
    const fileStep = pairs[k][1] - pairs[k - 1][1];
    if (blockStep === 0) {
      continue;
    }
    if (fileStep === blockStep) {
      same++;
    } else if (fileStep * from.unit === blockStep * to.unit) {
      rescaled++;
    }
  }
  return same > rescaled;
}

function convertsWidth(from: IndentStyle, to: IndentStyle): boolean {
  if (from.tabs || to.tabs || from.mixed || to.mixed || !from.measured || !to.measured || !from.grid || !to.grid) {
    return false;
  }
  if (from.unit >= to.unit || to.unit % from.unit !== 0) {
    return false;
  }
  const block = from.grid;
  const file = to.grid;
  return (
    block.lines > 0 && block.onUnit === block.lines && block.offDouble > 0 && file.lines > 0 && file.onUnit >= FILE_ON_UNIT * file.lines
  );
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
  // become four only when both units are certain (convertsWidth): rescaling on a guessed unit re-indented
  // Java doc comments and Ruby bodies whose unit was misread (34 real-edit cases).
  const retab = from.tabs !== to.tabs && !from.mixed && !to.mixed;
  const widen = !retab && from.widens === true;
  const convert = retab || widen;
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
    // Widened, whole levels are rescaled and what is left over (the column a ` * ` line stands in) is kept.
    const relative = widen
      ? Math.floor((cols - base) / from.unit) * to.unit + ((cols - base) % from.unit)
      : Math.round(((cols - base) * to.unit) / from.unit);
    return (relative === 0 ? toLead : render(target + relative, to)) + line.slice(lead.length);
  });
}
