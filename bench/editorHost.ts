// The extension-host half of `npm run bench:editor` (bench/editor.mjs starts the real workbench with this
// file as its extensionTestsPath and the production build of the extension loaded). On the 10,000-line
// file `big.txt` of the workspace it times, interleaved round by round:
//   floor      what any extension pays: read the clipboard, then one WorkspaceEdit at a known place
//   exact      the clipboard command with an exact block, until the edit is in the document
//   near miss  the clipboard command with a near-miss block, until VS Code's CodeLens request (what the
//              editor asks for to draw lenses) returns our "Apply here" lens
//   lens alone VS Code's CodeLens request with nothing pending: the workbench's own round trip, which the
//              near miss's figure holds (not a budget: it says how much of the near miss is ours)
//   50 changes the clipboard command with 50 one-line blocks spread over the file, until the edit is in
//              and the CodeLens request has returned: with resilientApply.review "never" (the floor of
//              the review) and on (until the 50 "Undo change n of 50" lenses are there, the marks set)
// and prints one JSON line of samples (ms) for bench/editor.mjs, which prints the table with the budgets.
import * as vscode from 'vscode';

export const RESULT_PREFIX = 'RESILIENT_APPLY_EDITOR_BENCH ';
/** A line asking bench/editor.mjs to start or stop profiling the workbench page: `<prefix>start|stop <name>`. */
export const PAGE_PROFILE_PREFIX = 'RESILIENT_APPLY_PAGE_PROFILE ';
const LINE_PREFIX = process.env.RESILIENT_APPLY_LINE_PREFIX ?? '';
const EXTENSION_ID = 'resilient-apply.resilient-apply';
const ROUNDS = Number(process.env.RESILIENT_APPLY_BENCH_ROUNDS || 25);
const BLOCK_LINES = 8;
const REVIEW_HUNKS = 50;
const PROFILE_DIR = process.env.RESILIENT_APPLY_BENCH_PROFILE || undefined;

interface Api {
  pendingStore: { dismissAll(): void };
}

function say(line: string): void {
  console.log(LINE_PREFIX + line);
}

function block(search: string[], replace: string[]): string {
  return ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE', ''].join('\n');
}

/** `BLOCK_LINES` lines from about 60% into the file that occur once, without blank lines. */
function pickLines(lines: string[]): number {
  const text = lines.join('\n');
  for (let start = Math.floor(lines.length * 0.6); start < lines.length - BLOCK_LINES; start++) {
    const chunk = lines.slice(start, start + BLOCK_LINES);
    if (chunk.some((l) => l.trim().length < 4)) {
      continue;
    }
    const needle = chunk.join('\n');
    if (text.indexOf(needle) === text.lastIndexOf(needle)) {
      return start;
    }
  }
  throw new Error('no unique block in big.txt');
}

/** `count` lines spread over the file, each long and unique in it (one-line SEARCH blocks). */
function spreadLines(lines: string[], count: number): number[] {
  const seen = new Map<string, number>();
  for (const line of lines) {
    seen.set(line, (seen.get(line) ?? 0) + 1);
  }
  const picked: number[] = [];
  const step = Math.floor(lines.length / count);
  for (let k = 0; k < count; k++) {
    let i = k * step;
    while (i < (k + 1) * step - 1 && (lines[i].trim().length < 8 || seen.get(lines[i]) !== 1)) {
      i++;
    }
    picked.push(i);
  }
  return picked;
}

/** A line with its first identifier of 4+ letters misspelt: what a model misremembers. */
function misspell(line: string): string {
  return line.replace(/[A-Za-z_]{4,}/, (word) => `${word}Misremembered`);
}

async function timeUntil(
  what: string,
  start: () => Thenable<unknown>,
  done: () => boolean | Promise<boolean>,
  started?: number[],
): Promise<number> {
  const t0 = performance.now();
  await start();
  started?.push(performance.now() - t0);
  while (!(await done())) {
    if (performance.now() - t0 > 30_000) {
      throw new Error(`${what}: nothing after 30 s`);
    }
    await new Promise((r) => setTimeout(r, 0));
  }
  return performance.now() - t0;
}

/**
 * RESILIENT_APPLY_BENCH_PROFILE=<dir> (Node extension host only): CPU profiles of each near-miss round after
 * the first, to see where that time goes: the extension host's (<dir>/near-miss-<round>.cpuprofile) and,
 * through bench/editor.mjs, the workbench page's (<dir>/page-near-miss-<round>.cpuprofile), where the
 * editor draws decorations and asks for CodeLenses. Off by default: the profilers slow what they watch.
 */
