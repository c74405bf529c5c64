// The "Resilient Apply" log: one line per decision (tier, scores, timings) so a surprising apply can be
// explained after the fact. Users raise the level with "Developer: Set Log Level".
import * as vscode from 'vscode';
import { type ApplyResult, formatScore, type SearchReplaceBlock } from '../core';
import { Commands, OUTPUT_CHANNEL_NAME } from './constants';

export type Log = vscode.LogOutputChannel;

/** Creates the log channel and the "Show Log" command. */
export function registerLog(context: vscode.ExtensionContext): Log {
  const log = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand(Commands.showLog, () => log.show(true)),
  );
  return log;
}

/** One line per block: "block 2: applied via indentation at lines 10-14" / "not_found, best 0.92 at 40-46". */
export function describeDecision(label: string, blocks: readonly SearchReplaceBlock[], result: ApplyResult, ms: number): string {
  const parts = result.blocks.map((outcome) => {
    const where = outcome.range ? ` at lines ${outcome.range.startLine}-${outcome.range.endLine}` : '';
    const tier = outcome.tier ? ` via ${outcome.tier}` : '';
    const score = outcome.score !== undefined && outcome.score < 1 ? ` (${formatScore(outcome.score)})` : '';
    let extra = '';
    if (outcome.status !== 'applied' && outcome.candidates.length > 0) {
      const shown = outcome.candidates
        .slice(0, 5)
        .map((c) => `${formatScore(c.score)}@${c.startLine}-${c.endLine}`)
        .join(', ');
      extra = ` candidates [${shown}]`;
    }
    const truncated = outcome.truncated ? ' (fuzzy scan truncated)' : '';
    return `block ${outcome.index}: ${outcome.status}${tier}${where}${score}${extra}${truncated}`;
  });
  return `${label}: ${result.status} (${blocks.length} block${blocks.length === 1 ? '' : 's'}, ${ms.toFixed(1)} ms) ${parts.join('; ')}`;
}
