// How pending choices look in the target document: a CodeLens row above each candidate
// ("Apply here · 92% · lines 142-148 | Preview | Dismiss", best first), theme-coloured highlights on the
// candidate lines, and a hover showing how the block's SEARCH differs from them (built when hovered, not
// with the highlights: a near miss shows its lenses sooner without a line diff per candidate up front).
import * as vscode from 'vscode';
import {
  type BlockOutcome,
  type Candidate,
  describeDifferences,
  formatPercent,
  isPlaced,
  isReady,
  type SearchReplaceBlock,
  type Tier,
  tierInfo,
  tierPhrase,
  unresolved,
} from '../core';
import type { MatchedPart } from './applyService';
import { Colors, Commands } from './constants';
import { LazyDecorationType } from './lazyDecoration';
import { PendingBlockHover } from './pendingHover';
import type { CandidateChoice, PendingBatch, PendingStore } from './pendingStore';

/** One row of choices, in the order CodeLens shows them (best first for near misses, file order for ambiguity). */
export interface CandidateRow {
  batch: PendingBatch;
  part: MatchedPart;
  outcome: BlockOutcome;
  candidate: Candidate;
  /** 0-based rank among the block's candidates. */
  rank: number;
  choice: CandidateChoice;
  applyTitle: string;
}

/** Rows for every candidate of every block waiting for a choice in `uri`. */
export function candidateRows(store: PendingStore, uri: vscode.Uri): CandidateRow[] {
  const rows: CandidateRow[] = [];
  for (const { batch, part } of store.partsFor(uri)) {
    const waiting = part.result.blocks.filter((b) => b.status === 'not_found' || b.status === 'ambiguous');
    for (const outcome of waiting) {
      const prefix = waiting.length > 1 || store.list().length > 1 ? `Block ${outcome.index}: ` : '';
      outcome.candidates.forEach((candidate, rank) => {
        const applyTitle =
          outcome.status === 'ambiguous'
            ? `$(check) ${prefix}Apply here (${rank + 1} of ${outcome.candidates.length})`
            : `$(check) ${prefix}Apply here · ${formatPercent(candidate.score)} · lines ${candidate.startLine}-${candidate.endLine}`;
        rows.push({
          batch,
          part,
          outcome,
          candidate,
          rank,
          applyTitle,
          choice: {
            batchId: batch.id,
            uri: part.uri.toString(),
            blockIndex: outcome.index,
            startLine: candidate.startLine,
            endLine: candidate.endLine,
            version: part.version,
            text: candidate.text,
          },
        });
      });
    }
  }
  return rows;
}

function blockOf(part: MatchedPart, index: number): SearchReplaceBlock | undefined {
  return part.blocks.find((b) => b.index === index);
}

