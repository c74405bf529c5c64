// A block that tiers 1-9 found: the only occurrence, the one a line hint picks, or ambiguous (every
// occurrence listed); a normalised match needs consent (autoApplyNormalized) to be placed.

import { type SearchReplaceBlock, type Tier } from '../types';
import { type Occurrence } from '../match/tiers';
import { tierInfo } from '../match/tierTable';
import { markAmbiguous, markApplied, undecided } from './outcome';
import { type BatchView, type Evaluation } from './batchView';
import { nearestToHint, staleHintNote } from './hints';

/** How many other occurrences a note names when a line hint picked one. */
const MAX_LISTED_OTHERS = 10;

/** The block's decision when tiers 1-9 found SEARCH at `tier` (occs: every occurrence there, in file order). */
export function decideOccurrences(batch: BatchView, block: SearchReplaceBlock, tier: Tier, occs: Occurrence[]): Evaluation {
  const settings = batch.settings;
  const outcome = undecided(block.index);
  outcome.tier = tier;
  const hint = block.startLine ?? settings.lineHint;
  const firstLine = (o: Occurrence) => batch.range(o.start, o.end).startLine;
  let occ: Occurrence | undefined;
  const stale = hint === undefined ? undefined : staleHintNote(batch, hint);
  if (occs.length === 1) {
    occ = occs[0];
    if (stale !== undefined) {
      outcome.notes.push(`${stale}; SEARCH occurs once, at line ${firstLine(occ)}`);
    } else if (hint !== undefined && Math.abs(firstLine(occ) - hint) > settings.lineHintWindow) {
      outcome.notes.push(`line hint ${hint} is far from the only match, at line ${firstLine(occ)}`);
    }
  } else if (hint !== undefined && stale === undefined) {
    // A hint past the end was written for another version of the file: it picks nothing.
    occ = nearestToHint(batch, occs, hint);
    if (occ) {
      const others = occs.filter((o) => o !== occ).map(firstLine);
      outcome.notes.push(
        // A short list: a line that occurs hundreds of times must not flood the model's context.
        `SEARCH occurs ${occs.length} times; line hint ${hint} picked the one at line ${firstLine(occ)} (others at line${others.length === 1 ? '' : 's'} ${others.slice(0, MAX_LISTED_OTHERS).join(', ')}${others.length > MAX_LISTED_OTHERS ? ` and ${others.length - MAX_LISTED_OTHERS} more` : ''})`,
      );
    }
  }
  if (!occ) {
    markAmbiguous(
      outcome,
      tier,
      occs.map((o) => batch.candidate(o.start, o.end, 1)),
    );
    const invisible = occs.filter((o) => o.tier !== tier).map(firstLine);
    if (invisible.length > 0) {
      outcome.notes.push(
        `the occurrence${invisible.length === 1 ? '' : 's'} at line${invisible.length === 1 ? '' : 's'} ${invisible.join(', ')} ` +
          `differ${invisible.length === 1 ? 's' : ''} only in line endings or trailing whitespace, which count as the same text`,
      );
    }
    if (hint !== undefined) {
      outcome.notes.push(stale ?? `line hint ${hint} did not pick a single occurrence within ${settings.lineHintWindow} lines`);
    }
    return { outcome };
  }
  outcome.notes.push(...occ.notes);
  // An occurrence picked among invisible twins keeps its own tier (a hint may pick the CRLF one).
  tier = occ.tier;
  outcome.tier = tier;
  const needsConsent = !tierInfo(tier).appliesWithoutConsent;
  if (needsConsent && !settings.autoApplyNormalized) {
    outcome.status = 'not_found';
    outcome.candidates = [
      batch.candidate(occ.start, occ.end, 1, `${occ.notes.join('; ') || `matched at the ${tier} tier`}; not applied automatically`),
    ];
    outcome.notes.push('a normalised match is offered as a candidate because automatic application of normalised matches is off');
    return { outcome };
  }
  markApplied(outcome, tier, batch.range(occ.start, occ.end), 1);
  return { outcome, target: { kind: 'occurrence', occurrence: occ } };
}
