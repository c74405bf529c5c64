// Commands over pending choices: apply a candidate (CodeLens, hover, Quick Pick, chat buttons), accept the
// best one, dismiss, the Quick Pick for people who turn CodeLens off, and the "2 blocks pending" status item.
import * as vscode from 'vscode';
import { blockWord } from '../core';
import type { ApplyOutcome, ApplyService } from './applyService';
import { candidateRows } from './candidateView';
import { Commands } from './constants';
import { afterEngine } from './engineGate';
import type { CandidateChoice, PendingStore } from './pendingStore';
import { previewChoice } from './preview';
import type { PreviewContentProvider } from './previewContent';

interface PickItem extends vscode.QuickPickItem {
  choice?: CandidateChoice;
  dismiss?: string;
}

function firstLines(text: string, max = 140): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > max ? trimmed.slice(0, max - 1) + '…' : trimmed;
}

/** Applies a choice and tells the user what happened when it was not a clean apply. */
export async function applyChoice(store: PendingStore, service: ApplyService, choice: CandidateChoice): Promise<ApplyOutcome> {
  const outcome = await store.choose(choice);
  if (outcome.status === 'pending') {
    service.notify(outcome);
  } else if (outcome.status === 'refused' || outcome.status === 'invalid') {
    void vscode.window.showWarningMessage(outcome.summary);
  }
  return outcome;
}

/** Quick Pick of every pending candidate (optionally one batch / block), best first; buttons preview. */
export async function pickCandidate(
  store: PendingStore,
  service: ApplyService,
  preview: PreviewContentProvider,
  filter?: { batchId?: string; blockIndex?: number },
): Promise<ApplyOutcome | undefined> {
  const items: PickItem[] = [];
  const previewButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: 'Preview' };
  for (const batch of store.list()) {
    if (filter?.batchId && batch.id !== filter.batchId) {
      continue;
    }
    for (const part of batch.plan.parts) {
      const rows = candidateRows(store, part.uri).filter(
        (r) => r.batch.id === batch.id && (filter?.blockIndex === undefined || r.outcome.index === filter.blockIndex),
      );
      let lastBlock = -1;
      for (const row of rows) {
        if (row.outcome.index !== lastBlock) {
          lastBlock = row.outcome.index;
          const what = row.outcome.status === 'ambiguous' ? `matches ${row.outcome.candidates.length} places` : 'near miss';
          items.push({ label: `Block ${row.outcome.index} · ${part.label} · ${what}`, kind: vscode.QuickPickItemKind.Separator });
        }
        items.push({
          label: row.applyTitle.replace(/^\$\(check\) (Block \d+: )?/, '$(check) '),
          description: row.outcome.status === 'ambiguous' ? `lines ${row.candidate.startLine}-${row.candidate.endLine}` : part.label,
          detail: firstLines(row.candidate.text),
          choice: row.choice,
          buttons: [previewButton],
        });
      }
      if (part.result.status === 'applied' && batch.plan.parts.every((p) => p.result.status === 'applied')) {
        items.push({
          label: `$(check) Apply ${batch.plan.blockCount} block(s): they all match now`,
          description: part.label,
          choice: { batchId: batch.id, uri: part.uri.toString() },
        });
      }
    }
    items.push({ label: '$(close) Dismiss these blocks', description: batch.plan.parts.map((p) => p.label).join(', '), dismiss: batch.id });
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No SEARCH/REPLACE blocks are waiting for a choice.');
    return undefined;
  }
  const quickPick = vscode.window.createQuickPick<PickItem>();
  quickPick.title = 'Resilient Apply: choose where the blocks go';
  quickPick.placeholder = 'Best candidates first; the diff button previews';
  quickPick.items = items;
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  const picked = await new Promise<PickItem | undefined>((resolve) => {
    quickPick.onDidTriggerItemButton((e) => {
      if (e.item.choice) {
        void previewChoice(store, service, preview, e.item.choice);
      }
    });
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
    quickPick.onDidHide(() => resolve(undefined));
    quickPick.show();
  });
  quickPick.dispose();
  if (!picked) {
    return undefined;
  }
  if (picked.dismiss) {
    store.dismiss(picked.dismiss);
    return { status: 'refused', summary: 'Dismissed; nothing was applied.' };
  }
  return picked.choice ? applyChoice(store, service, picked.choice) : undefined;
}

