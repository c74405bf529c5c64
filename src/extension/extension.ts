// Activation reads as a table of contents: one registerX(context) per feature. Every disposable goes
// into context.subscriptions. The two bundles' entry points (desktop.ts, web.ts) hand in what differs
// between the Node and the web worker extension hosts.
import type * as vscode from 'vscode';
import { ApplyService } from './applyService';
import { registerBlockSources } from './blockSources';
import { registerCandidateView } from './candidateView';
import { DocumentApplier } from './documentApplier';
import { registerApplyTool } from './chat/applyTool';
import { registerChatParticipant } from './chat/chatParticipant';
import { EditorHistory } from './editorHistory';
import { Feedback } from './feedback';
import { registerLog } from './log';
import { type BlockPasteProvider, registerPasteProvider } from './pasteProvider';
import { registerPendingCommands } from './pendingCommands';
import { PendingStore } from './pendingStore';
import { registerPreview } from './preview';
import { type Review, registerReview } from './review/registerReview';
import { WholePatchApplier } from './wholePatch';
import type { CodeBlockDeps } from './snippets/codeBlockSources';
import { registerCodeBlocks } from './snippets/registerCodeBlocks';
import type { RealPathResolver } from './workspaceBoundary';

/** What the Node and the web worker extension hosts do differently. */
export interface Platform {
  /** Resolves symbolic links, so the language model tool can tell whether a file is really inside the workspace. */
  resolveRealPath: RealPathResolver;
}

/**
 * What activate() returns: the shared services, for integration tests and for companion features. In the
 * web worker host their synchronous matching calls work once engineReady() (engineGate.ts) has resolved.
 */
export interface ResilientApplyApi {
  applyService: ApplyService;
  pendingStore: PendingStore;
  pasteProvider: BlockPasteProvider;
  feedback: Feedback;
  /** The code block applier and its reviews (src/extension/snippets). */
  codeBlocks: CodeBlockDeps;
  /** The changes of applies still to review, per document (src/extension/review). */
  review: Review;
}

/** The services every feature shares: the log, the apply service, the pending store, editor history. */
function registerServices(context: vscode.ExtensionContext, platform: Platform) {
  const log = registerLog(context);
  const feedback = new Feedback();
  const documents = new DocumentApplier(log, feedback);
  const pendingStore = new PendingStore(documents, log);
  const wholePatch = new WholePatchApplier(documents, platform.resolveRealPath, log, feedback);
  const applyService = new ApplyService(documents, pendingStore, log, wholePatch);
  const history = new EditorHistory();
  context.subscriptions.push(feedback, pendingStore, history);
  return { log, feedback, applyService, pendingStore, history };
}

export function activateWith(context: vscode.ExtensionContext, platform: Platform): ResilientApplyApi {
  const { log, feedback, applyService, pendingStore, history } = registerServices(context, platform);
  const pasteProvider = registerPasteProvider(context, applyService, log);
  const codeBlocks = registerCodeBlocks(context, { log, feedback, applyService, resolveRealPath: platform.resolveRealPath });
  registerBlockSources(context, applyService, history, codeBlocks);
  registerCandidateView(context, pendingStore);
  const preview = registerPreview(context, pendingStore, applyService);
  registerPendingCommands(context, pendingStore, applyService, preview);
  registerChatParticipant(context, { applyService, codeBlocks });
  registerApplyTool(context, { ...platform, applyService, codeBlocks });
  const review = registerReview(context, context.extensionUri);
  return { applyService, pendingStore, pasteProvider, feedback, codeBlocks, review };
}

export function deactivate(): void {
  // Every disposable lives in context.subscriptions; nothing else to release.
}
