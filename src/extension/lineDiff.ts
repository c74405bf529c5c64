// The hover's line diff is the engine's (core/lineDiff.ts), so the hover and the message agree.
export { diffLines, renderDiff, describeDifferences } from '../core/lineDiff';
export type { DiffLine } from '../core/lineDiff';
