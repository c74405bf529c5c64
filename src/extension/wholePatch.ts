// A whole patch in the editor: apply_patch or unified diffs that add, update, delete and move files, for
// `@apply`, the CodeLens above a patch in a document, the clipboard and the language model tool. Each
// path is resolved in the workspace and held to its boundary (symbolic links included, a move's new name
// too); every hunk is matched on the live documents before anything changes (a dry run through the
// engine); a deletion or an overwrite asks first; then ONE WorkspaceEdit carries the file operations and
// the text edits, so one undo restores every file. What the rules and words are is core's
// (core/batch/wholePatch.ts); this file reads the workspace and builds the edit.
import * as vscode from 'vscode';
import {
  byPatchPreference,
  checkPatchFile,
  claimedTwice,
  hasFileOperations,
  judgePatch,
  type ParsedEdits,
  type PatchFile,
  type PatchFileChange,
  type PatchQuestion,
  patchAppliedMessage,
  patchFiles,
  patchNotAgreed,
  type PathState,
  resolveWorkspacePath,
} from '../core';
import type { ApplyOutcome, DocumentApplier, MatchedPart } from './documentApplier';
import type { Feedback } from './feedback';
import type { Log } from './log';
import { entryAt, labelFor, openTarget } from './targets';
import { outsideWorkspaceReason, type RealPathResolver } from './workspaceBoundary';
import { applyEdit } from './review/appliedEdits';

/** Deletions and overwrites: ask (a modal), go ahead (the caller has asked already), or refuse them. */
export type ConsentPolicy = 'ask' | 'always' | 'never';

/** One file of a checked patch, with where it is and what the dry run found. */
export interface PlannedFileChange extends PatchFileChange {
  uri: vscode.Uri;
  /** move: the new location. */
  toUri?: vscode.Uri;
  /** update and move: the blocks matched against the live document. */
  part?: MatchedPart;
  /** add: the new file's text. */
  content?: string;
  /**
   * When the change lands on an existing file (overwrites): that file's live document. Its text is
   * replaced by a text edit, which one undo restores (VS Code undoes a creation or rename that
   * overwrote a file by removing it, without the old bytes).
   */
  replaced?: vscode.TextDocument;
}

/** A dry run of a whole patch: nothing has changed. */
export interface WholePatchPlan {
  edits: ParsedEdits & { format: 'unified-diff' | 'apply-patch' };
  changes: PlannedFileChange[];
  /** Reasons the patch cannot apply at all (paths outside the workspace, missing files...). */
  problems: string[];
}

export interface WholePatchOptions {
  source: string;
  consent: ConsentPolicy;
  /** Save the documents the patch edited that had no unsaved changes before (the tool: an agent runs what it changed). */
  save?: boolean;
}

/** The edits of `text` when they delete or move files (a whole patch), else undefined. */
export function wholePatchOf(edits: ParsedEdits): WholePatchPlan['edits'] | undefined {
  return edits.format !== 'search-replace' && hasFileOperations(edits) ? (edits as WholePatchPlan['edits']) : undefined;
}

const HEADERLESS_FIX = 'a patch that deletes or moves files must name every file (--- a/<path> / +++ b/<path>)';

function stateOf(kind: Awaited<ReturnType<typeof entryAt>>): PathState {
  return kind === 'nothing' ? 'nothing' : kind === 'folder' ? 'folder' : 'file';
}

function wholeText(document: vscode.TextDocument): vscode.Range {
  return new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
}

/** The documents whose text a plan edits, and where each is after the edit (a move's new name). */
function editedDocuments(plan: WholePatchPlan): { before: vscode.TextDocument; after: vscode.Uri }[] {
  const out: { before: vscode.TextDocument; after: vscode.Uri }[] = [];
  for (const change of plan.changes) {
    if (change.replaced) {
      out.push({ before: change.replaced, after: change.replaced.uri });
    } else if (change.part && change.part.result.edits.length > 0) {
      out.push({ before: change.part.document, after: change.toUri ?? change.uri });
    }
  }
  return out;
}

export class WholePatchApplier {
  constructor(
    private readonly documents: DocumentApplier,
    private readonly resolveRealPath: RealPathResolver,
    private readonly log: Log,
    private readonly feedback: Feedback,
  ) {}

