// @ts-check
// Review each change (issue 27) in the real workbench: three SEARCH/REPLACE blocks from the clipboard
// change three places of a Go file; each place is marked (background, gutter bar) with a "Keep | Undo
// change n of 3" CodeLens and "Keep all | Undo all" above the first. Clicking "Undo change 2 of 3"
// restores only that place; "Keep all" ends the review. Screenshots: review-marks (the README's), after
// an undo, after Keep all.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  closeSecondarySideBar,
  editorText,
  eventually,
  focusEditor,
  goToLine,
  mod,
  openFile,
  runCommand,
  runWhenAvailable,
  setClipboard,
} from './workbench.mjs';

// The workbench, the extension's first apply and the lenses take a while on a busy machine.
export const timeoutMs = 300_000;

export const title = 'review each change: Keep | Undo lenses after an apply of three blocks, Undo of one, Keep all';

const FILE = 'server/handler.go';
const CHANGES = [
  ['\tvar total int64\n', '\tvar total int64 // in cents\n'],
  ['\t\tif it.Quantity <= 0 {\n', '\t\tif it.Quantity <= 0 || it.Quantity > 1000 {\n'],
  [
    '\tw.Header().Set("Content-Type", "application/json")\n',
    '\tw.Header().Set("Content-Type", "application/json; charset=utf-8")\n\tw.WriteHeader(http.StatusOK)\n',
  ],
];

const blocks = CHANGES.map(([from, to]) => `<<<<<<< SEARCH\n${from}=======\n${to}>>>>>>> REPLACE\n`).join('\n');

export default async function ({ page, workspace, screenshot, log }) {
  const onDisk = fs.readFileSync(path.join(workspace, FILE), 'utf8');
  for (const [from] of CHANGES) {
    assert.equal(onDisk.split(from).length, 2, `the demo file changed; update the test (${from.trim()})`);
  }
  const applied = CHANGES.reduce((text, [from, to]) => text.replace(from, to), onDisk);
  const middleUndone = applied.replace(CHANGES[1][1], CHANGES[1][0]);

  await closeSecondarySideBar(page);
  await runWhenAvailable(page, 'Resilient Apply: Show Log');
  await runCommand(page, 'View: Toggle Panel Visibility');
  await openFile(page, FILE);
  await focusEditor(page);
  await setClipboard(page, blocks);
  log('applying three blocks from the clipboard');
  await runCommand(page, 'Resilient Apply: Apply Blocks from Clipboard');
  await eventually(() => editorText(page), applied, { timeoutMs: 30_000, message: 'the three blocks did not apply' });

  const lens = (text) => page.locator('.editor-group-container.active .codelens-decoration a', { hasText: text });
  await lens('Undo change 2 of 3').first().waitFor({ state: 'attached', timeout: 30_000 });
  await lens('Keep all').first().waitFor({ state: 'attached', timeout: 10_000 });
  log(`lenses: ${(await page.locator('.editor-group-container.active .codelens-decoration').allTextContents()).join(' / ')}`);
  if (await page.locator('.part.panel').isVisible()) {
    await runCommand(page, 'View: Toggle Panel Visibility');
  }
  await goToLine(page, 66);
  await goToLine(page, 27);
  await page.waitForTimeout(1000);
  await screenshot('review-marks');

  log('undo of change 2');
  await goToLine(page, 42);
  await lens('Undo change 2 of 3').first().click();
  await eventually(() => editorText(page), middleUndone, { timeoutMs: 20_000, message: 'Undo of change 2 did not restore only it' });
  await lens('Undo change 2 of 2').first().waitFor({ state: 'attached', timeout: 20_000 });
  await goToLine(page, 27);
  await page.waitForTimeout(500);
  await screenshot('review-after-undo');

  await goToLine(page, 30);
  await lens('Keep all').first().click();
  await lens('Keep').first().waitFor({ state: 'detached', timeout: 20_000 });
  await screenshot('review-kept');

  // The editor's history is the truth: Ctrl+Z takes back the Undo of change 2, then the apply.
  await focusEditor(page);
  await page.keyboard.press(`${mod}+Z`);
  await eventually(() => editorText(page), applied, { timeoutMs: 20_000, message: 'Ctrl+Z did not take back the Undo of change 2' });
  await page.keyboard.press(`${mod}+Z`);
  await eventually(() => editorText(page), onDisk, { timeoutMs: 20_000, message: 'Ctrl+Z did not take back the apply' });
}
