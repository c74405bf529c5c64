// A whole chat answer in the editor (issue 28): code blocks naming their files, mixed with SEARCH/REPLACE
// blocks and diff hunks, for `@apply` ("Apply all to N files") and the language model tool (`{patch}`
// without filePath). Core says which changes go to which file and runs each file's changes in the
// answer's order (core/batch/wholePatch.ts); this file finds the files in the workspace, dry-runs every
// file on its live document, and applies ONE WorkspaceEdit (files created by it included), so one undo
// step per document restores it. All files or none.
import * as vscode from 'vscode';
import {
  type AnswerFormat,
  answerFormats,
  answerTargets,
  type CodeFile,
  type CodeFileResult,
  type FileStep,
  findCodeBlocks,
  parseAnswer,
  patchAppliedMessage,
  patchRefusedMessage,
  resolveWorkspacePath,
  unnamedCodeBlockMessage,
} from '../../core';
import type { ApplyOutcome } from '../applyService';
import type { Feedback } from '../feedback';
import type { Log } from '../log';
import { applyEdit } from '../review/appliedEdits';
import { entryAt, labelFor, openTarget, resolveBlockTarget } from '../targets';
import { outsideWorkspaceReason, type RealPathResolver } from '../workspaceBoundary';
import type { SnippetApplier } from './snippetApplier';

/** Where a path of the answer is: a workspace location, or why it has none. */
export type AnswerLocation = { uri: vscode.Uri; label: string } | { problem: string };

/** How paths are found: `strict` (the tool: workspace-relative only), `chat` (also a file open or found by its name, as @apply's blocks). */
export type AnswerPathMode = 'strict' | 'chat';

/** One file of a dry-run answer. */
export interface AnswerFilePlan {
  uri: vscode.Uri;
  label: string;
  /** The live document, when the file exists. */
  document?: vscode.TextDocument;
  version?: number;
  file: CodeFile;
  result: CodeFileResult;
}

/** A dry run of a whole answer: nothing has changed. */
export interface AnswerPlan {
  formats: AnswerFormat[];
  files: AnswerFilePlan[];
  /** Reasons the answer cannot apply at all (a path outside the workspace, a code block naming no file...). */
  problems: string[];
}

/** True when `text` is an answer with code blocks that name files (the answer path, not the blocks' or patch's). */
export function isCodeBlockAnswer(text: string): boolean {
  // findCodeBlocks, not parseAnswer: this is asked before the engine (which holds the answer parser) is loaded.
  return answerPaths(text).length > 0;
}

/** The files an answer's code blocks name, as written, each once. */
export function answerPaths(text: string): string[] {
  return [...new Set(findCodeBlocks(text).flatMap((b) => (b.filePath === undefined ? [] : [b.filePath])))];
}

function firstLine(step: FileStep): number {
  return step.kind === 'code' ? step.block.fenceLine : step.sourceLine;
}

export class AnswerApplier {
  constructor(
    private readonly applier: SnippetApplier,
    private readonly resolveRealPath: RealPathResolver,
    private readonly log: Log,
    private readonly feedback: Feedback,
  ) {}

  /** A path of the answer in the workspace, held to its boundary (symbolic links included). */
  private async locate(path: string, mode: AnswerPathMode, fallback: vscode.Uri | undefined): Promise<AnswerLocation> {
    if (mode === 'chat') {
      const target = await resolveBlockTarget(path, fallback);
      if (target.kind === 'document') {
        return { uri: target.document.uri, label: target.label };
      }
    }
    const folders = vscode.workspace.workspaceFolders ?? [];
    const where = resolveWorkspacePath(
      path,
      folders.map((f) => ({ path: f.uri.path, name: f.name })),
      'the path',
    );
    if (!where.ok) {
      return { problem: `${where.message} Nothing was changed.` };
    }
    const uri = vscode.Uri.joinPath(folders[where.folderIndex].uri, where.relativePath);
    const outside = await outsideWorkspaceReason(uri, where.relativePath, this.resolveRealPath);
    return outside ? { problem: outside } : { uri, label: labelFor(uri) };
  }

