// applyEdits: applyBlocks for blocks that may be patch hunks. Before the engine runs, each hunk's own
// hints are turned into what the engine understands, without changing how it decides:
//   - an apply_patch `@@ anchor` narrows the search to the text after the anchor line (found through the
//     same tiers: exact first, then the normalisations); ambiguity is judged after the anchor, so a hunk
//     that occurs twice after it is refused with both places, and one occurrence there is picked even
//     when the same lines also occur before the anchor;
//   - `*** End of File` hints the hunk's place at the end of the file; a hunk with no old lines is
//     appended after the file's last line;
//   - a unified diff header's line number is the block's line hint (it only picks among occurrences)
//     and, when the hunk lands elsewhere, the message says so ("hunk header said line 12, applied at
//     line 40") instead of applying at an offset silently.
// Pure: no I/O, no vscode.
import { applyBlocks } from '../engine';
import { DocLines } from '../match/lines';
import { formatMessage } from '../report/message';
import { holdBack, isFailure } from '../decide/outcome';
import { tierInfo } from '../match/tierTable';
import { Matcher, type Occurrence, prepareSearch } from '../match/tiers';
import type { ApplyOptions, ApplyResult, BatchStatus, BlockOutcome, Candidate, SearchReplaceBlock, Tier } from '../types';

interface RegionMatch {
  tier: Tier;
  /** Occurrences with 0-based lines of the whole document. */
  occurrences: Occurrence[];
}

/** The deciding tier's occurrences of `search` in the document from 0-based line `from` on. */
function findFrom(doc: DocLines, search: string, from: number): RegionMatch | undefined {
  if (!doc.has(from)) {
    return undefined;
  }
  const sub = from === 0 ? doc : new DocLines(doc.text.slice(doc.start(from)));
  const found = new Matcher(sub, prepareSearch(search)).findFirst();
  if (!found) {
    return undefined;
  }
  return {
    tier: found.tier,
    occurrences: found.occurrences.map((o) => ({ ...o, start: o.start + from, end: o.end + from })),
  };
}

function quoteAnchor(anchor: string): string {
  const t = anchor.trim();
  return `"${t.length > 60 ? `${t.slice(0, 59)}…` : t}"`;
}

/** What the pre-step decided for one hunk. */
interface HunkPlan {
  /** The block handed to the engine (hint set, or SEARCH widened for an append). */
  block: SearchReplaceBlock;
  /** Decided without the engine (ambiguous after the anchor). */
  outcome?: BlockOutcome;
  /** Placement chosen as a region the engine's global tier cannot see (found after the anchor only). */
  choice?: { startLine: number; endLine: number; tier: Tier };
  /** Notes to add to the engine's outcome, and engine notes they replace. */
  notes: string[];
  dropEngineNotes?: RegExp;
}

function planHunk(doc: DocLines, given: SearchReplaceBlock, fileName: string): HunkPlan {
  const hunk = given.hunk!;
  // A header's line number is only a hint, and stale headers are common: one past the end of the file
  // picks nothing (the engine would refuse it as a line hint), so the hunk is placed by its lines alone.
  const pastEnd = given.startLine !== undefined && given.startLine > Math.max(doc.visibleCount, 1);
  const block: SearchReplaceBlock = pastEnd ? { ...given, startLine: undefined } : given;
  const plan: HunkPlan = { block, notes: [] };
  if (pastEnd) {
    plan.notes.push(
      `the hunk header's line ${given.startLine} is past the end of ${fileName} (${doc.visibleCount} lines); placed by the hunk's lines alone`,
    );
  }
  if (block.search.trim() === '') {
    if (!hunk.endOfFile || doc.text.trim() === '') {
      return plan;
    }
    // A hunk with no old lines goes after the file's last non-blank line (as Codex does).
    let last = doc.visibleCount - 1;
    while (last > 0 && doc.line(last).trim() === '') {
      last--;
    }
    const lastLine = doc.line(last);
    plan.block = {
      ...block,
      search: lastLine,
      replace: block.replace === '' ? lastLine : `${lastLine}\n${block.replace}`,
      startLine: last + 1,
    };
    plan.notes.push('appended after the last line (the hunk has no context lines)');
    plan.dropEngineNotes = /^(SEARCH occurs|line hint)/;
    return plan;
  }

  if (hunk.anchors && hunk.anchors.length > 0) {
    let from = 0;
    let anchorAt: number | undefined;
    let anchorText = '';
    for (const anchor of hunk.anchors) {
      const found = findFrom(doc, anchor, from);
      if (!found) {
        plan.notes.push(
          `the @@ anchor ${quoteAnchor(anchor)} is not in ${fileName}${from > 0 ? ` after line ${from}` : ''}; the hunk was placed by its own lines`,
        );
        break;
      }
      const first = found.occurrences[0];
      anchorAt = first.start + 1;
      anchorText = anchor;
      from = first.end;
    }
    if (anchorAt !== undefined) {
      const spec = block.search;
      const region = findFrom(doc, spec, from);
      const where = `the @@ anchor ${quoteAnchor(anchorText)} (line ${anchorAt})`;
      if (!region) {
        plan.notes.push(`the hunk's lines are not after ${where}; the hunk was placed by its own lines`);
      } else if (region.occurrences.length > 1) {
        const candidates = region.occurrences.map((o) => candidateOf(doc, o));
        plan.outcome = {
          index: block.index,
          status: 'ambiguous',
          tier: region.tier,
          candidates,
          notes: [
            `the hunk's lines occur ${candidates.length} times after ${where} (lines ${candidates.map((c) => c.startLine).join(', ')}); add context lines or a closer @@ anchor to pick one`,
          ],
        };
        return plan;
      } else {
        const occ = region.occurrences[0];
        const global = new Matcher(doc, prepareSearch(spec)).findFirst();
        const others = (global?.occurrences ?? []).filter((o) => o.start !== occ.start).map((o) => o.start + 1);
        const visible = global !== undefined && global.tier === region.tier && others.length === global.occurrences.length - 1;
        plan.notes.push(
          `after ${where}${others.length > 0 ? `; the same lines also occur at line${others.length === 1 ? '' : 's'} ${others.join(', ')}` : ''}`,
        );
        plan.dropEngineNotes = /^(SEARCH occurs|line hint|placed at lines \d+-\d+ as chosen)/;
        if (visible) {
          plan.block = { ...block, startLine: occ.start + 1 };
        } else {
          plan.choice = { startLine: occ.start + 1, endLine: occ.end, tier: region.tier };
        }
        return plan;
      }
    }
  }

  if (hunk.endOfFile && block.startLine === undefined) {
    const n = block.search.split('\n').length;
    plan.block = { ...block, startLine: Math.max(1, doc.visibleCount - n + 1) };
    plan.dropEngineNotes = /^line hint \d+ is far/;
  }
  return plan;
}

