// Every identifier the manifest (package.json "contributes") also names lives here, so a rename is one edit
// in this file plus one in package.json.

export const EXTENSION_ID = 'resilient-apply.resilient-apply';
export const CONFIG_SECTION = 'resilientApply';
export const OUTPUT_CHANNEL_NAME = 'Resilient Apply';

/** Scheme of the virtual "after" documents shown by Preview (vscode.diff of the live document vs the result). */
export const PREVIEW_SCHEME = 'resilient-apply-preview';

export const Commands = {
  // In the command palette.
  applyFromClipboard: 'resilientApply.applyFromClipboard',
  applySelectedBlocks: 'resilientApply.applySelectedBlocks',
  chooseCandidate: 'resilientApply.chooseCandidate',
  acceptBestCandidate: 'resilientApply.acceptBestCandidate',
  dismissPending: 'resilientApply.dismissPending',
  showLog: 'resilientApply.showLog',
  // Internal: CodeLens rows, the status bar item, paste follow-ups and the chat participant call these.
  applyCandidate: 'resilientApply.applyCandidate',
  previewCandidate: 'resilientApply.previewCandidate',
  dismissBatch: 'resilientApply.dismissBatch',
  applyBlocksInDocument: 'resilientApply.applyBlocksInDocument',
  applyText: 'resilientApply.applyText',
} as const;

/** Review each change (src/extension/review): the lenses, the status bar item and the keybindings call these. */
export const ReviewCommands = {
  keep: 'resilientApply.review.keep',
  undo: 'resilientApply.review.undo',
  keepAll: 'resilientApply.review.keepAll',
  undoAll: 'resilientApply.review.undoAll',
  next: 'resilientApply.review.next',
  previous: 'resilientApply.review.previous',
  files: 'resilientApply.review.files',
} as const;

export const ContextKeys = {
  /**
   * Where blocks wait for a choice: 'editor' (in the active editor's document), 'elsewhere' (only in other
   * documents), or false. One key, so a near miss costs the workbench one setContext, not two.
   */
  pending: 'resilientApply.pending',
  /** The active editor has changes of an apply to review. */
  editorReviewing: 'resilientApply.editorReviewing',
} as const;

/** Theme colours contributed in package.json "contributes.colors". */
export const Colors = {
  candidateBackground: 'resilientApply.candidateBackground',
  candidateBorder: 'resilientApply.candidateBorder',
  bestCandidateBackground: 'resilientApply.bestCandidateBackground',
  readyBackground: 'resilientApply.readyBackground',
  appliedBackground: 'resilientApply.appliedBackground',
  overviewRuler: 'resilientApply.candidateOverviewRuler',
  reviewAddedBackground: 'resilientApply.reviewAddedBackground',
  reviewRemovedBorder: 'resilientApply.reviewRemovedBorder',
  reviewOverviewRuler: 'resilientApply.reviewOverviewRuler',
} as const;

/**
 * Kinds of our paste edit. The default kind is named in the contributed default of
 * `editor.pasteAs.preferences` (package.json configurationDefaults), which is how VS Code picks the edit
 * applied on paste; the offer kind is only listed in the paste widget (Markdown, plain text, or when
 * resilientApply.paste.applyByDefault is off).
 */
export const PASTE_KIND_DEFAULT = ['resilientApply', 'searchReplace'] as const;
export const PASTE_KIND_OFFER = ['resilientApply', 'searchReplaceOffer'] as const;

/** How long the changed lines stay highlighted after an apply. */
export const FLASH_MS = 1500;
/** Debounce for re-matching pending blocks after the document changed. */
export const REMATCH_DEBOUNCE_MS = 250;
