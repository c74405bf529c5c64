// Paste: when the pasted text holds SEARCH/REPLACE blocks, offer "Apply SEARCH/REPLACE blocks" instead of
// inserting the raw markers. The edit inserts nothing at the cursor; a batch that places itself rides along
// as the paste's additionalEdit (so paste + apply is one undo step), anything needing a choice or a
// question (near miss, ambiguity, new file, malformed input) runs the apply flow right after the paste.
import * as vscode from 'vscode';
import { detectEditFormat, type EditFormat, isReady, unresolved } from '../core';
import type { ApplyService, BatchPlan } from './applyService';
import { PASTE_KIND_DEFAULT, PASTE_KIND_OFFER } from './constants';
import { whenEngineReady } from './engineGate';
import type { Log } from './log';
import { readSettings } from './settings';

/** How the paste widget names what is pasted. */
const PASTE_TITLES: Record<EditFormat, { many: string; unit: string }> = {
  'search-replace': { many: 'SEARCH/REPLACE blocks', unit: 'block' },
  'unified-diff': { many: 'unified diff', unit: 'hunk' },
  'apply-patch': { many: 'apply_patch patch', unit: 'hunk' },
};

/** Languages where pasted blocks are more likely prose to keep: there plain text stays the default. */
const PROSE_LANGUAGES = new Set(['markdown', 'plaintext', 'mdx', 'restructuredtext', 'asciidoc', 'latex']);

type FollowUp = { kind: 'applied'; plan: BatchPlan } | { kind: 'flow'; text: string } | { kind: 'error'; message: string };

/** Our paste edit, remembering what to do once VS Code applies it. */
export class BlockPasteEdit extends vscode.DocumentPasteEdit {
  constructor(
    insertText: string,
    title: string,
    readonly followUp: FollowUp,
    readonly target: vscode.Uri,
    asDefault: boolean,
  ) {
    super(insertText, title, asDefault ? BlockPasteProvider.kind : BlockPasteProvider.offerKind);
    if (!asDefault) {
      this.yieldTo = [vscode.DocumentDropOrPasteEditKind.Text];
    }
  }
}

export class BlockPasteProvider implements vscode.DocumentPasteEditProvider<BlockPasteEdit> {
  /** The kind applied by default on paste (named in the contributed editor.pasteAs.preferences). */
  static readonly kind = vscode.DocumentDropOrPasteEditKind.Empty.append(...PASTE_KIND_DEFAULT);
  /** The kind only offered in the paste widget, plain text staying the default. */
  static readonly offerKind = vscode.DocumentDropOrPasteEditKind.Empty.append(...PASTE_KIND_OFFER);

  constructor(
    private readonly service: ApplyService,
    private readonly log: Log,
  ) {}