function candidateOf(doc: DocLines, o: Occurrence): Candidate {
  return {
    startLine: o.start + 1,
    endLine: o.end,
    score: 1,
    text: doc.joined(o.start, o.end),
    start: doc.start(o.start),
    end: doc.contentEnd(o.end - 1),
  };
}

/** Rewrites the engine's notes for a hunk: header line wording, anchor notes, the place it landed. */
function finishOutcome(outcome: BlockOutcome, block: SearchReplaceBlock, plan: HunkPlan | undefined): BlockOutcome {
  const hunk = block.hunk;
  if (!hunk) {
    return outcome;
  }
  let notes = outcome.notes;
  if (plan?.dropEngineNotes) {
    notes = notes.filter((n) => !plan.dropEngineNotes!.test(n));
  }
  if (hunk.headerLine !== undefined) {
    const header = hunk.headerLine;
    notes = notes
      .filter((n) => !new RegExp(`^line hint ${header} is far from the only match`).test(n))
      .map((n) => n.replace(new RegExp(`\\bline hint ${header}\\b`, 'g'), `the hunk header's line ${header}`));
    if (outcome.range && outcome.range.startLine !== header && plan?.choice === undefined) {
      notes.push(`hunk header said line ${header}, applied at line ${outcome.range.startLine}`);
    }
  }
  const result = { ...outcome, notes: [...notes, ...(plan?.notes ?? [])] };
  if (plan?.choice && outcome.tier && tierInfo(outcome.tier).kind === 'fuzzy' && outcome.range) {
    result.tier = plan.choice.tier;
    result.score = 1;
  }
  return result;
}

/**
 * applyBlocks for blocks that may be patch hunks (see the header). Blocks without hunk information go
 * straight to the engine, so this is a drop-in for applyBlocks.
 */
export function applyEdits(documentText: string, blocks: readonly SearchReplaceBlock[], options: ApplyOptions = {}): ApplyResult {
  if (!blocks.some((b) => b.hunk !== undefined && options.choices?.[b.index] === undefined)) {
    return applyBlocks(documentText, blocks, options);
  }
  const doc = new DocLines(documentText);
  const fileName = options.fileName ?? 'the file';
  const plans = new Map<number, HunkPlan>();
  const choices = { ...(options.choices ?? {}) };
  const engineBlocks: SearchReplaceBlock[] = [];
  for (const block of blocks) {
    if (block.hunk === undefined || options.choices?.[block.index] !== undefined) {
      engineBlocks.push(block);
      continue;
    }
    const plan = planHunk(doc, block, fileName);
    plans.set(block.index, plan);
    if (plan.outcome) {
      continue;
    }
    if (plan.choice) {
      choices[block.index] = { startLine: plan.choice.startLine, endLine: plan.choice.endLine };
    }
    engineBlocks.push(plan.block);
  }
  const result = applyBlocks(documentText, engineBlocks, { ...options, choices });
  const byIndex = new Map(result.blocks.map((o) => [o.index, o]));
  const outcomes: BlockOutcome[] = blocks.map((block) => {
    const plan = plans.get(block.index);
    if (plan?.outcome) {
      return plan.outcome;
    }
    return finishOutcome(byIndex.get(block.index)!, block, plan);
  });
  const failure = outcomes.find(isFailure);
  const status: BatchStatus = failure ? (failure.status as BatchStatus) : 'applied';
  if (status !== 'applied') {
    holdBack(outcomes);
  }
  const merged: ApplyResult = {
    status,
    edits: status === 'applied' ? result.edits : [],
    blocks: outcomes,
    message: formatMessage({ fileName, status, blocks: outcomes }),
  };
  if (status === 'applied' && result.content !== undefined) {
    merged.content = result.content;
  }
  return merged;
}