  /**
   * Dry run: every file found and every change run on its live document. A code block naming no file
   * goes to `fallback` (the active editor, as @apply's code blocks), or is refused without one.
   */
  async plan(text: string, mode: AnswerPathMode, fallback: vscode.Uri | undefined, source: string): Promise<AnswerPlan> {
    let parsed;
    try {
      parsed = parseAnswer(text);
    } catch (error) {
      return { formats: [], files: [], problems: [error instanceof Error ? error.message : String(error)] };
    }
    if (!parsed) {
      return { formats: [], files: [], problems: ['The text holds no edits or code blocks; nothing was changed.'] };
    }
    const split = answerTargets(parsed);
    const problems = [...split.problems];
    const byUri = new Map<string, { uri: vscode.Uri; label: string; file: CodeFile }>();
    const add = (at: { uri: vscode.Uri; label: string }, file: CodeFile) => {
      const known = byUri.get(at.uri.toString());
      if (known) {
        known.file.steps = [...known.file.steps, ...file.steps].sort((a, b) => firstLine(a) - firstLine(b));
      } else {
        byUri.set(at.uri.toString(), { ...at, file: { ...file, steps: [...file.steps] } });
      }
    };
    for (const target of split.targets) {
      if (target.kind === 'change' && (target.change.kind !== 'update' || target.change.moveTo !== undefined || !target.change.path)) {
        const what = target.change.path ?? `the hunk on line ${target.change.sourceLine}`;
        problems.push(
          `The answer ${target.change.kind === 'update' ? 'moves or names no file for' : `${target.change.kind}s`} ${what} beside code blocks: apply that patch on its own; nothing was changed.`,
        );
        continue;
      }
      const file: CodeFile =
        target.kind === 'code'
          ? target.file
          : {
              path: target.change.path!,
              sourceLine: target.change.sourceLine,
              steps: [{ kind: 'edits', blocks: target.change.blocks, sourceLine: target.change.sourceLine }],
            };
      const at = await this.locate(file.path, mode, fallback);
      if ('problem' in at) {
        problems.push(at.problem);
      } else {
        add(at, file);
      }
    }
    for (const block of split.unnamed) {
      if (!fallback) {
        problems.push(`${unnamedCodeBlockMessage(block)}.`);
        continue;
      }
      add(
        { uri: fallback, label: labelFor(fallback) },
        { path: labelFor(fallback), sourceLine: block.fenceLine, steps: [{ kind: 'code', block }] },
      );
    }
    const files: AnswerFilePlan[] = [];
    for (const { uri, label, file } of byUri.values()) {
      const entry = await entryAt(uri);
      if (entry === 'folder' || entry === 'other') {
        problems.push(`The answer changes ${label}, which is not a file; nothing was changed.`);
        continue;
      }
      let document: vscode.TextDocument | undefined;
      if (entry !== 'nothing') {
        const opened = await openTarget(uri);
        if (opened.kind !== 'document') {
          problems.push(opened.message);
          continue;
        }
        document = opened.document;
      }
      const version = document?.version;
      const result = await this.applier.runCodeFile(document, label, { ...file, path: label }, source);
      files.push({ uri, label, document, version, file, result });
    }
    return { formats: answerFormats(parsed), files, problems };
  }

  /** The message for a plan that cannot apply, or undefined when every file's changes place. */
  refusal(plan: AnswerPlan): string | undefined {
    if (plan.problems.length > 0) {
      return plan.problems.join('\n');
    }
    if (plan.files.length === 0) {
      return 'The answer changes no file; nothing was changed.';
    }
    const failed = plan.files.filter((f) => f.result.status !== 'applied');
    return failed.length > 0
      ? patchRefusedMessage(
          plan.formats,
          failed.map((f) => f.result.message),
        )
      : undefined;
  }

  /** "updated src/a.ts", "added src/b.ts" lines, as the CLI's and the whole patch's. */
  changes(plan: AnswerPlan) {
    return plan.files.map((f) => ({
      action: f.result.created ? ('add' as const) : ('update' as const),
      path: f.label,
      result: { status: f.result.status, blocks: f.result.blocks, message: f.result.message, edits: f.result.edits },
    }));
  }

  /** Dry run on the live documents, then ONE WorkspaceEdit for every file; `save` writes the edited documents (the tool). */
  async apply(
    text: string,
    mode: AnswerPathMode,
    fallback: vscode.Uri | undefined,
    options: { source: string; save?: boolean },
  ): Promise<ApplyOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const plan = await this.plan(text, mode, fallback, options.source);
      const refusal = this.refusal(plan);
      if (refusal !== undefined) {
        this.log.warn(`[${options.source}] answer refused: ${refusal}`);
        return { status: plan.problems.length > 0 ? 'invalid' : 'refused', summary: refusal };
      }
      // Checked synchronously with building the edit: nothing can change the documents in between.
      if (plan.files.some((f) => f.document && (f.document.isClosed || f.document.version !== f.version))) {
        continue;
      }
      const edit = new vscode.WorkspaceEdit();
      const encoder = new TextEncoder();
      for (const f of plan.files) {
        if (!f.document) {
          edit.createFile(f.uri, { contents: encoder.encode(f.result.content ?? ''), ignoreIfExists: false });
          continue;
        }
        for (const e of f.result.edits) {
          edit.replace(f.uri, new vscode.Range(f.document.positionAt(e.start), f.document.positionAt(e.end)), e.newText);
        }
      }
      const dirtyBefore = new Set(plan.files.filter((f) => f.document?.isDirty).map((f) => f.uri.toString()));
      if (!(await applyEdit(edit))) {
        this.log.warn(`[${options.source}] VS Code rejected the answer's edit; matching again`);
        continue;
      }
      const summary = patchAppliedMessage(plan.formats, this.changes(plan));
      this.log.info(`[${options.source}] ${summary}`);
      this.feedback.status(`$(check) ${summary.split('\n')[0]}`);
      return { status: 'applied', summary: options.save ? await this.save(plan, dirtyBefore, summary) : summary };
    }
    return { status: 'refused', summary: 'Nothing was changed: the files kept changing while applying. Try again.' };
  }

  /** Saves the edited documents that had no unsaved changes of the user's before. */
  private async save(plan: AnswerPlan, dirtyBefore: Set<string>, summary: string): Promise<string> {
    const failures: string[] = [];
    for (const f of plan.files) {
      if (dirtyBefore.has(f.uri.toString())) {
        continue;
      }
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.uri.toString());
      if (document?.isDirty && !(await document.save())) {
        failures.push(f.label);
      }
    }
    return failures.length > 0 ? `${summary}\n(The edits are in the editor but saving failed for ${failures.join(', ')}.)` : summary;
  }
}
