// Preview: vscode.diff of the live document (left, still editable) against a virtual read-only document
// holding the text the document would have with the block applied at the chosen candidate.
import * as vscode from 'vscode';
import { type BlockChoice, shownCandidateNow } from '../core';
import type { ApplyService } from './applyService';
import { Commands, PREVIEW_SCHEME } from './constants';
import { afterEngine } from './engineGate';
import type { CandidateChoice, PendingStore } from './pendingStore';
import { PreviewContentProvider, previewTitle } from './previewContent';

/**
 * Opens the diff for a candidate. Returns the preview URI (tests and the chat participant use it), or
 * undefined with a message when the choice is gone or cannot be placed there.
 */
export async function previewChoice(
  store: PendingStore,
  service: ApplyService,
  provider: PreviewContentProvider,
  choice: CandidateChoice,
): Promise<vscode.Uri | undefined> {
  const found = store.get(choice.batchId) && store.partsFor(vscode.Uri.parse(choice.uri)).find((p) => p.batch.id === choice.batchId);
  if (!found) {
    void vscode.window.showWarningMessage('That choice is no longer pending (it was applied or dismissed).');
    return undefined;
  }
  const { part } = found;
  const extra: Record<number, BlockChoice> = {};
  if (choice.blockIndex !== undefined && choice.startLine !== undefined && choice.endLine !== undefined) {
    const shown = { range: { startLine: choice.startLine, endLine: choice.endLine }, text: choice.text ?? '', version: choice.version };
    const current = shownCandidateNow(
      shown,
      part.result.blocks.find((b) => b.index === choice.blockIndex),
      part.version,
    );
    if (!current) {
      void vscode.window.showWarningMessage(`${part.label} changed and that candidate is gone; look at the refreshed ones.`);
      return undefined;
    }
    extra[choice.blockIndex] = current;
  }
  const preview = service.preview(part, extra);
  if (preview === undefined) {
    void vscode.window.showWarningMessage(`The block cannot be placed at lines ${choice.startLine}-${choice.endLine} of ${part.label}.`);
    return undefined;
  }
  const uri = provider.put(part.uri, preview);
  const where = choice.startLine !== undefined ? `block ${choice.blockIndex} at lines ${choice.startLine}-${choice.endLine}` : 'all blocks';
  await vscode.commands.executeCommand('vscode.diff', part.uri, uri, previewTitle(`${part.label} ↔ ${where} (preview)`, preview), {
    preview: true,
  });
  return uri;
}

/** The preview scheme and the internal Preview command used by CodeLens rows, hovers and Quick Pick. */
export function registerPreview(context: vscode.ExtensionContext, store: PendingStore, service: ApplyService): PreviewContentProvider {
  const provider = new PreviewContentProvider(PREVIEW_SCHEME);
  context.subscriptions.push(
    provider.register(),
    vscode.commands.registerCommand(
      Commands.previewCandidate,
      afterEngine((choice: CandidateChoice) => previewChoice(store, service, provider, choice)),
    ),
  );
  return provider;
}