  async provideDocumentPasteEdits(
    document: vscode.TextDocument,
    ranges: readonly vscode.Range[],
    dataTransfer: vscode.DataTransfer,
    context: vscode.DocumentPasteEditContext,
    token: vscode.CancellationToken,
  ): Promise<BlockPasteEdit[] | undefined> {
    if (context.only && !context.only.intersects(BlockPasteProvider.kind) && !context.only.intersects(BlockPasteProvider.offerKind)) {
      return undefined;
    }
    const item = dataTransfer.get('text/plain');
    if (!item) {
      return undefined;
    }
    const text = await item.asString();
    const format = token.isCancellationRequested ? undefined : detectEditFormat(text);
    if (format === undefined) {
      return undefined;
    }
    const selections = ranges.filter((r) => !r.isEmpty);
    if (ranges.length > 1 && selections.length > 0) {
      return undefined; // One insert text for several selections cannot keep each of them.
    }
    // Pasting over a selection keeps it: the blocks say what to change, not the selection.
    const insertText = selections.length === 1 ? document.getText(selections[0]) : '';
    const settings = readSettings(document.uri);
    const preferPlainText = PROSE_LANGUAGES.has(document.languageId) || !settings.pasteApplyByDefault;

    const make = (title: string, followUp: FollowUp): BlockPasteEdit[] => {
      return [new BlockPasteEdit(insertText, title, followUp, document.uri, !preferPlainText)];
    };

    const what = PASTE_TITLES[format];
    const parsed = this.service.parse(text, 'the pasted text');
    if (parsed.error !== undefined) {
      return make(`Apply ${what.many} (malformed, shows the error)`, { kind: 'error', message: parsed.error });
    }
    const n = parsed.blocks.length;
    const count = (k: number) => `${k} ${k === 1 ? what.unit : `${what.unit}s`}`;
    // A load failure is shown once and this provider offers nothing: the plain paste still happens.
    await whenEngineReady();
    const plan = await this.service.plan(parsed.blocks, document.uri, 'paste', token);
    if (token.isCancellationRequested) {
      return undefined;
    }
    const title = `Apply ${what.many} (${count(n)})`;
    if (isReady(plan) && plan.newFiles.length === 0 && !this.overlapsSelection(plan, document, selections)) {
      const edits = make(title, { kind: 'applied', plan });
      edits[0].additionalEdit = this.service.buildEdit(plan);
      return edits;
    }
    const open = unresolved(plan);
    // A refused block (an uncertain placeholder, a bad hint) offers nothing to choose: the flow says why.
    const refused = plan.problems.length > 0 || open.some(({ outcome }) => outcome.status === 'invalid');
    const suffix = refused ? 'cannot apply, shows why' : open.length > 0 ? `${open.length} to choose` : count(n);
    return make(`Apply ${what.many} (${suffix})`, { kind: 'flow', text });
  }

  private overlapsSelection(plan: BatchPlan, document: vscode.TextDocument, selections: readonly vscode.Range[]): boolean {
    const part = plan.parts.find((p) => p.uri.toString() === document.uri.toString());
    if (!part || selections.length === 0) {
      return false;
    }
    return part.result.edits.some((e) => {
      const range = new vscode.Range(document.positionAt(e.start), document.positionAt(e.end));
      return selections.some((s) => s.intersection(range) !== undefined || s.contains(range.start));
    });
  }

  /** Called by VS Code just before our edit is applied: arm the follow-up (feedback, or the apply flow). */
  resolveDocumentPasteEdit(edit: BlockPasteEdit): BlockPasteEdit {
    this.runFollowUp(edit);
    return edit;
  }

  /** What happens after the paste edit lands. Public so tests can drive it without a real paste. */
  runFollowUp(edit: BlockPasteEdit): void {
    const followUp = edit.followUp;
    if (followUp.kind === 'error') {
      this.log.warn(`[paste] ${followUp.message}`);
      setTimeout(() => void vscode.window.showErrorMessage(followUp.message), 0);
      return;
    }
    if (followUp.kind === 'flow') {
      // Let the (empty) paste land first; the flow matches the live text again anyway.
      setTimeout(
        () => void this.service.applyText(followUp.text, { fallback: edit.target, source: 'paste', sourceName: 'the pasted text' }),
        50,
      );
      return;
    }
    this.whenApplied(followUp.plan);
  }

  /** Flashes the changed lines and shows the status message once the paste (with our additionalEdit) lands. */
  private whenApplied(plan: BatchPlan): void {
    const first = plan.parts[0];
    if (!first) {
      return;
    }
    const expected = first.result.content;
    const listener = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.toString() !== first.uri.toString() || e.document.getText() !== expected) {
        return;
      }
      done();
      this.service.reportApplied(plan, 'paste');
    });
    const timer = setTimeout(() => done(), 10_000);
    const done = () => {
      clearTimeout(timer);
      listener.dispose();
    };
  }
}

/** Registers the paste provider for every document; it only answers when the pasted text holds blocks. */
export function registerPasteProvider(context: vscode.ExtensionContext, service: ApplyService, log: Log): BlockPasteProvider {
  const provider = new BlockPasteProvider(service, log);
  context.subscriptions.push(
    vscode.languages.registerDocumentPasteEditProvider('*', provider, {
      providedPasteEditKinds: [BlockPasteProvider.kind, BlockPasteProvider.offerKind],
      pasteMimeTypes: ['text/plain'],
    }),
  );
  return provider;
}
