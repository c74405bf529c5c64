// Soak test of the editor path in the real extension host: a seeded random sequence of applies (exact and
// indentation-drifted), near misses, choosing stale candidates, typing, formatter runs, undo/redo,
// closing and reopening documents and dismissing, over several files at once. After every step:
//   - every document equals a model of what it should hold (nothing outside an edit changed);
//   - one undo reverts exactly one step, one redo brings it back;
//   - a pending choice applies only where the lines still hold the chosen text, else nothing changes;
//   - the step finishes within a generous bound (the extension host stays responsive).
// RESILIENT_APPLY_SOAK_STEPS (default 150 in `npm test`; `npm run soak` runs 600) and
// RESILIENT_APPLY_SOAK_SEED choose the run; a failure names the seed and the step to replay it.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { applyBlocks } from '../../src/core/engine';
import type { LineRange, SearchReplaceBlock } from '../../src/core/types';
import type { ApplyOutcome } from '../../src/extension/applyService';
import type { CandidateChoice } from '../../src/extension/pendingStore';
import { api, applyText, block, cleanUp, fileUri, scratchDir } from './editorHelpers';
import { seededRandom as rng } from '../shared/seededRandom';

const STEPS = Number(process.env.RESILIENT_APPLY_SOAK_STEPS || 150);
const SEED = Number(process.env.RESILIENT_APPLY_SOAK_SEED || 20261130);
const STEP_LIMIT_MS = 20_000;
const FILES = 3;

/** A TypeScript-looking file whose lines are mostly unique (distinct names), two-space indented. */
function source(file: number, random: () => number): string {
  const out: string[] = [`// soak file ${file}`, ''];
  const functions = 6 + Math.floor(random() * 4);
  for (let f = 0; f < functions; f++) {
    out.push(`export function f${file}_${f}(a: number, b: number): number {`);
    out.push(`  let acc${f} = a * ${f + 1};`);
    const body = 2 + Math.floor(random() * 4);
    for (let k = 0; k < body; k++) {
      if (random() < 0.3) {
        out.push(`  if (acc${f} > ${k * 10}) {`, `    acc${f} -= b + ${k};`, '  }');
      } else {
        out.push(`  acc${f} += b * ${k + 2}; // step ${k}`);
      }
    }
    out.push(`  return acc${f};`, '}', '');
  }
  return out.join('\n');
}

/** The formatter the soak registers: switches the indent unit between two and four spaces. */
function reindent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => /^ +\S/.test(l)).map((l) => /^ */.exec(l)![0].length);
  const unit = indents.length === 0 ? 2 : Math.min(...indents);
  const [from, to] = unit >= 4 ? [4, 2] : [2, 4];
  return lines
    .map((l) => {
      const lead = /^ */.exec(l)![0].length;
      return lead > 0 && lead % from === 0 ? ' '.repeat((lead / from) * to) + l.slice(lead) : l;
    })
    .join('\n');
}

interface FileState {
  rel: string;
  uri: vscode.Uri;
  doc: vscode.TextDocument;
  /** What the document must hold. */
  model: string;
  /** Texts an undo/redo walks through (since the document was last opened), and where we are. */
  history: string[];
  at: number;
}

interface StaleChoice {
  file: FileState;
  choice: CandidateChoice;
  /** The candidate's lines when it was shown. */
  text: string;
  blocks: SearchReplaceBlock[];
}

