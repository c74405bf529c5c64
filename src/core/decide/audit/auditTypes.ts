// The audit's shared types (issue 25): its input (the file, the block, the planned result and their
// outlines) and a failure (the rule, why, the closest places), read by each rule's module.

import type { Outline } from '../../match/structure/outline';

export type AuditRule =
  | 'block-lines-kept'
  | 'removed-lines-shown'
  | 'unshown-declarations-kept'
  | 'no-new-syntax-errors'
  | 'no-second-declaration'
  | 'written-in-place'
  | 'whole-file-rewrite';

export interface AuditFailure {
  rule: AuditRule;
  /** What is wrong, in a sentence a model can act on. */
  reason: string;
  /** The closest places in the file (0-based lines, [start, end)). */
  places: Array<{ start: number; end: number }>;
}

export interface AuditInput {
  fileLines: readonly string[];
  /** The block's lines as read (placeholders marked). */
  blockLines: readonly string[];
  placeholders: readonly boolean[];
  resultLines: readonly string[];
  fileOutline: Outline;
  blockOutline: Outline;
  /** The result as the same reader reads it. */
  resultOutline: Outline;
  /** The plan wrote the block as a rewrite of the whole file. */
  wholeFile: boolean;
  /** A configuration file (never a whole-file rewrite). */
  config: boolean;
}