function commandLink(command: string, args: unknown): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify([args]))}`;
}

/** Hover for a candidate: score, place, notes, and a diff of SEARCH against the candidate's lines. */
export function candidateHover(row: CandidateRow): vscode.MarkdownString {
  const { part, outcome, candidate } = row;
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [Commands.applyCandidate, Commands.previewCandidate, Commands.dismissBatch] };
  const head =
    outcome.status === 'ambiguous'
      ? `**Resilient Apply** · block ${outcome.index} matches here (${row.rank + 1} of ${outcome.candidates.length}${outcome.tier && tierInfo(outcome.tier).kind !== 'exact' ? `, ${tierPhrase(outcome.tier)}` : ''}) · lines ${candidate.startLine}-${candidate.endLine}`
      : `**Resilient Apply** · block ${outcome.index} · ${formatPercent(candidate.score)} similar · lines ${candidate.startLine}-${candidate.endLine}`;
  md.appendMarkdown(head + '\n\n');
  if (candidate.note) {
    md.appendMarkdown(`_${candidate.note}_\n\n`);
  }
  for (const note of outcome.notes) {
    md.appendMarkdown(`_${note}_\n\n`);
  }
  const block = blockOf(part, outcome.index);
  if (block) {
    // The same lines the LLM-facing message shows under this candidate. No engine gate (engineGate.ts):
    // a candidate exists only after a match, so the engine is loaded.
    const differences = describeDifferences(block.search, candidate);
    if (differences.length === 0) {
      md.appendMarkdown('SEARCH is the same as these lines (up to indentation and spacing).\n\n');
    } else {
      md.appendMarkdown('How SEARCH differs from these lines:\n');
      md.appendCodeblock(differences.join('\n'), 'diff');
    }
  }
  md.appendMarkdown(
    `\n[Apply here](${commandLink(Commands.applyCandidate, row.choice)}) · [Preview](${commandLink(Commands.previewCandidate, row.choice)}) · [Dismiss](${commandLink(Commands.dismissBatch, row.batch.id)})`,
  );
  return md;
}

class CandidateLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly store: PendingStore) {
    this.subscription = store.onDidChange(() => this.changed.fire());
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    // Best first: VS Code keeps the order of lenses that share a line.
    const rows = candidateRows(this.store, document.uri).sort((a, b) => a.rank - b.rank);
    for (const row of rows) {
      const line = Math.min(row.candidate.startLine - 1, document.lineCount - 1);
      const range = new vscode.Range(line, 0, line, 0);
      lenses.push(
        new vscode.CodeLens(range, {
          title: row.applyTitle,
          command: Commands.applyCandidate,
          arguments: [row.choice],
          tooltip: "Put the block's REPLACE text here, in this file's indentation, quotes and line endings",
        }),
        new vscode.CodeLens(range, {
          title: '$(diff) Preview',
          command: Commands.previewCandidate,
          arguments: [row.choice],
          tooltip: 'Show the document with the block applied here',
        }),
        new vscode.CodeLens(range, {
          title: '$(close) Dismiss',
          command: Commands.dismissBatch,
          arguments: [row.batch.id],
          tooltip: 'Drop these blocks; nothing is applied',
        }),
      );
    }
    for (const { batch, part } of this.store.partsFor(document.uri)) {
      if (part.result.status === 'applied' && isReady(batch.plan)) {
        // Every block places itself now (e.g. after a reformat): offer the batch as a unique match.
        const first = part.result.blocks.find((b) => b.range);
        const line = first?.range ? first.range.startLine - 1 : 0;
        const range = new vscode.Range(line, 0, line, 0);
        const n = batch.plan.blockCount;
        lenses.push(
          new vscode.CodeLens(range, {
            title: `$(check) Apply ${n === 1 ? 'block' : `${n} blocks`} (${describePlacement(part)})`,
            command: Commands.applyCandidate,
            arguments: [{ batchId: batch.id, uri: part.uri.toString() } satisfies CandidateChoice],
          }),
          new vscode.CodeLens(range, { title: '$(close) Dismiss', command: Commands.dismissBatch, arguments: [batch.id] }),
        );
        continue;
      }
      for (const outcome of part.result.blocks) {
        if (isPlaced(outcome) && outcome.range) {
          const waitingFor = [...new Set(unresolved(batch.plan).map((u) => u.outcome.index))].filter((i) => i !== outcome.index);
          const line = outcome.range.startLine - 1;
          lenses.push(
            new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
              title: `$(pass) Block ${outcome.index} matched ${outcome.tier ? tierPhrase(outcome.tier) : ''} · waits for block ${waitingFor.join(', ')}`,
              command: '',
            }),
          );
        }
      }
    }
    return lenses;
  }
}

function describePlacement(part: MatchedPart): string {
  const tiers = new Set(part.result.blocks.map((b) => (part.choices[b.index] ? 'chosen' : (b.tier ?? 'exact'))));
  if (tiers.size === 1 && tiers.has('exact')) {
    return 'now matches exactly';
  }
  return `now matches: ${[...tiers].map((t) => (t === 'chosen' ? 'at your choice' : tierPhrase(t as Tier))).join(', ')}`;
}

/** The hovers of the candidates whose lines hold `line` (1-based), best first, and the first one's lines. */
function candidateHoversAt(store: PendingStore, uri: vscode.Uri, line: number): { hovers: vscode.MarkdownString[]; range?: vscode.Range } {
  const rows = candidateRows(store, uri)
    .filter((row) => row.candidate.startLine <= line && line <= row.candidate.endLine)
    .sort((a, b) => a.rank - b.rank);
  const first = rows[0]?.candidate;
  return {
    hovers: rows.map(candidateHover),
    range: first && new vscode.Range(first.startLine - 1, 0, first.endLine - 1, 0),
  };
}

/** Highlights candidate lines (best one stronger) and matched-but-waiting blocks; their hovers are PendingBlockHover's. */
class CandidateDecorations implements vscode.Disposable {
  private readonly candidate = new LazyDecorationType(() => ({
    backgroundColor: new vscode.ThemeColor(Colors.candidateBackground),
    border: '1px dashed',
    borderColor: new vscode.ThemeColor(Colors.candidateBorder),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor(Colors.overviewRuler),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  }));
  private readonly best = new LazyDecorationType(() => ({
    backgroundColor: new vscode.ThemeColor(Colors.bestCandidateBackground),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor(Colors.overviewRuler),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  }));
  private readonly ready = new LazyDecorationType(() => ({
    backgroundColor: new vscode.ThemeColor(Colors.readyBackground),
    isWholeLine: true,
  }));
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly store: PendingStore) {
    this.disposables.push(
      store.onDidChange(() => this.update()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.update()),
    );
  }

  update(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      // Plain ranges (hovers are PendingBlockHover's): the workbench gets them as numbers, not as objects.
      const best: vscode.Range[] = [];
      const others: vscode.Range[] = [];
      const ready: vscode.Range[] = [];
      for (const row of candidateRows(this.store, editor.document.uri)) {
        const range = new vscode.Range(row.candidate.startLine - 1, 0, row.candidate.endLine - 1, 0);
        const target = row.outcome.status === 'not_found' && row.rank === 0 ? best : others;
        target.push(range);
      }
      for (const { part } of this.store.partsFor(editor.document.uri)) {
        for (const outcome of part.result.blocks) {
          if (isPlaced(outcome) && outcome.range) {
            ready.push(new vscode.Range(outcome.range.startLine - 1, 0, outcome.range.endLine - 1, 0));
          }
        }
      }
      this.best.set(editor, best);
      this.candidate.set(editor, others);
      this.ready.set(editor, ready);
    }
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
    this.candidate.dispose();
    this.best.dispose();
    this.ready.dispose();
  }
}

/** CodeLens rows and highlights for pending candidates in every document, and hovers on blocks that wait with them. */
export function registerCandidateView(context: vscode.ExtensionContext, store: PendingStore): void {
  const lenses = new CandidateLensProvider(store);
  context.subscriptions.push(
    lenses,
    vscode.languages.registerCodeLensProvider('*', lenses),
    new CandidateDecorations(store),
    vscode.languages.registerHoverProvider('*', new PendingBlockHover(store, (uri, line) => candidateHoversAt(store, uri, line))),
  );
}
