// Core's public surface: what the editor adapters (src/extension), the CLI (src/cli.ts, src/node) and
// anything else outside src/core may use. ESLint holds them to this file; inside core, folders import each
// other directly in the order of the data path (test/unit/coreLayers.test.ts).
export {
  type ApplyOptions,
  type ApplyResult,
  type BatchStatus,
  type BlockOutcome,
  type BlockStatus,
  type Candidate,
  type Elision,
  type HunkInfo,
  type LineRange,
  type SearchReplaceBlock,
  type TextEdit,
  type Tier,
} from './types';
export { SETTINGS, type SettingValues, outOfRange, resolveSettings } from './settings';
export { applyBlocksAsync } from './engine';
export {
  type EditFormat,
  type ParsedEdits,
  containsEdits,
  detectEditFormat,
  editBlocks,
  formatName,
  hasFileOperations,
  parseEdits,
} from './formats/edits';
export { type AnswerCodeBlock, type ParsedAnswer, parseAnswer } from './formats/answer';
export { BlockParseError } from './formats/parser';
export { type CodeBlock, type SnippetText, findCodeBlocks, readSnippetText } from './formats/codeBlocks';
export { type FileAction, type FileChange, byPatchPreference, fileAction, parsePatch } from './formats/patchParser';
export { APPLY_TOOL_NAME, checkToolInput, describe, type ToolSnippet } from './formats/toolInput';
export { editNeedsConfirmation, type PathResolution, resolveWorkspacePath } from './workspacePaths';
export {
  APPLY_PATCH_PATCH_DESCRIPTION,
  APPLY_PATCH_TOOL_DESCRIPTION,
  APPLY_TOOL_DESCRIPTION,
  APPLY_TOOL_INPUT_SCHEMA,
  EDITOR_TOOL_DESCRIPTION,
  EDITOR_TOOL_INPUT_SCHEMA,
  DRY_RUN_DESCRIPTION,
} from './formats/toolSchema';
export { tierInfo, tierPhrase } from './match/tierTable';
export { lastStartAtOrBefore } from './match/lines';
export { type AppliedBatch, AppliedHistory } from './decide/appliedHistory';
export { isPlaced } from './decide/outcome';
export { describeDifferences } from './report/lineDiff';
export {
  type ChangedRegion,
  type ChangeHunk,
  type LineChange,
  lineChange,
  type RestoreEdit,
  changeHunks,
  followChanges,
  hunkLinesPhrase,
  hunkStateAt,
  linesWithEnds,
  locateHunk,
  regionHunks,
  restoreEdit,
} from './report/hunks';
export {
  type LensKind,
  type RawChange,
  type TrackedHunk,
  type UndoPlan,
  changesSentence,
  followReview,
  hunkLength,
  markUndone,
  nextHunkLine,
  planUndo,
  refusalMessage,
  reopenReview,
  replacedLinesMarkdown,
  reviewLenses,
  startReview,
} from './report/review';
export { dryRunMessage, outcomeLine } from './report/message';
export { formatPercent, formatScore } from './report/score';
export { applyEdits } from './batch/hunkPlacement';
export { canPlaceCodeAnywhere, codeBlockAt } from './batch/codeChoice';
export { moveChoices } from './batch/lineMap';
export {
  type BlockTarget,
  type Plan,
  blockWord,
  describeUnapplied,
  groupByTarget,
  isChoosable,
  isReady,
  judgePlan,
  newFileResult,
  placements,
  planMissingFile,
  unresolved,
} from './batch/plan';
export {
  type BlockChoice,
  type BlockChoices,
  choiceRanges,
  lostChoicesMessage,
  matchWithChoices,
  type PreviewResult,
  previewResult,
  previewText,
  rematchChoices,
  shownCandidateNow,
  withChoice,
} from './batch/rematch';
export { elisionNote, type Placeholder, type PlaceholderContext, isPlaceholderLine, recognisePlaceholder } from './formats/placeholders';
export {
  type AnswerTarget,
  type AnswerTargets,
  type CodeFile,
  type CodeFileResult,
  type FileStep,
  answerFormats,
  answerTargets,
  applyCodeFile,
  codeBlockLabel,
  isWholeNewFile,
  unnamedCodeBlockMessage,
} from './batch/wholePatch';
export {
  type AnswerFormat,
  type PatchFile,
  type PatchFileChange,
  type PatchQuestion,
  type PatchVerdict,
  type PathState,
  type WholePatchInputCheck,
  addedContent,
  checkPatchFile,
  checkWholePatchInput,
  claimedTwice,
  editsName,
  fileChangeLine,
  headerlessHunkError,
  judgePatch,
  mergeSections,
  patchAppliedMessage,
  patchFiles,
  patchNotAgreed,
  patchQuestion,
  patchRefusedMessage,
} from './batch/wholePatch';
export {
  applySnippet,
  type GrammarSource,
  type SnippetInput,
  type SnippetOptions,
  type SnippetReport,
  type SnippetResult,
} from './batch/snippet';
export { SHIPPED_GRAMMAR_FILES } from './match/structure/languages';