async function profiled<T>(dir: string | undefined, name: string, measure: () => Promise<T>): Promise<T> {
  if (!dir) {
    return measure();
  }
  const inspector = await import('node:inspector');
  const fs = await import('node:fs');
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  const settle = () => new Promise((r) => setTimeout(r, 300));
  say(`${PAGE_PROFILE_PREFIX}start ${name}`);
  await settle();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  try {
    return await measure();
  } finally {
    const { profile } = await post('Profiler.stop');
    say(`${PAGE_PROFILE_PREFIX}stop ${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(`${dir}/${name}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
    await settle();
  }
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension<Api>(EXTENSION_ID);
  if (!extension) {
    throw new Error(`${EXTENSION_ID} is not loaded`);
  }
  const api = await extension.activate();
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    throw new Error('no workspace folder');
  }
  const uri = vscode.Uri.joinPath(folder.uri, 'big.txt');
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  const original = document.getText();
  const lines = original.split('\n');
  const start = pickLines(lines);
  const search = lines.slice(start, start + BLOCK_LINES);
  const replace = [...search];
  replace[3] = `${replace[3]} // changed by the bench`;
  const exactBlock = block(search, replace);
  const nearSearch = [...search];
  nearSearch[1] = misspell(nearSearch[1]);
  nearSearch[5] = misspell(nearSearch[5]);
  const nearBlock = block(nearSearch, replace);
  const range = new vscode.Range(start, 0, start + BLOCK_LINES - 1, lines[start + BLOCK_LINES - 1].length);
  const changed = () => document.getText(range) !== search.join('\n') || document.lineCount !== lines.length;
  const blockRange = new vscode.Range(start, 0, start + BLOCK_LINES, 0);
  const spread = spreadLines(lines, REVIEW_HUNKS);
  const fiftyBlocks = spread.map((i, k) => block([lines[i]], [`${lines[i]} // reviewed ${k}`])).join('\n');
  const fiftyApplied = () =>
    document.lineCount === lines.length && spread.every((i, k) => document.lineAt(i).text.endsWith(` // reviewed ${k}`));
  const undoLenses = async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
    return lenses.filter((l) => l.command?.title.startsWith('Undo change')).length;
  };
  const config = vscode.workspace.getConfiguration('resilientApply');
  const restore = async () => {
    await vscode.commands.executeCommand('resilientApply.review.keepAll', uri.toString());
    if (document.getText() !== original) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), original);
      await vscode.workspace.applyEdit(edit);
      if (document.getText() !== original) {
        throw new Error('could not restore big.txt');
      }
    }
    api.pendingStore.dismissAll();
  };
  const applyHereLens = async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
    return lenses.some((l) => l.command?.title.includes('Apply here'));
  };

  let round = 0;
  const samples = {
    floor: [] as number[],
    exact: [] as number[],
    nearMiss: [] as number[],
    /** Of each near miss, the part until the command's promise resolved (the rest is the lens request). */
    nearMissCommand: [] as number[],
    /** A CodeLens request with nothing pending: what asking for lenses costs by itself. */
    lensAlone: [] as number[],
    reviewOff: [] as number[],
    reviewOn: [] as number[],
  };
  const measures: (() => Promise<void>)[] = [
    async () => {
      // Floor: the clipboard read and one WorkspaceEdit, with the place already known.
      await vscode.env.clipboard.writeText(exactBlock);
      samples.floor.push(
        await timeUntil(
          'floor',
          async () => {
            await vscode.env.clipboard.readText();
            const edit = new vscode.WorkspaceEdit();
            edit.replace(uri, range, replace.join('\n'));
            await vscode.workspace.applyEdit(edit);
          },
          changed,
        ),
      );
    },
    async () => {
      await vscode.env.clipboard.writeText(exactBlock);
      samples.exact.push(await timeUntil('exact hit', () => vscode.commands.executeCommand('resilientApply.applyFromClipboard'), changed));
      if (document.getText(blockRange) !== `${replace.join('\n')}\n`) {
        throw new Error('the exact block did not apply as expected');
      }
    },
    async () => {
      await vscode.env.clipboard.writeText(nearBlock);
      samples.nearMiss.push(
        await profiled(round > 0 ? PROFILE_DIR : undefined, `near-miss-${round}`, () =>
          timeUntil(
            'near miss',
            () => vscode.commands.executeCommand('resilientApply.applyFromClipboard'),
            applyHereLens,
            samples.nearMissCommand,
          ),
        ),
      );
      if (document.getText() !== original) {
        throw new Error('the near miss changed the document');
      }
    },
    async () => {
      samples.lensAlone.push(
        await timeUntil(
          'lens alone',
          () => vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 100),
          () => true,
        ),
      );
    },
    async () => {
      await config.update('review', 'never', vscode.ConfigurationTarget.Global);
      await vscode.env.clipboard.writeText(fiftyBlocks);
      samples.reviewOff.push(
        await timeUntil(
          '50 changes, review off',
          () => vscode.commands.executeCommand('resilientApply.applyFromClipboard'),
          async () => fiftyApplied() && (await undoLenses()) === 0,
        ),
      );
      await config.update('review', undefined, vscode.ConfigurationTarget.Global);
    },
    async () => {
      await vscode.env.clipboard.writeText(fiftyBlocks);
      samples.reviewOn.push(
        await timeUntil(
          '50 changes, review on',
          () => vscode.commands.executeCommand('resilientApply.applyFromClipboard'),
          async () => fiftyApplied() && (await undoLenses()) === REVIEW_HUNKS,
        ),
      );
    },
  ];
  for (round = 0; round < ROUNDS; round++) {
    // Each round in another order, so no measure always runs right after the same one.
    for (let i = 0; i < measures.length; i++) {
      await measures[(round + i) % measures.length]();
      await restore();
    }
  }
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  say(RESULT_PREFIX + JSON.stringify({ lines: lines.length, blockLines: BLOCK_LINES, startLine: start + 1, samples }));
}