function withTimeout<T>(promise: Thenable<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms / 1000}s: the extension host is unresponsive`)), ms);
  });
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer));
}

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      return false;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const trimEnds = (s: string) =>
  s
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n');

/** Whether the trimmed line sequence occurs exactly once among the document's trimmed lines. */
function uniqueTrimmed(lines: string[], at: number, len: number): boolean {
  const want = lines.slice(at, at + len).map((l) => l.trim());
  let count = 0;
  for (let s = 0; s + len <= lines.length; s++) {
    let same = true;
    for (let k = 0; k < len && same; k++) {
      same = lines[s + k].trim() === want[k];
    }
    if (same) {
      count++;
    }
  }
  return count === 1;
}

suite('editor soak: seeded random sequence of applies, choices, typing, formatting, undo/redo, reopen', () => {
  test(`${STEPS} steps (seed ${SEED}) keep every document equal to its model`, async function () {
    this.timeout(STEPS * STEP_LIMIT_MS + 60_000);
    const { pendingStore } = await api();
    const random = rng(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const dir = scratchDir();
    const files: FileState[] = [];
    for (let i = 0; i < FILES; i++) {
      const rel = `${dir}/soak-${i}.ts`;
      const uri = fileUri(rel);
      const text = source(i, random);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      const doc = await vscode.workspace.openTextDocument(uri);
      files.push({ rel, uri, doc, model: text, history: [text], at: 0 });
    }
    // A real formatting provider, run through VS Code's own Format Document command.
    const formatter = vscode.languages.registerDocumentFormattingEditProvider(
      { language: 'typescript', pattern: new vscode.RelativePattern(vscode.workspace.workspaceFolders![0], `${dir}/soak-*.ts`) },
      {
        provideDocumentFormattingEdits(document) {
          const text = document.getText();
          return [vscode.TextEdit.replace(new vscode.Range(document.positionAt(0), document.positionAt(text.length)), reindent(text))];
        },
      },
    );
    const stale: StaleChoice[] = [];
    const counts: Record<string, number> = {};
    let step = 0;

    const record = (file: FileState, text: string) => {
      file.history = file.history.slice(0, file.at + 1);
      file.history.push(text);
      file.at = file.history.length - 1;
      file.model = text;
    };
    const show = (file: FileState) => vscode.window.showTextDocument(file.doc, { preview: false });
    const where = (what: string) => `seed ${SEED}, step ${step} (${what})`;

    /** A unique run of 1-3 non-blank lines: [start, length], or undefined. */
    const region = (lines: string[]): [number, number] | undefined => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const len = 1 + Math.floor(random() * 3);
        const at = Math.floor(random() * Math.max(1, lines.length - len));
        const slice = lines.slice(at, at + len);
        if (slice.length === len && slice.every((l) => l.trim() !== '' && l.trim() !== '}') && uniqueTrimmed(lines, at, len)) {
          return [at, len];
        }
      }
      return undefined;
    };

    /**
     * Marks the last line of a region with a comment through a block: quoted as the file has it
     * ('exact'), or with the region's common indentation stripped ('drift': the tier must restore it).
     */
    const applyMarked = async (file: FileState, kind: 'exact' | 'drift'): Promise<void> => {
      const lines = file.model.split('\n');
      const r = region(lines);
      if (!r) {
        return;
      }
      const [at, len] = r;
      const search = lines.slice(at, at + len);
      const common = kind === 'drift' ? Math.min(...search.map((l) => /^ */.exec(l)![0].length)) : 0;
      if (kind === 'drift' && common === 0) {
        return;
      }
      const replace = [...search];
      replace[len - 1] += ` // ${kind[0]}${step}`;
      const quote = (l: string) => l.slice(common);
      const outcome = await applyText(block(search.map(quote).join('\n'), replace.map(quote).join('\n')), file.uri);
      assert.equal(outcome.status, 'applied', `${where(kind)}: ${outcome.summary}`);
      record(file, [...lines.slice(0, at), ...replace, ...lines.slice(at + len)].join('\n'));
    };

    const actions: Record<string, (file: FileState) => Promise<void>> = {
      exact: (file) => applyMarked(file, 'exact'),
      drift: (file) => applyMarked(file, 'drift'),
      async miss(file) {
        const lines = file.model.split('\n');
        const r = region(lines);
        if (!r) {
          return;
        }
        const [at, len] = r;
        const search = lines.slice(at, at + len);
        // The model misremembers a name: acc3 -> accu3 (a near miss, never applied on its own).
        const k = search.findIndex((l) => /acc\d/.test(l));
        if (k < 0) {
          return;
        }
        const wrong = [...search];
        wrong[k] = wrong[k].replace(/acc(\d)/, 'accu$1');
        const replace = [...search];
        replace[len - 1] += ` // m${step}`;
        const blocks = [{ index: 1, search: wrong.join('\n'), replace: replace.join('\n'), sourceLine: 1 }];
        const outcome = await applyText(block(wrong.join('\n'), replace.join('\n')), file.uri);
        assert.equal(outcome.status, 'pending', `${where('miss')}: ${outcome.summary}`);
        const batch = outcome.batchId === undefined ? undefined : pendingStore.get(outcome.batchId);
        assert.ok(batch, where('miss: the batch is not pending'));
        const part = batch.plan.parts[0];
        const missed = part.result.blocks[0];
        const candidate = missed.candidates[0];
        if (!candidate) {
          return;
        }
        stale.push({
          file,
          text: candidate.text,
          blocks,
          choice: {
            batchId: batch.id,
            uri: file.uri.toString(),
            blockIndex: missed.index,
            startLine: candidate.startLine,
            endLine: candidate.endLine,
            version: part.version,
            text: candidate.text,
          },
        });
      },
      async choose(file) {
        const mine = stale.filter((s) => s.file === file);
        if (mine.length === 0) {
          return;
        }
        const chosen = pick(mine);
        stale.splice(stale.indexOf(chosen), 1);
        const before = file.doc.getText();
        const outcome = await vscode.commands.executeCommand<ApplyOutcome>('resilientApply.applyCandidate', chosen.choice);
        const after = file.doc.getText();
        if (outcome?.status !== 'applied') {
          assert.equal(after, before, `${where('choose')}: refused (${outcome?.summary}) but the document changed`);
          return;
        }
        const part = outcome.plan?.parts.find((p) => p.uri.toString() === file.uri.toString());
        assert.ok(part, where('choose: no part for the file'));
        assert.equal(part.text, before, `${where('choose')}: matched against another text than the document held`);
        const placed = part.result.blocks.find((b) => b.index === chosen.choice.blockIndex);
        assert.ok(placed?.range, where('choose: no placed range'));
        const range: LineRange = placed.range;
        const held = before
          .split('\n')
          .slice(range.startLine - 1, range.endLine)
          .join('\n');
        if (placed.tier === 'fuzzy') {
          // Placed by the choice itself: only onto lines that still hold the chosen text.
          assert.equal(
            trimEnds(held),
            trimEnds(chosen.text),
            `${where('choose')}: applied at lines ${range.startLine}-${range.endLine}, which no longer hold the chosen text`,
          );
        }
        const expected = applyBlocks(before, chosen.blocks, { choices: { [chosen.choice.blockIndex!]: range } });
        assert.equal(after, expected.content, `${where('choose')}: the document is not the engine's result for that choice`);
        record(file, after);
      },
      async type(file) {
        const editor = await show(file);
        const lines = file.model.split('\n');
        const line = Math.floor(random() * lines.length);
        const text = `// typed ${step}\n`;
        const ok = await editor.edit((b) => b.insert(new vscode.Position(line, 0), text), { undoStopBefore: true, undoStopAfter: true });
        assert.ok(ok, where('type: the edit was refused'));
        record(file, [...lines.slice(0, line), `// typed ${step}`, ...lines.slice(line)].join('\n'));
      },
      async format(file) {
        const expected = reindent(file.model);
        // VS Code asks the registered formatting providers (ours, for these files) for their edits...
        const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider', file.uri, {
          tabSize: 2,
          insertSpaces: true,
        });
        assert.ok(edits && edits.length > 0, where('format: no formatting provider answered'));
        // ...and they land as one edit, the way format-on-save applies them.
        const edit = new vscode.WorkspaceEdit();
        edit.set(file.uri, edits);
        assert.ok(await vscode.workspace.applyEdit(edit), where('format: the edit was refused'));
        if (expected === file.model) {
          return;
        }
        assert.ok(await until(() => file.doc.getText() === expected), `${where('format')}: the formatter's result did not arrive`);
        record(file, expected);
      },
      async undo(file) {
        if (file.at === 0) {
          return;
        }
        await show(file);
        await vscode.commands.executeCommand('undo');
        file.at--;
        file.model = file.history[file.at];
        assert.ok(await until(() => file.doc.getText() === file.model), `${where('undo')}: one undo did not revert exactly one step`);
      },
      async redo(file) {
        if (file.at >= file.history.length - 1) {
          return;
        }
        await show(file);
        await vscode.commands.executeCommand('redo');
        file.at++;
        file.model = file.history[file.at];
        assert.ok(await until(() => file.doc.getText() === file.model), `${where('redo')}: one redo did not bring back exactly one step`);
      },
      async reopen(file) {
        if (file.doc.isDirty) {
          await file.doc.save();
        }
        await show(file);
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        file.doc = await vscode.workspace.openTextDocument(file.uri);
        await show(file);
        // The undo history starts again here (what VS Code keeps across a close is not ours to model).
        file.history = [file.model];
        file.at = 0;
      },
      async dismiss(file) {
        pendingStore.dismissAll(file.uri);
      },
    };
    const weighted: Array<[string, number]> = [
      ['exact', 5],
      ['drift', 3],
      ['miss', 3],
      ['choose', 4],
      ['type', 3],
      ['format', 2],
      ['undo', 4],
      ['redo', 2],
      ['reopen', 1],
      ['dismiss', 1],
    ];
    const table = weighted.flatMap(([name, w]) => Array<string>(w).fill(name));

    try {
      for (step = 1; step <= STEPS; step++) {
        const file = pick(files);
        const name = pick(table);
        counts[name] = (counts[name] ?? 0) + 1;
        await withTimeout(actions[name](file), STEP_LIMIT_MS, where(name));
        for (const f of files) {
          assert.equal(f.doc.getText(), f.model, `${where(name)}: ${f.rel} differs from its model`);
        }
      }
    } finally {
      formatter.dispose();
      console.log(
        `      soak: ${STEPS} steps, seed ${SEED}: ${Object.entries(counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      await cleanUp();
    }
  });
});
