// The one place that turns SEARCH/REPLACE blocks into edits of live documents. Paste, the clipboard
// command, CodeLens rows, Quick Pick and the chat participant / LM tool all go through here:
//   plan()   dry-runs the engine against TextDocument.getText() and remembers document.version;
//   commit() re-validates the versions (re-matching if a document changed) and applies ONE WorkspaceEdit;
//   applyBlocks() is plan + commit, handing near misses and ambiguities to the pending store.
import * as vscode from 'vscode';
import { applyBlocks as engineApply, applyBlocksAsync } from '../core/engine';
import { editBlocks, parseEdits } from '../core/edits';
import { applyEdits } from '../core/hunkPlacement';
import { BlockParseError } from '../core/parser';
import type { ApplyResult, BlockOutcome, LineRange, SearchReplaceBlock, Tier } from '../core/types';
import { choiceNeededLine } from '../core/message';
import { appliedSummary, type Feedback, rangesAfterEdits } from './feedback';
import { describeDecision, type Log } from './log';
import { engineOptions } from './settings';
import { labelFor, openTarget, resolveBlockTarget } from './targets';

/** Where the user placed a block that did not place itself, and on which document version. */
export interface BlockChoice {
  /** Line range (1-based, inclusive) in the coordinates of `version`. */
  range: LineRange;
  /** The document version `range` refers to. */
  version: number;
  /** The candidate's text when chosen (lines joined with '\n'); finds it again after a reformat. */
  text: string;
  /** A later edit overlapped the range, so `range` may no longer cover the chosen text exactly. */
  touched?: boolean;
}

/** Blocks matched against one live document. Offsets in `result` are valid only for `version`. */
export interface MatchedPart {
  uri: vscode.Uri;
  /** Workspace-relative path (or untitled name) used in messages. */
  label: string;
  document: vscode.TextDocument;
  version: number;
  /** The document text the engine saw (document.getText() at `version`). */
  text: string;
  blocks: SearchReplaceBlock[];
  /** User choices by block index (SearchReplaceBlock.index). */
  choices: Record<number, BlockChoice>;
  result: ApplyResult;
  /** Engine time in milliseconds. */
  ms: number;
}

/** Blocks for a file that does not exist yet; all have an empty SEARCH, so they can create it. */
export interface NewFilePart {
  uri: vscode.Uri;
  label: string;
  blocks: SearchReplaceBlock[];
  result: ApplyResult;
}

/** A dry run of a batch of blocks over every document they touch. Nothing has been edited. */
export interface BatchPlan {
  parts: MatchedPart[];
  newFiles: NewFilePart[];
  /** Reasons the batch cannot apply at all (missing files, read-only or non-text targets). */
  problems: string[];
  blockCount: number;
}

export type ApplyStatus = 'applied' | 'pending' | 'refused' | 'invalid';

/** What happened to a batch. `summary` is the one-line human message; `plan` the last dry run. */
export interface ApplyOutcome {
  status: ApplyStatus;
  summary: string;
  plan?: BatchPlan;
  /** Id of the pending batch when status is 'pending' and it was handed to the pending store. */
  batchId?: string;
  /** When applied: the document text before the apply, per document uri (what an undo returns to). */
  before?: Map<string, string>;
  /**
   * Set when every block that did not place itself is already applied (its REPLACE is in the file):
   * nothing applied, nothing pending, and the places to reveal.
   */
  alreadyApplied?: { uri: vscode.Uri; label: string; block: number; range: LineRange }[];
}

export interface ApplyRequestOptions {
  /** Document for blocks that name no file: the pasted-into document, the active editor, a chat target. */
  fallback?: vscode.Uri;
  /** Short tag for the log: 'paste', 'clipboard', 'codelens', 'chat', 'tool'... */
  source: string;
  /** Named files that do not exist and whose blocks have an empty SEARCH: ask (default), create, or refuse. */
  createMissing?: 'ask' | 'always' | 'never';
  /** Hand near misses / ambiguities to the pending store (CodeLens, Quick Pick). Default true. */
  keepPending?: boolean;
  /** Show error/info notifications (default true). Callers with their own UI (chat, tool) pass false. */
  notify?: boolean;
  /** Stops matching a long batch (nothing is applied then); the progress notification's Cancel does too. */
  token?: vscode.CancellationToken;
}

