// @ts-check
// The main editor flow, clicked in the real workbench: paste a near-miss SEARCH/REPLACE block into a file,
// nothing is inserted, CodeLens rows offer the candidates; Preview shows the diff; "Apply here" applies;
// Ctrl+Z restores the file in one step and the choices come back.
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
  paste,
  pressUndo,
  runCommand,
  runWhenAvailable,
  waitForVisibleText,
} from './workbench.mjs';

export const title = 'paste a near-miss block, see the CodeLens, preview, click Apply here, undo, dismiss; paste an exact block, undo';
export const timeoutMs = 240_000;

const FILE = 'src/inventory.ts';

// The model misremembered the parameter name and the error message: a near miss.
const SEARCH = [
  '  receive(sku: string, amount: number): void {',
  '    if (amount <= 0) {',
  '      throw new Error(`quantity must be positive: ${amount}`);',
  '    }',
  '    const line = this.lines.get(sku) ?? { sku, quantity: 0, reserved: 0 };',
  '    line.quantity += amount;',
];
const REPLACE = [
  '  receive(sku: string, quantity: number): void {',
  '    if (!Number.isInteger(quantity) || quantity <= 0) {',
  '      throw new Error(`receive: quantity must be a positive integer, got ${quantity}`);',
  '    }',
  '    const line = this.lines.get(sku) ?? { sku, quantity: 0, reserved: 0 };',
  '    line.quantity += quantity;',
];
// What the file really has on those lines.
const ACTUAL = [
  '  receive(sku: string, quantity: number): void {',
  '    if (quantity <= 0) {',
  '      throw new Error(`receive: quantity must be positive, got ${quantity}`);',
  '    }',
  '    const line = this.lines.get(sku) ?? { sku, quantity: 0, reserved: 0 };',
  '    line.quantity += quantity;',
];

const BLOCK = ['<<<<<<< SEARCH', ...SEARCH, '=======', ...REPLACE, '>>>>>>> REPLACE', ''].join('\n');

/** The CodeLens links currently rendered in the active editor. */
function lens(page, text) {
  return page.locator('.editor-group-container.active .codelens-decoration a', { hasText: text });
}