  /** A workspace location for a path the patch names, or the reason it has none (outside, through a link). */
  private async locate(path: string): Promise<{ uri: vscode.Uri; label: string } | { problem: string }> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const where = resolveWorkspacePath(
      path,
      folders.map((f) => ({ path: f.uri.path, name: f.name })),
      'the patch path',
    );
    if (!where.ok) {
      return { problem: `${where.message} Nothing was changed.` };
    }
    const uri = vscode.Uri.joinPath(folders[where.folderIndex].uri, where.relativePath);
    const outside = await outsideWorkspaceReason(uri, where.relativePath, this.resolveRealPath);
    return outside ? { problem: outside } : { uri, label: labelFor(uri) };
  }

  /** The name a plain diff edits: of its two spellings, the one that exists (as `patch` picks). */
  private async existingName(file: PatchFile): Promise<string> {
    if (!file.names) {
      return file.path;
    }
    const existing: string[] = [];
    for (const name of file.names) {
      const at = await this.locate(name);
      if ('uri' in at && (await entryAt(at.uri)) !== 'nothing') {
        existing.push(name);
      }
    }
    return existing.length > 0 ? byPatchPreference(existing)[0] : file.names[1];
  }

  /** Dry run: every path resolved and checked, every hunk matched on the live documents. Changes nothing. */
  async plan(edits: WholePatchPlan['edits'], source: string): Promise<WholePatchPlan> {
    const files = patchFiles(edits.files ?? [], HEADERLESS_FIX);
    const changes: PlannedFileChange[] = [];
    const problems: string[] = [];
    const claimed = new Map<string, string>();
    const claim = (uri: vscode.Uri, label: string, what: string) => {
      const previous = claimed.get(uri.toString());
      if (previous !== undefined) {
        problems.push(claimedTwice(label, previous, what));
      }
      claimed.set(uri.toString(), what);
    };
    for (const file of files) {
      const what = `${file.action} on line ${file.sourceLine}`;
      const at = await this.locate(await this.existingName(file));
      const to = file.to !== undefined ? await this.locate(file.to) : undefined;
      if ('problem' in at || (to && 'problem' in to)) {
        problems.push(...['problem' in at ? at.problem : '', to && 'problem' in to ? to.problem : ''].filter((p) => p !== ''));
        continue;
      }
      claim(at.uri, at.label, what);
      const change: PlannedFileChange = { action: file.action, path: at.label, uri: at.uri };
      if (to && 'uri' in to) {
        claim(to.uri, to.label, what);
        change.to = to.label;
        change.toUri = to.uri;
      }
      const state = stateOf(await entryAt(at.uri));
      const toState = change.toUri ? stateOf(await entryAt(change.toUri)) : undefined;
      const checked = checkPatchFile({ ...file, path: at.label, to: change.to }, state, toState, 'ask');
      if (checked.problem !== undefined) {
        problems.push(checked.problem);
        continue;
      }
      if (checked.overwrites) {
        change.overwrites = true;
        const target = await openTarget(change.toUri ?? change.uri);
        if (target.kind !== 'document') {
          problems.push(target.message);
          continue;
        }
        change.replaced = target.document;
      }
      if (file.action === 'add') {
        change.content = file.content ?? '';
      } else if (file.action === 'update' || file.action === 'move') {
        const opened = await openTarget(at.uri);
        if (opened.kind !== 'document') {
          problems.push(opened.message);
          continue;
        }
        change.part = this.documents.matchDocument(opened.document, at.label, file.blocks, {}, source);
        if (file.blocks.length > 0) {
          change.result = change.part.result;
        }
      }
      changes.push(change);
    }
    return { edits, changes, problems };
  }

  /** Asks before deletions and overwrites (or follows the policy); the refusal when not agreed. */
  private async consent(question: PatchQuestion | undefined, policy: ConsentPolicy): Promise<string | undefined> {
    if (question === undefined || policy === 'always') {
      return undefined;
    }
    if (policy === 'ask') {
      const answer = await vscode.window.showWarningMessage(question.title, { modal: true, detail: question.detail }, question.confirm);
      if (answer === question.confirm) {
        return undefined;
      }
    }
    return patchNotAgreed(question);
  }

  /** The ONE WorkspaceEdit for a plan: file operations and text edits in patch order. */
  buildEdit(plan: WholePatchPlan): vscode.WorkspaceEdit {
    const edit = new vscode.WorkspaceEdit();
    const encoder = new TextEncoder();
    for (const change of plan.changes) {
      switch (change.action) {
        case 'add':
          if (change.replaced) {
            edit.replace(change.uri, wholeText(change.replaced), change.content ?? '');
          } else {
            edit.createFile(change.uri, { contents: encoder.encode(change.content ?? '') });
          }
          break;
        case 'delete':
          edit.deleteFile(change.uri);
          break;
        case 'update':
        case 'move': {
          const part = change.part!;
          if (change.action === 'move' && change.replaced) {
            // Onto an existing file: its text becomes the moved file's (edited) text, and the old name goes.
            edit.replace(change.toUri!, wholeText(change.replaced), part.result.content ?? part.text);
            edit.deleteFile(change.uri);
            break;
          }
          // A move renames first, then edits the text at its new name (same text, so the same positions).
          if (change.action === 'move') {
            edit.renameFile(change.uri, change.toUri!);
          }
          const at = change.action === 'move' ? change.toUri! : change.uri;
          for (const e of part.result.edits) {
            edit.replace(at, new vscode.Range(part.document.positionAt(e.start), part.document.positionAt(e.end)), e.newText);
          }
          break;
        }
      }
    }
    return edit;
  }

  /** Dry run, consent, then one WorkspaceEdit; every file or none. */
  async apply(edits: WholePatchPlan['edits'], options: WholePatchOptions): Promise<ApplyOutcome> {
    let plan = await this.plan(edits, options.source);
    let verdict = judgePatch(edits.format, plan.changes, plan.problems);
    if (verdict.kind === 'refused') {
      this.log.warn(`[${options.source}] whole patch refused: ${verdict.message}`);
      return { status: verdict.status === 'invalid' ? 'invalid' : 'refused', summary: verdict.message };
    }
    const refusal = await this.consent(verdict.question, options.consent);
    if (refusal !== undefined) {
      this.log.info(`[${options.source}] ${refusal}`);
      return { status: 'refused', summary: refusal };
    }
    // The documents may have changed while the question was open: offsets come only from their current text.
    // (A replaced file's whole text is read when the edit is built, so it is never stale.)
    if (plan.changes.some((c) => c.part && (c.part.document.isClosed || c.part.document.version !== c.part.version))) {
      const asked = verdict.question?.title;
      plan = await this.plan(edits, `${options.source}:rematch`);
      verdict = judgePatch(edits.format, plan.changes, plan.problems);
      if (verdict.kind === 'refused') {
        return { status: 'refused', summary: verdict.message };
      }
      if (verdict.question?.title !== asked) {
        return { status: 'refused', summary: 'Nothing was changed: the files changed while you were asked; apply the patch again.' };
      }
    }
    const dirtyBefore = new Set(
      editedDocuments(plan)
        .filter((d) => d.before.isDirty)
        .map((d) => d.after.toString()),
    );
    const ok = await applyEdit(this.buildEdit(plan));
    if (!ok) {
      const summary = 'Nothing was changed: VS Code refused the edit (a file changed or could not be written meanwhile). Try again.';
      this.log.warn(`[${options.source}] ${summary}`);
      return { status: 'refused', summary };
    }
    const summary = patchAppliedMessage([edits.format], plan.changes);
    this.log.info(`[${options.source}] ${summary}`);
    this.feedback.status(`$(check) ${summary.split('\n')[0]}`);
    if (options.save) {
      return { status: 'applied', summary: await this.saveEdited(plan, dirtyBefore, summary) };
    }
    return { status: 'applied', summary };
  }

  /** Saves the documents the patch edited that had no unsaved changes of the user's before. */
  private async saveEdited(plan: WholePatchPlan, dirtyBefore: Set<string>, summary: string): Promise<string> {
    const failures: string[] = [];
    for (const { after } of editedDocuments(plan)) {
      if (dirtyBefore.has(after.toString())) {
        continue;
      }
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === after.toString());
      if (document?.isDirty && !(await document.save())) {
        failures.push(labelFor(document.uri));
      }
    }
    return failures.length > 0 ? `${summary}\n(The edits are in the editor but saving failed for ${failures.join(', ')}.)` : summary;
  }
}