/** The pending store registers itself here; the service hands it batches that need a choice. */
export interface PendingSink {
  add(plan: BatchPlan, source: string): string;
}

/** Result of parsing block text: the blocks, or an error naming the block and line. */
export type ParseOutcome = { blocks: SearchReplaceBlock[]; error?: undefined } | { blocks?: undefined; error: string };

function blockWord(n: number): string {
  return `${n} block${n === 1 ? '' : 's'}`;
}

/** Candidate line text equal up to trailing whitespace (what a reformat keeps when it moves lines). */
function sameText(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .split('\n')
      .map((l) => l.replace(/\s+$/, ''))
      .join('\n');
  return norm(a) === norm(b);
}

/** Batches this long are matched with a progress notification and can be cancelled. */
export const LONG_BATCH = 200;

/** The line ranges of user choices, as the engine takes them; undefined when there are none. */
function choiceRanges(choices: Record<number, BlockChoice>): Record<number, LineRange> | undefined {
  const entries = Object.entries(choices);
  if (entries.length === 0) {
    return undefined;
  }
  return Object.fromEntries(entries.map(([index, choice]) => [Number(index), choice.range]));
}

function overlap(a: LineRange, b: LineRange): number {
  return Math.max(0, Math.min(a.endLine, b.endLine) - Math.max(a.startLine, b.startLine) + 1);
}

function linesText(range: LineRange): string {
  return range.startLine === range.endLine ? `line ${range.startLine}` : `lines ${range.startLine}-${range.endLine}`;
}

/** "Already applied at lines 4-6 of cart.ts." (one block) or one clause per block. */
export function alreadyAppliedSummary(places: readonly { label: string; block: number; range: LineRange }[]): string {
  if (places.length === 1) {
    return `Already applied at ${linesText(places[0].range)} of ${places[0].label}: the file already holds the block's REPLACE text. Nothing was changed.`;
  }
  const parts = places.map((p) => `block ${p.block} at ${linesText(p.range)} of ${p.label}`);
  return `Already applied: ${parts.join('; ')}. Nothing was changed.`;
}

