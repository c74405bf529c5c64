// Editor apply mode, outcomes that wait for the user: near misses and ambiguous blocks shown as CodeLens
// rows (read through vscode.executeCodeLensProvider), choosing a candidate, Preview, undo bringing the
// choices back, re-matching after the document changed, and refusing rather than corrupting.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import type { CandidateChoice } from '../../src/extension/pendingStore';
import { api, applyText, block, Cmd, lensRows, NEAR_MISS, openFile, scratchSuite, TOTAL, waitFor } from './editorHelpers';

const AFTER_CHOICE = TOTAL.replace('item.price * item.quantity;', 'item.price * item.quantity * 2;');

const TWICE = [
  'function first(x) {',
  '  if (!x) {',
  '    return null;',
  '  }',
  '  return x;',
  '}',
  '',
  'function second(y) {',
  '  if (!y) {',
  '    return null;',
  '  }',
  '  return y;',
  '}',
  '',
].join('\n');

function applyLenses(rows: Awaited<ReturnType<typeof lensRows>>) {
  return rows.filter((r) => r.command === Cmd.applyCandidate);
}

suite('editor apply: near misses and ambiguity', () => {
  const dir = scratchSuite();

  test('near miss: nothing applied, CodeLens rows Apply here · score · lines, Preview, Dismiss, best first', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const outcome = await applyText(NEAR_MISS, doc.uri);
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.equal(doc.getText(), TOTAL, 'a near miss must not edit the document');

    const rows = await lensRows(doc.uri);
    const apply = applyLenses(rows);
    assert.ok(apply.length >= 1, `no Apply here lens: ${JSON.stringify(rows.map((r) => r.title))}`);
    const scores = apply.map((r) => Number(/· (\d+)% ·/.exec(r.title)?.[1]));
    const bestIndex = scores.indexOf(Math.max(...scores));
    const best = apply[bestIndex];
    assert.match(best.title, /^\$\(check\) Apply here · \d+% · lines 3-5$/);
    assert.equal(best.line, 2, 'the best candidate lens sits above line 3');
    // The three lenses of that row, in order.
    const row = rows.filter((r) => r.line === best.line).map((r) => r.title);
    const at = row.indexOf(best.title);
    assert.deepEqual(row.slice(at, at + 3), [best.title, '$(diff) Preview', '$(close) Dismiss']);
    // Best first: the store ranks candidates by score.
    const { pendingStore } = await api();
    const first = pendingStore.firstUnresolved(doc.uri);
    assert.ok(first);
    assert.equal(first.outcome.candidates[0].startLine, 3);
    const ranked = first.outcome.candidates.map((c) => c.score);
    assert.deepEqual(
      [...ranked].sort((a, b) => b - a),
      ranked,
    );
    // Hovering the best candidate's lines: how SEARCH differs from them, the misremembered name included.
    const hovers =
      (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(3, 4))) ?? [];
    const hover = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(hover, /block 1 · \d+% similar · lines 3-5/);
    assert.match(hover, /How SEARCH differs from these lines:/);
    assert.match(hover, /item\.qty/);
  });

  test('choosing a candidate applies REPLACE there; one undo restores the text and the choices come back', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    assert.equal((await applyText(NEAR_MISS, doc.uri)).status, 'pending');
    const best = applyLenses(await lensRows(doc.uri)).find((r) => r.title.endsWith('lines 3-5'));
    assert.ok(best, 'no lens for lines 3-5');

    const chosen = await vscode.commands.executeCommand<ApplyOutcome>(best.command, ...best.args);
    assert.equal(chosen.status, 'applied', chosen.summary);
    assert.match(chosen.summary, /chosen candidate/);
    assert.equal(doc.getText(), AFTER_CHOICE);
    assert.equal(applyLenses(await lensRows(doc.uri)).length, 0, 'lenses left after applying');

    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), TOTAL, 'one undo did not restore the text');
    const again = await waitFor(
      async () => applyLenses(await lensRows(doc.uri)).find((r) => r.title.endsWith('lines 3-5')),
      'the choices to come back after undo',
    );
    const reapplied = await vscode.commands.executeCommand<ApplyOutcome>(again.command, ...again.args);
    assert.equal(reapplied.status, 'applied', reapplied.summary);
    assert.equal(doc.getText(), AFTER_CHOICE);
  });

  test('ambiguous: a lens at every occurrence, nothing applied until one is chosen', async () => {
    const doc = await openFile(`${dir()}/twice.js`, TWICE);
    const outcome = await applyText(block('    return null;', '    return undefined;'), doc.uri);
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.equal(doc.getText(), TWICE);
    const apply = applyLenses(await lensRows(doc.uri));
    assert.deepEqual(
      apply.map((r) => [r.line, r.title]),
      [
        [2, '$(check) Apply here (1 of 2)'],
        [9, '$(check) Apply here (2 of 2)'],
      ],
    );
    const chosen = await vscode.commands.executeCommand<ApplyOutcome>(apply[1].command, ...apply[1].args);
    assert.equal(chosen.status, 'applied', chosen.summary);
    const lines = doc.getText().split('\n');
    assert.equal(lines[2], '    return null;');
    assert.equal(lines[9], '    return undefined;');
  });

  test('Preview opens a diff of the live document against the result, without editing it', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    await applyText(NEAR_MISS, doc.uri);
    const preview = (await lensRows(doc.uri)).find(
      (r) => r.command === Cmd.previewCandidate && (r.args[0] as CandidateChoice).startLine === 3,
    );
    assert.ok(preview, 'no Preview lens for lines 3-5');
    const uri = await vscode.commands.executeCommand<vscode.Uri>(preview.command, ...preview.args);
    assert.ok(uri, 'preview returned no document');
    const previewDoc = await vscode.workspace.openTextDocument(uri);
    assert.equal(previewDoc.getText(), AFTER_CHOICE);
    assert.equal(doc.getText(), TOTAL, 'preview must not edit the document');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the active tab is not a diff');
    assert.equal(tab.input.original.toString(), doc.uri.toString());
    assert.equal(tab.input.modified.toString(), uri.toString());
  });

  test('re-match after the document changed between match and apply: the choice follows its text', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    await applyText(NEAR_MISS, doc.uri);
    const stale = applyLenses(await lensRows(doc.uri)).find((r) => r.title.endsWith('lines 3-5'));
    assert.ok(stale);
    // A "formatter" runs: adds an import block above and respaces the function's first line.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), "import { Item } from './item';\nimport { log } from './log';\n\n");
    edit.replace(doc.uri, doc.lineAt(1).range, '  let sum  =  0;');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const formatted = doc.getText();
    // Apply with the lens computed on the old version (lines 3-5 there are lines 6-8 now).
    const chosen = await vscode.commands.executeCommand<ApplyOutcome>(stale.command, ...stale.args);
    assert.equal(chosen.status, 'applied', chosen.summary);
    assert.equal(doc.getText(), formatted.replace('item.price * item.quantity;', 'item.price * item.quantity * 2;'));
  });

  test('candidates move with the text, and a block that now matches uniquely is offered as such', async () => {
    const source = 'const a = 1\nconst b = 2\nconst c = 3\n';
    const doc = await openFile(`${dir()}/semi.js`, source);
    // SEARCH has semicolons the file lacks: a near miss.
    const outcome = await applyText(block('const a = 1;\nconst b = 2;', 'const a = 1;\nconst b = 20;'), doc.uri);
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.ok(applyLenses(await lensRows(doc.uri)).some((r) => r.line === 0));
    // Lines inserted above: the candidate moves down with its text.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '// header\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(async () => applyLenses(await lensRows(doc.uri)).some((r) => r.line === 1), 'the candidate to move to line 2');
    // The formatter adds semicolons: now SEARCH matches exactly.
    const semis = new vscode.WorkspaceEdit();
    for (const line of [1, 2, 3]) {
      semis.insert(doc.uri, doc.lineAt(line).range.end, ';');
    }
    assert.ok(await vscode.workspace.applyEdit(semis));
    const ready = await waitFor(
      async () => (await lensRows(doc.uri)).find((r) => /now matches exactly/.test(r.title)),
      'the "now matches exactly" lens',
    );
    assert.equal(ready.line, 1);
    const applied = await vscode.commands.executeCommand<ApplyOutcome>(ready.command, ...ready.args);
    assert.equal(applied.status, 'applied', applied.summary);
    assert.equal(doc.getText(), '// header\nconst a = 1;\nconst b = 20;\nconst c = 3;\n');
  });

  test('the chosen text deleted before applying: refused, the document is not touched', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    await applyText(NEAR_MISS, doc.uri);
    const stale = applyLenses(await lensRows(doc.uri)).find((r) => r.title.endsWith('lines 3-5'));
    assert.ok(stale);
    const edit = new vscode.WorkspaceEdit();
    edit.delete(doc.uri, new vscode.Range(2, 0, 5, 0)); // the loop is gone
    assert.ok(await vscode.workspace.applyEdit(edit));
    const changed = doc.getText();
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(stale.command, ...stale.args);
    assert.notEqual(outcome.status, 'applied', 'applied onto text that no longer exists');
    assert.equal(doc.getText(), changed);
  });

  test('a batch waits as a whole: the matched block waits for the near miss, then both apply in one undo', async () => {
    const source = TOTAL + 'export const label = "total";\n';
    const doc = await openFile(`${dir()}/batch.ts`, source);
    const text = block('export const label = "total";', 'export const label = "sum";') + NEAR_MISS;
    const outcome = await applyText(text, doc.uri);
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.equal(doc.getText(), source);
    const rows = await lensRows(doc.uri);
    assert.ok(
      rows.some((r) => r.line === 7 && /Block 1 matched .*waits for block 2/.test(r.title)),
      JSON.stringify(rows.map((r) => [r.line, r.title])),
    );
    const best = applyLenses(rows).find((r) => r.title.endsWith('lines 3-5'));
    assert.ok(best);
    const chosen = await vscode.commands.executeCommand<ApplyOutcome>(best.command, ...best.args);
    assert.equal(chosen.status, 'applied', chosen.summary);
    assert.match(chosen.summary, /Applied 2\/2 blocks/);
    assert.equal(doc.getText(), AFTER_CHOICE + 'export const label = "sum";\n');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), source);
  });

  test('Accept Best Candidate applies the top candidate; Dismiss drops the batch', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    await applyText(NEAR_MISS, doc.uri);
    await vscode.window.showTextDocument(doc);
    const accepted = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.acceptBestCandidate);
    assert.equal(accepted?.status, 'applied', accepted?.summary);
    assert.equal(doc.getText(), AFTER_CHOICE);

    const other = await openFile(`${dir()}/total2.ts`, TOTAL);
    await applyText(NEAR_MISS, other.uri);
    assert.ok(applyLenses(await lensRows(other.uri)).length > 0);
    const dismissed = await vscode.commands.executeCommand<number>(Cmd.dismissPending);
    assert.equal(dismissed, 1);
    assert.equal(applyLenses(await lensRows(other.uri)).length, 0);
    assert.equal(other.getText(), TOTAL);
  });

  test('the Quick Pick offers the same choices, best first, and accepting one applies it', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    await applyText(NEAR_MISS, doc.uri);
    // The command shows a Quick Pick and resolves once an item is accepted.
    const picked = vscode.commands.executeCommand<ApplyOutcome | undefined>('resilientApply.chooseCandidate');
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const outcome = await picked;
    assert.equal(outcome?.status, 'applied', outcome?.summary);
    assert.equal(doc.getText(), AFTER_CHOICE, 'the first item is the best candidate');
  });

  test('settings: fuzzy.autoApplyAbove applies a clear near miss; autoApplyNormalized=false offers normalised matches', async () => {
    const config = vscode.workspace.getConfiguration('resilientApply');
    try {
      await config.update('fuzzy.autoApplyAbove', 0.9, vscode.ConfigurationTarget.Workspace);
      const doc = await openFile(`${dir()}/auto.ts`, TOTAL);
      const auto = await applyText(NEAR_MISS, doc.uri);
      assert.equal(auto.status, 'applied', auto.summary);
      assert.match(auto.summary, /by fuzzy match/);
      assert.equal(doc.getText(), AFTER_CHOICE);
      await config.update('fuzzy.autoApplyAbove', undefined, vscode.ConfigurationTarget.Workspace);

      await config.update('autoApplyNormalized', false, vscode.ConfigurationTarget.Workspace);
      const tabs = await openFile(`${dir()}/tabs.go`, 'func a() {\n\treturn 1\n}\n');
      const offered = await applyText(block('func a() {\n    return 1\n}', 'func a() {\n    return 2\n}'), tabs.uri);
      assert.equal(offered.status, 'pending', offered.summary);
      const lens = applyLenses(await lensRows(tabs.uri));
      assert.equal(lens.length, 1, JSON.stringify(lens.map((r) => r.title)));
      const chosen = await vscode.commands.executeCommand<ApplyOutcome>(lens[0].command, ...lens[0].args);
      assert.equal(chosen.status, 'applied', chosen.summary);
      assert.equal(tabs.getText(), 'func a() {\n\treturn 2\n}\n');
    } finally {
      await config.update('fuzzy.autoApplyAbove', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('autoApplyNormalized', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('setting fuzzy.maxCandidates limits the rows offered', async () => {
    const config = vscode.workspace.getConfiguration('resilientApply');
    const lines = ['alpha(1, 2, 3);', 'alpha(1, 2, 4);', 'alpha(1, 2, 5);', 'beta();', ''].join('\n');
    const doc = await openFile(`${dir()}/many.js`, lines);
    try {
      await config.update('fuzzy.maxCandidates', 1, vscode.ConfigurationTarget.Workspace);
      await applyText(block('alpha(1, 2, 9);', 'alpha(0);'), doc.uri);
      assert.equal(applyLenses(await lensRows(doc.uri)).length, 1);
      (await api()).pendingStore.dismissAll();
      await config.update('fuzzy.maxCandidates', 3, vscode.ConfigurationTarget.Workspace);
      await applyText(block('alpha(1, 2, 9);', 'alpha(0);'), doc.uri);
      assert.equal(applyLenses(await lensRows(doc.uri)).length, 3);
    } finally {
      await config.update('fuzzy.maxCandidates', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