/** Accepts the best candidate of the first waiting block in the active editor (ambiguity opens the Quick Pick). */
async function acceptBest(store: PendingStore, service: ApplyService, preview: PreviewContentProvider): Promise<ApplyOutcome | undefined> {
  const uri = vscode.window.activeTextEditor?.document.uri;
  const first = (uri && store.firstUnresolved(uri)) || store.firstUnresolved();
  if (!first) {
    const ready = store.list().find((b) => b.plan.parts.every((p) => p.result.status === 'applied'));
    if (ready) {
      return applyChoice(store, service, { batchId: ready.id, uri: ready.plan.parts[0].uri.toString() });
    }
    void vscode.window.showInformationMessage('No SEARCH/REPLACE blocks are waiting for a choice.');
    return undefined;
  }
  if (first.outcome.status === 'ambiguous') {
    return pickCandidate(store, service, preview, { batchId: first.batch.id, blockIndex: first.outcome.index });
  }
  const best = first.outcome.candidates[0];
  return applyChoice(store, service, {
    batchId: first.batch.id,
    uri: first.part.uri.toString(),
    blockIndex: first.outcome.index,
    startLine: best.startLine,
    endLine: best.endLine,
    version: first.part.version,
    text: best.text,
  });
}

/** "$(diff) 2 blocks pending" while choices are open; clicking lists them. */
function registerStatusItem(context: vscode.ExtensionContext, store: PendingStore): void {
  const item = vscode.window.createStatusBarItem('resilientApply.pending', vscode.StatusBarAlignment.Left, 100);
  item.name = 'Resilient Apply: pending blocks';
  item.command = Commands.chooseCandidate;
  const update = () => {
    const n = store.pendingBlockCount();
    if (n === 0) {
      item.hide();
      return;
    }
    item.text = `$(diff) ${blockWord(n)} pending`;
    item.tooltip =
      'Waiting for you to choose where each block goes: pick a candidate with its CodeLens (Apply here), or click to list them.';
    item.show();
  };
  context.subscriptions.push(item, store.onDidChange(update));
  update();
}

/** Pending-choice commands and the status bar item. */
export function registerPendingCommands(
  context: vscode.ExtensionContext,
  store: PendingStore,
  service: ApplyService,
  preview: PreviewContentProvider,
): void {
  context.subscriptions.push(
    // Pending batches exist only after a match (the engine is then loaded); the gate covers a call from
    // elsewhere, which reaches the engine when it names a batch.
    vscode.commands.registerCommand(
      Commands.applyCandidate,
      afterEngine((choice: CandidateChoice) => applyChoice(store, service, choice)),
    ),
    vscode.commands.registerCommand(Commands.dismissBatch, (batchId: string) => store.dismiss(batchId)),
    vscode.commands.registerCommand(
      Commands.chooseCandidate,
      afterEngine((filter?: { batchId?: string; blockIndex?: number }) => pickCandidate(store, service, preview, filter)),
    ),
    vscode.commands.registerCommand(
      Commands.acceptBestCandidate,
      afterEngine(() => acceptBest(store, service, preview)),
    ),
    vscode.commands.registerCommand(Commands.dismissPending, () => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      const inEditor = uri ? store.partsFor(uri).length : 0;
      const n = inEditor > 0 && uri ? store.dismissAll(uri) : store.dismissAll();
      return n;
    }),
  );
  registerStatusItem(context, store);
}
