// The hovers of pending batches: on a candidate's lines, how the block's SEARCH differs from them
// (candidateView.ts builds them); on the lines of a block that placed itself but waits with its batch
// for another block's choice, how it matched and, when its REPLACE had placeholders, which file lines
// each kept (issue 19), in the words of the message (elisionNote).
import * as vscode from 'vscode';
import { elisionNote, isPlaced, tierPhrase, unresolved } from '../core';
import type { PendingStore } from './pendingStore';

/** The hovers of the candidates on a line (1-based), and the lines they cover. */
export type CandidateHovers = (uri: vscode.Uri, line: number) => { hovers: vscode.MarkdownString[]; range?: vscode.Range };

export class PendingBlockHover implements vscode.HoverProvider {
  constructor(
    private readonly store: PendingStore,
    private readonly candidatesAt: CandidateHovers,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const line = position.line + 1;
    const candidates = this.candidatesAt(document.uri, line);
    if (candidates.hovers.length > 0) {
      return new vscode.Hover(candidates.hovers, candidates.range);
    }
    for (const { batch, part } of this.store.partsFor(document.uri)) {
      for (const outcome of part.result.blocks) {
        const range = outcome.range;
        if (!isPlaced(outcome) || !range || line < range.startLine || line > range.endLine) {
          continue;
        }
        const waitingFor = [...new Set(unresolved(batch.plan).map((u) => u.outcome.index))].filter((i) => i !== outcome.index);
        const how = outcome.tier ? ` ${tierPhrase(outcome.tier)}` : '';
        const md = new vscode.MarkdownString();
        md.appendMarkdown(`**Resilient Apply** · block ${outcome.index} matched${how} · lines ${range.startLine}-${range.endLine}`);
        if (waitingFor.length > 0) {
          md.appendMarkdown(` · waits for block ${waitingFor.join(', ')}`);
        }
        md.appendMarkdown('\n\n');
        for (const elision of outcome.elisions ?? []) {
          // The note as the message words it; its placeholder is already a code span.
          md.appendMarkdown(`- ${elisionNote(elision)}\n`);
        }
        return new vscode.Hover(md, new vscode.Range(range.startLine - 1, 0, range.endLine - 1, 0));
      }
    }
    return undefined;
  }
}