export default async function ({ page, workspace, screenshot, log }) {
  const onDisk = fs.readFileSync(path.join(workspace, FILE), 'utf8');
  assert.ok(onDisk.includes(ACTUAL.join('\n')), 'the demo file changed; update the test');
  const expected = onDisk.replace(ACTUAL.join('\n'), REPLACE.join('\n'));
  const firstLine = onDisk.split('\n').indexOf(ACTUAL[0]) + 1;

  await closeSecondarySideBar(page);
  // The extension activates on startup-finished; running one of its commands makes sure it is active
  // (and its paste provider registered) before the paste, however slow the machine is.
  await runWhenAvailable(page, 'Resilient Apply: Show Log');
  await page.locator('.part.panel', { hasText: 'Resilient Apply' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await runCommand(page, 'View: Toggle Panel Visibility');
  await openFile(page, FILE);
  // More room for the editor (and the preview diff) in the screenshots.
  await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
  await focusEditor(page);
  // Paste on the blank line above the method, the way a user drops an answer into the file.
  await goToLine(page, firstLine - 1);
  await paste(page, BLOCK);

  const apply = lens(page, 'Apply here').first();
  await apply.waitFor({ state: 'visible', timeout: 30_000 });
  const applyTitle = (await apply.textContent())?.trim() ?? '';
  log(`CodeLens: ${applyTitle}`);
  assert.match(applyTitle, new RegExp(`Apply here · \\d+% · lines ${firstLine}-${firstLine + 5}`));
  assert.ok(await lens(page, 'Preview').first().isVisible(), 'no Preview lens');
  assert.ok(await lens(page, 'Dismiss').first().isVisible(), 'no Dismiss lens');
  // The status bar counts the pending blocks; clicking it lists the same choices in a Quick Pick.
  const status = page.locator('.statusbar-item', { hasText: '1 block pending' });
  await status.waitFor({ state: 'visible', timeout: 10_000 });
  await status.click();
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Apply here' })
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  // Nothing was inserted: no raw markers in the file.
  assert.equal(await editorText(page), onDisk, 'the paste changed the file although the block did not match');
  await goToLine(page, firstLine + 3);
  await page.mouse.move(0, 0);
  await screenshot('codelens');

  // Hovering a candidate line shows how SEARCH differs from it.
  const candidateLine = page
    .locator('.editor-group-container.active .view-line', { hasText: 'throw new Error(`receive: quantity must be positive' })
    .first();
  await candidateLine.hover();
  const hover = page.locator('.monaco-hover', { hasText: 'How SEARCH differs' });
  await hover.first().waitFor({ state: 'visible', timeout: 15_000 });
  await screenshot('hover');
  await page.keyboard.press('Escape');
  await page.mouse.move(0, 0);

  // Preview: a diff of the live document against the result.
  await lens(page, 'Preview').first().click();
  const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
  await diff.waitFor({ state: 'visible', timeout: 20_000 });
  await page.locator('.tabs-container .tab.active', { hasText: 'preview' }).waitFor({ timeout: 20_000 });
  await page.waitForTimeout(1000);
  await screenshot('preview');
  await page.keyboard.press(`${mod}+W`);
  await page.locator(`.tabs-container .tab.active[data-resource-name="inventory.ts"]`).waitFor({ timeout: 20_000 });

  // Apply here.
  await lens(page, 'Apply here').first().click();
  await eventually(() => editorText(page), expected, {
    timeoutMs: 20_000,
    message: 'Apply here did not put the REPLACE text at the candidate',
  });
  await lens(page, 'Apply here').first().waitFor({ state: 'detached', timeout: 20_000 });
  await goToLine(page, firstLine + 3);
  await screenshot('applied');

  // One Ctrl+Z restores the file, and the choices come back.
  await pressUndo(page);
  await eventually(() => editorText(page), onDisk, { timeoutMs: 20_000, message: 'one undo did not restore the file' });
  await goToLine(page, firstLine + 3);
  await lens(page, 'Apply here').first().waitFor({ state: 'visible', timeout: 20_000 });
  await screenshot('undone');

  // Dismiss drops the choices; nothing is applied. By its keybinding, whose when clause reads where blocks
  // wait (resilientApply.pending == 'editor'): the Dismiss lens runs the same command.
  await focusEditor(page);
  await page.keyboard.press('Shift+Alt+Backspace');
  await lens(page, 'Apply here').first().waitFor({ state: 'detached', timeout: 20_000 });
  assert.equal(await editorText(page), onDisk);

  // A block that matches exactly applies on paste, in one undo step with the paste itself.
  const exactSearch = '  constructor(readonly name: string) {}';
  const exactReplace = "  constructor(readonly name: string, readonly region = 'eu') {}";
  assert.equal(onDisk.split(exactSearch).length, 2, 'the exact block must match once');
  await goToLine(page, 1);
  await paste(page, ['<<<<<<< SEARCH', exactSearch, '=======', exactReplace, '>>>>>>> REPLACE', ''].join('\n'));
  // The paste goes through paste edit providers first; editorText() selects all, which would cancel a
  // paste still in flight, so wait for the rendered line before reading the whole text.
  await waitForVisibleText(page, "readonly region = 'eu'");
  await eventually(() => editorText(page), onDisk.replace(exactSearch, exactReplace), {
    timeoutMs: 20_000,
    message: 'the pasted exact block was not applied',
  });
  await goToLine(page, 13);
  await screenshot('exact-applied');
  await pressUndo(page);
  await eventually(() => editorText(page), onDisk, { timeoutMs: 20_000, message: 'one undo did not revert the pasted apply' });

  // Nothing was saved.
  assert.equal(fs.readFileSync(path.join(workspace, FILE), 'utf8'), onDisk);
}