/** Opens `uri` and selects and reveals `range` (1-based lines). */
async function revealLines(uri: vscode.Uri, range: LineRange): Promise<void> {
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  const last = Math.min(range.endLine - 1, editor.document.lineCount - 1);
  const selection = new vscode.Selection(range.startLine - 1, 0, last, editor.document.lineAt(last).text.length);
  editor.selection = selection;
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

export class ApplyService {
  private pendingSink: PendingSink | undefined;

  constructor(
    private readonly log: Log,
    private readonly feedback: Feedback,
  ) {}

  /** Connects the pending store (done once at activation). */
  setPendingSink(sink: PendingSink): void {
    this.pendingSink = sink;
  }

  /**
   * Parses text holding SEARCH/REPLACE blocks, a unified diff or an apply_patch patch (hunks become
   * blocks). Malformed input gives an error naming the block or hunk and the line.
   */
  parse(text: string, sourceName = 'the input'): ParseOutcome {
    try {
      const blocks = editBlocks(parseEdits(text));
      if (blocks.length === 0) {
        return { error: `No SEARCH/REPLACE blocks found in ${sourceName}.` };
      }
      return { blocks };
    } catch (error) {
      if (error instanceof BlockParseError) {
        return { error: `Nothing was applied: ${error.info.message}` };
      }
      throw error;
    }
  }

  /** Runs the engine on the document's current text with `choices`. Pure dry run; logs the decision. */
  matchDocument(
    document: vscode.TextDocument,
    label: string,
    blocks: SearchReplaceBlock[],
    choices: Record<number, BlockChoice> = {},
    source = 'match',
  ): MatchedPart {
    const text = document.getText();
    const version = document.version;
    const options = engineOptions(document, label);
    const ranges = choiceRanges(choices);
    if (ranges) {
      options.choices = ranges;
    }
    const t0 = performance.now();
    const result = applyEdits(text, blocks, options);
    return this.matched(document, version, label, text, blocks, choices, source, result, performance.now() - t0);
  }

  /**
   * matchDocument for a long batch (LONG_BATCH blocks or more): the engine yields to the event loop, a
   * notification shows how far it got and offers Cancel; a cancelled batch applies nothing. Batches of
   * patch hunks go through the hunk pre-step, which runs in one piece.
   */
  private async matchLongBatch(
    document: vscode.TextDocument,
    label: string,
    blocks: SearchReplaceBlock[],
    source: string,
    token?: vscode.CancellationToken,
  ): Promise<MatchedPart> {
    if (blocks.some((b) => b.hunk !== undefined)) {
      return this.matchDocument(document, label, blocks, {}, source);
    }
    const title = `Resilient Apply: matching ${blocks.length} blocks in ${label}`;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, cancel) => {
        const text = document.getText();
        const version = document.version;
        const options = engineOptions(document, label);
        let shown = 0;
        options.onProgress = (done, total) => {
          const percent = Math.floor((done * 100) / total);
          progress.report({ increment: percent - shown, message: `${done} of ${total}` });
          shown = percent;
        };
        options.isCancelled = () => cancel.isCancellationRequested || token?.isCancellationRequested === true;
        const t0 = performance.now();
        const result = await applyBlocksAsync(text, blocks, options);
        return this.matched(document, version, label, text, blocks, {}, source, result, performance.now() - t0);
      },
    );
  }

  private matched(
    document: vscode.TextDocument,
    version: number,
    label: string,
    text: string,
    blocks: SearchReplaceBlock[],
    choices: Record<number, BlockChoice>,
    source: string,
    result: ApplyResult,
    ms: number,
  ): MatchedPart {
    const ranges = choiceRanges(choices);
    this.log.info(
      `[${source}] ${describeDecision(label, blocks, result, ms)}${ranges ? ` choices ${JSON.stringify(ranges)}` : ''} (v${version})`,
    );
    return { uri: document.uri, label, document, version, text, blocks, choices, result, ms };
  }

  /**
   * Re-matches a part against its document's current text. Choices made on an older version are found
   * again: the same candidate text (nearest the old place), else a candidate overlapping the mapped range,
   * else dropped when the block now places itself; a choice that cannot be found is dropped and reported.
   */
  rematch(part: MatchedPart, document: vscode.TextDocument, source = 'rematch'): { part: MatchedPart; lost: number[] } {
    const fresh: Record<number, BlockChoice> = {};
    const stale: [number, BlockChoice][] = [];
    for (const [key, choice] of Object.entries(part.choices)) {
      if (choice.version === document.version && !choice.touched) {
        fresh[Number(key)] = choice;
      } else {
        stale.push([Number(key), choice]);
      }
    }
    let matched = this.matchDocument(document, part.label, part.blocks, fresh, source);
    if (stale.length === 0) {
      return { part: matched, lost: [] };
    }
    const lost: number[] = [];
    const recovered: Record<number, BlockChoice> = { ...fresh };
    for (const [index, choice] of stale) {
      const outcome = matched.result.blocks.find((b) => b.index === index);
      if (!outcome || outcome.status === 'applied' || outcome.status === 'held_back') {
        continue; // The block places itself now (e.g. a formatter made it match): no choice needed.
      }
      const mapped = choice.version === document.version ? choice.range : undefined;
      const byText = outcome.candidates
        .filter((c) => sameText(c.text, choice.text))
        .sort((a, b) => Math.abs(a.startLine - choice.range.startLine) - Math.abs(b.startLine - choice.range.startLine));
      const byPlace = mapped
        ? outcome.candidates.filter((c) => overlap(c, mapped) > 0).sort((a, b) => overlap(b, mapped) - overlap(a, mapped))
        : [];
      const found = byText[0] ?? byPlace[0];
      if (found) {
        recovered[index] = { range: { startLine: found.startLine, endLine: found.endLine }, version: document.version, text: found.text };
      } else {
        lost.push(index);
      }
    }
    matched = this.matchDocument(document, part.label, part.blocks, recovered, source);
    return { part: matched, lost };
  }

  /**
   * Dry run of a batch: resolves each block's target (the file it names, else `fallback`), opens it if
   * needed, and matches each document's blocks against its live text. Nothing is edited.
   */
  async plan(
    blocks: readonly SearchReplaceBlock[],
    fallback: vscode.Uri | undefined,
    source = 'plan',
    token?: vscode.CancellationToken,
  ): Promise<BatchPlan> {
    const groups = new Map<string, { document: vscode.TextDocument; label: string; blocks: SearchReplaceBlock[] }>();
    const missing = new Map<string, { uri?: vscode.Uri; label: string; blocks: SearchReplaceBlock[] }>();
    const problems: string[] = [];
    for (const block of blocks) {
      const target = await resolveBlockTarget(block.filePath, fallback);
      if (target.kind === 'document') {
        const key = target.document.uri.toString();
        const group = groups.get(key) ?? { document: target.document, label: target.label, blocks: [] };
        group.blocks.push(block);
        groups.set(key, group);
      } else if (target.kind === 'missing') {
        const group = missing.get(target.filePath) ?? { uri: target.uri, label: target.filePath, blocks: [] };
        group.blocks.push(block);
        missing.set(target.filePath, group);
      } else {
        problems.push(`Block ${block.index}: ${target.message}`);
      }
    }
    const parts: MatchedPart[] = [];
    for (const g of groups.values()) {
      parts.push(
        g.blocks.length >= LONG_BATCH
          ? await this.matchLongBatch(g.document, g.label, g.blocks, source, token)
          : this.matchDocument(g.document, g.label, g.blocks, {}, source),
      );
    }
    const newFiles: NewFilePart[] = [];
    for (const group of missing.values()) {
      const nonEmpty = group.blocks.filter((b) => b.search.trim() !== '');
      if (group.blocks[0].search.trim() !== '' || !group.uri) {
        const which = nonEmpty.length > 0 ? nonEmpty : group.blocks;
        problems.push(
          `Block ${which.map((b) => b.index).join(', ')}: ${group.label} does not exist in the workspace` +
            (group.uri ? ' (a block with an empty SEARCH section would create it).' : ' and there is no workspace folder to create it in.'),
        );
        continue;
      }
      const result = engineApply('', group.blocks, { fileName: group.label });
      if (result.status !== 'applied') {
        problems.push(`${group.label} does not exist and its blocks cannot create it: ${result.message}`);
        continue;
      }
      newFiles.push({ uri: group.uri, label: group.label, blocks: group.blocks, result });
    }
    return { parts, newFiles, problems, blockCount: blocks.length };
  }

  /** True when committing `plan` would apply every block (no problems, every document's batch placed). */
  isReady(plan: BatchPlan): boolean {
    return plan.problems.length === 0 && plan.parts.every((p) => p.result.status === 'applied');
  }

  /**
   * True when the plan failed only because some blocks need a choice (near miss with candidates, or
   * ambiguous), so it can wait in the pending store. Invalid blocks or misses without candidates cannot.
   */
  isChoosable(plan: BatchPlan): boolean {
    if (plan.problems.length > 0) {
      return false;
    }
    return plan.parts.every((p) =>
      p.result.blocks.every(
        (b) =>
          b.status === 'applied' ||
          b.status === 'held_back' ||
          ((b.status === 'not_found' || b.status === 'ambiguous') && b.candidates.length > 0),
      ),
    );
  }

  /** The blocks of a plan still waiting for a choice. */
  unresolved(plan: BatchPlan): { part: MatchedPart; outcome: BlockOutcome }[] {
    const out: { part: MatchedPart; outcome: BlockOutcome }[] = [];
    for (const part of plan.parts) {
      for (const outcome of part.result.blocks) {
        if (outcome.status === 'not_found' || outcome.status === 'ambiguous' || outcome.status === 'invalid') {
          out.push({ part, outcome });
        }
      }
    }
    return out;
  }

  /** The already-applied blocks when they are every block that did not place itself; else undefined. */
  alreadyApplied(plan: BatchPlan): ApplyOutcome['alreadyApplied'] {
    if (plan.problems.length > 0) {
      return undefined;
    }
    const open = this.unresolved(plan);
    if (open.length === 0 || !open.every(({ outcome }) => outcome.alreadyApplied)) {
      return undefined;
    }
    return open.map(({ part, outcome }) => ({ uri: part.uri, label: part.label, block: outcome.index, range: outcome.alreadyApplied! }));
  }

  /** Human summary of a plan that did not apply (also the status bar / notification text). */
  describeUnapplied(plan: BatchPlan): string {
    if (plan.problems.length > 0) {
      return plan.problems.join(' ');
    }
    const lines = this.unresolved(plan).map(({ part, outcome }) => choiceNeededLine(outcome, part.label) ?? '');
    const choosable = lines.filter((l) => l !== '');
    if (this.isChoosable(plan) && choosable.length > 0) {
      return choosable.join(' ');
    }
    // Not choosable: the engine's message says exactly why (it is written to be acted on).
    return plan.parts
      .filter((p) => p.result.status !== 'applied')
      .map((p) => p.result.message)
      .join('\n');
  }

  /** One WorkspaceEdit for the whole batch, from each part's edits on its matched version. */
  buildEdit(plan: BatchPlan): vscode.WorkspaceEdit {
    const edit = new vscode.WorkspaceEdit();
    const encoder = new TextEncoder();
    for (const file of plan.newFiles) {
      edit.createFile(file.uri, { contents: encoder.encode(file.result.content ?? ''), ignoreIfExists: false });
    }
    for (const part of plan.parts) {
      for (const e of part.result.edits) {
        const range = new vscode.Range(part.document.positionAt(e.start), part.document.positionAt(e.end));
        edit.replace(part.uri, range, e.newText);
      }
    }
    return edit;
  }

  /** Brings every part up to the live document: re-opens closed ones, re-matches changed ones. */
  private async refresh(plan: BatchPlan, source: string): Promise<{ plan: BatchPlan; refusal?: string }> {
    const parts: MatchedPart[] = [];
    const lostMessages: string[] = [];
    for (let part of plan.parts) {
      let document = part.document;
      if (document.isClosed) {
        const target = await openTarget(part.uri);
        if (target.kind !== 'document') {
          return { plan, refusal: target.kind === 'refused' ? target.message : `${part.label} is gone.` };
        }
        document = target.document;
        // A re-opened document is a new TextDocument whose versions start again (often at the same number):
        // no choice's range refers to it, so each choice must be found again by its text.
        const choices: Record<number, BlockChoice> = {};
        for (const [key, choice] of Object.entries(part.choices)) {
          choices[Number(key)] = { ...choice, version: -1 };
        }
        part = { ...part, choices };
      }
      if (document.version === part.version && document === part.document) {
        parts.push(part);
        continue;
      }
      const { part: matched, lost } = this.rematch(part, document, `${source}:rematch`);
      if (lost.length > 0) {
        lostMessages.push(`${part.label} changed and the place chosen for block ${lost.join(', ')} is no longer there; choose again.`);
      }
      parts.push(matched);
    }
    return { plan: { ...plan, parts }, refusal: lostMessages.length > 0 ? lostMessages.join(' ') : undefined };
  }

  /**
   * Applies a plan as ONE WorkspaceEdit. Documents that changed since the dry run are re-matched first
   * (offsets from an older version are never used); if VS Code rejects the edit because a document changed
   * in flight, re-matches and retries once, else refuses. Returns 'pending' if the re-match no longer places
   * every block.
   */
  async commit(plan: BatchPlan, source: string): Promise<ApplyOutcome> {
    let current = plan;
    for (let attempt = 0; attempt < 2; attempt++) {
      const refreshed = await this.refresh(current, source);
      current = refreshed.plan;
      if (refreshed.refusal) {
        return { status: 'refused', summary: refreshed.refusal, plan: current };
      }
      if (!this.isReady(current)) {
        return { status: this.isChoosable(current) ? 'pending' : 'refused', summary: this.describeUnapplied(current), plan: current };
      }
      // The last check is synchronous with building the edit: nothing can change the documents in between.
      if (current.parts.some((p) => p.document.isClosed || p.document.version !== p.version)) {
        continue;
      }
      const before = new Map(current.parts.map((p) => [p.uri.toString(), p.text]));
      const edit = this.buildEdit(current);
      const ok = await vscode.workspace.applyEdit(edit);
      if (ok) {
        const summary = this.reportApplied(current, source);
        return { status: 'applied', summary, plan: current, before };
      }
      this.log.warn(`[${source}] VS Code rejected the edit (a document changed in flight); re-matching (attempt ${attempt + 1})`);
      // Force a re-match even if the version looks unchanged.
      current = { ...current, parts: current.parts.map((p) => ({ ...p, version: -1 })) };
    }
    const summary = 'Nothing was applied: the document kept changing while applying. Try again.';
    this.log.warn(`[${source}] ${summary}`);
    return { status: 'refused', summary, plan: current };
  }

  /** Logs an applied batch, shows "Applied 3/3 blocks ..." in the status bar and flashes the changed lines. */
  reportApplied(plan: BatchPlan, source: string): string {
    const placements: (Tier | 'chosen' | undefined)[] = [];
    for (const part of plan.parts) {
      for (const outcome of part.result.blocks) {
        placements.push(part.choices[outcome.index] ? 'chosen' : outcome.tier);
      }
    }
    for (const file of plan.newFiles) {
      for (const outcome of file.result.blocks) {
        placements.push(outcome.tier);
      }
    }
    const labels = [...plan.parts.map((p) => p.label), ...plan.newFiles.map((f) => `${f.label} (new)`)];
    const summary = appliedSummary(placements, labels);
    this.log.info(`[${source}] ${summary}`);
    this.feedback.status(`$(check) ${summary}`);
    for (const part of plan.parts) {
      this.feedback.flashRanges(part.uri, rangesAfterEdits(part.document, part.result.edits));
    }
    return summary;
  }

  /** After an applied batch (its outcome's plan): reveals each document's changed lines and highlights them. */
  async revealApplied(plan: BatchPlan): Promise<void> {
    for (const part of plan.parts) {
      if (part.result.edits.length > 0 && !part.document.isClosed) {
        await this.feedback.reveal(part.document, rangesAfterEdits(part.document, part.result.edits));
      }
    }
  }

  /**
   * Applies blocks to the workspace: dry run, then one WorkspaceEdit if every block places itself.
   * Near misses and ambiguities go to the pending store (CodeLens, Quick Pick) unless keepPending is
   * false; problems are refused with a message. Notifications are shown unless notify is false.
   */
  async applyBlocks(blocks: readonly SearchReplaceBlock[], options: ApplyRequestOptions): Promise<ApplyOutcome> {
    const notify = options.notify ?? true;
    const plan = await this.plan(blocks, options.fallback, options.source, options.token);
    const outcome = await this.settle(plan, options);
    if (notify) {
      this.notify(outcome);
    }
    return outcome;
  }

  /** Parses `text` and applies its blocks (see applyBlocks). Malformed input: 'invalid', nothing applied. */
  async applyText(text: string, options: ApplyRequestOptions & { sourceName?: string }): Promise<ApplyOutcome> {
    const parsed = this.parse(text, options.sourceName);
    if (parsed.error !== undefined) {
      this.log.warn(`[${options.source}] ${parsed.error}`);
      const outcome: ApplyOutcome = { status: 'invalid', summary: parsed.error };
      if (options.notify ?? true) {
        this.notify(outcome);
      }
      return outcome;
    }
    return this.applyBlocks(parsed.blocks, options);
  }

  /** Decides what happens to a dry-run plan: create files, commit, keep pending, or refuse. */
  async settle(plan: BatchPlan, options: ApplyRequestOptions): Promise<ApplyOutcome> {
    if (plan.problems.length > 0) {
      const summary = `Nothing was applied. ${plan.problems.join(' ')}`;
      this.log.warn(`[${options.source}] ${summary}`);
      return { status: 'refused', summary, plan };
    }
    if (plan.newFiles.length > 0) {
      const policy = options.createMissing ?? 'ask';
      const names = plan.newFiles.map((f) => f.label).join(', ');
      let create = policy === 'always';
      if (policy === 'ask') {
        const answer = await vscode.window.showInformationMessage(
          `${names} does not exist. Create it from the block's REPLACE text?`,
          'Create',
        );
        create = answer === 'Create';
      }
      if (!create) {
        const summary = `Nothing was applied: ${names} does not exist${policy === 'never' ? ' (its blocks have an empty SEARCH section and would create it)' : ''}.`;
        return { status: 'refused', summary, plan };
      }
    }
    if (this.isReady(plan)) {
      return this.commit(plan, options.source);
    }
    const already = this.alreadyApplied(plan);
    if (already) {
      const summary = alreadyAppliedSummary(already);
      this.log.info(`[${options.source}] ${summary}`);
      return { status: 'refused', summary, plan, alreadyApplied: already };
    }
    const summary = this.describeUnapplied(plan);
    if (!this.isChoosable(plan)) {
      this.log.warn(`[${options.source}] refused: ${summary}`);
      return { status: 'refused', summary, plan };
    }
    if ((options.keepPending ?? true) && this.pendingSink) {
      const batchId = this.pendingSink.add(plan, options.source);
      return { status: 'pending', summary, plan, batchId };
    }
    return { status: 'pending', summary, plan };
  }

  /** Shows the outcome the way a user expects it: status bar for success, a notification otherwise. */
  notify(outcome: ApplyOutcome): void {
    if (outcome.status === 'pending') {
      const count = outcome.plan ? this.unresolved(outcome.plan).length : 0;
      this.feedback.status(
        `$(diff) ${blockWord(count)} waiting for a choice: pick a candidate (CodeLens above it, or the status bar item)`,
      );
      return;
    }
    if (outcome.alreadyApplied && outcome.alreadyApplied.length > 0) {
      const first = outcome.alreadyApplied[0];
      void vscode.window.showInformationMessage(outcome.summary, 'Reveal').then(async (answer) => {
        if (answer === 'Reveal') {
          await revealLines(first.uri, first.range);
        }
      });
      return;
    }
    if (outcome.status === 'refused' || outcome.status === 'invalid') {
      void vscode.window.showErrorMessage(outcome.summary);
    }
  }

  /**
   * The text a document would have after the batch's blocks for it (plus `extraChoices`), for Preview.
   * Blocks still unresolved are left out, so the preview shows what choosing would do.
   */
  previewContent(part: MatchedPart, extraChoices: Record<number, BlockChoice>): string | undefined {
    const choices = { ...part.choices, ...extraChoices };
    const placeable = part.blocks.filter((b) => {
      const outcome = part.result.blocks.find((o) => o.index === b.index);
      return choices[b.index] !== undefined || outcome?.status === 'applied' || outcome?.status === 'held_back';
    });
    const options = engineOptions(part.document, part.label);
    const ranges: Record<number, LineRange> = {};
    for (const [key, c] of Object.entries(choices)) {
      ranges[Number(key)] = c.range;
    }
    options.choices = ranges;
    const result = applyEdits(part.text, placeable, options);
    return result.status === 'applied' ? result.content : undefined;
  }
}

export { labelFor };
