// @ts-check
// A plain code block in a Markdown document, clicked in the real workbench: the "Apply code block to
// <file>" CodeLens opens the review diff, the Apply button in the diff's title bar applies it as one edit
// (a Go method written with spaces lands in the file's tabs), and one Ctrl+Z reverts it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  closeSecondarySideBar,
  editorText,
  eventually,
  focusEditor,
  openFile,
  pressUndo,
  runCommand,
  runWhenAvailable,
} from './workbench.mjs';

export const title = 'a code block in Markdown: CodeLens, review diff, Apply in the title bar, one undo';

const FILE = 'server/handler.go';
const BEFORE = ['\tfor _, it := range o.Items {', '\t\ttotal += int64(it.Quantity) * it.PriceCts', '\t}'].join('\n');
const AFTER = [
  '\tfor _, it := range o.Items {',
  '\t\tif it.Quantity > 0 {',
  '\t\t\ttotal += int64(it.Quantity) * it.PriceCts',
  '\t\t}',
  '\t}',
].join('\n');

export default async function ({ page, workspace, screenshot, log }) {
  const onDisk = fs.readFileSync(path.join(workspace, FILE), 'utf8');
  assert.equal(onDisk.split(BEFORE).length, 2, 'the demo file changed; update the test');
  const expected = onDisk.replace(BEFORE, AFTER);

  await closeSecondarySideBar(page);
  await runWhenAvailable(page, 'Resilient Apply: Show Log');
  await page.locator('.part.panel', { hasText: 'Resilient Apply' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await runCommand(page, 'View: Toggle Panel Visibility');
  await openFile(page, 'demo-code-blocks.md');

  const lens = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: `Apply code block to ${FILE}` });
  await lens.first().waitFor({ state: 'visible', timeout: 30_000 });
  log(`CodeLens: ${(await lens.first().textContent())?.trim()}`);
  await screenshot('codelens');
  // The lenses are rendered again when the provider refreshes (the engine or a grammar loading): no
  // element handle is held across that; click() finds the link again until it stays attached.
  await lens.first().click();

  // The review: a diff of the live file against the result, with Apply / Discard in the title bar.
  const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
  await diff.waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator('.tabs-container .tab.active', { hasText: 'code block' }).waitFor({ timeout: 20_000 });
  await page.waitForTimeout(1000);
  await screenshot('review');
  assert.equal(fs.readFileSync(path.join(workspace, FILE), 'utf8'), onDisk, 'nothing is written before Apply');
  const apply = page.locator('.editor-group-container.active a.action-label[aria-label*="Apply Code Block"]');
  await apply.first().waitFor({ state: 'visible', timeout: 20_000 });
  await apply.first().click();
  // The workbench keeps a closed diff editor's widget for reuse: wait for the review's tab to close.
  await page.locator('.tabs-container .tab', { hasText: 'code block' }).waitFor({ state: 'detached', timeout: 20_000 });

  // Apply opened the file in a tab of its own (it holds the unsaved edit): bring that tab forward.
  await page
    .locator(`.tabs-container .tab[data-resource-name="${path.basename(FILE)}"]`)
    .first()
    .click();
  await page.locator(`.tabs-container .tab.active[data-resource-name="${path.basename(FILE)}"]`).waitFor({ timeout: 20_000 });
  await focusEditor(page);
  await eventually(() => editorText(page), expected, { timeoutMs: 20_000, message: 'Apply did not write the code block in the file' });
  await screenshot('applied');

  await pressUndo(page);
  await eventually(() => editorText(page), onDisk, { timeoutMs: 20_000, message: 'one undo did not restore the file' });
  assert.equal(fs.readFileSync(path.join(workspace, FILE), 'utf8'), onDisk, 'nothing was saved');
}
