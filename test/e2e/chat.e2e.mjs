// @ts-check
// The real Chat view, as a user drives it: type `@apply` and a SEARCH/REPLACE block into the chat input,
// send it, and click the buttons of the reply. A signed-out VS Code only hands a request to a participant
// when a language model is selected, so this test runs on a server with the test-only stub model
// (test/stub-model/, installed by test/runVsCode.mjs because of `stubModel` below; @apply never calls it).
//
// 1. A block whose SEARCH lost its indentation: the reply says how it matched and offers Apply. The file's
//    editor is closed first; Apply opens it, reveals the changed lines and writes them in the file's style.
// 2. A near miss: the reply offers "Apply here (NN%, lines a-b)" and changes nothing until it is clicked;
//    the click puts REPLACE at those lines and shows them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { editorText, eventually, mod, openFile, runCommand, runWhenAvailable, setClipboard, visibleText } from './workbench.mjs';

export const title =
  'Chat view: @apply a drifted block and click Apply (the file opens at the change); @apply a near miss, nothing changes until Apply here';
export const timeoutMs = 300_000;
/** Runs on a server with the test-only stub language model installed (see test/runVsCode.mjs). */
export const stubModel = true;

const FILE = 'src/inventory.ts';

// Store.sell() as the file has it, and as a model quoted it: without the class's indentation.
const SELL = [
  '  sell(sku: string, quantity: number): void {',
  '    const line = this.lines.get(sku);',
  '    if (!line || line.reserved < quantity) {',
  '      throw new Error(`sell: ${quantity} x ${sku} was not reserved in ${this.city}`);',
  '    }',
];
const SELL_NEW = [
  '  sell(sku: string, quantity: number): void {',
  '    const line = this.lines.get(sku);',
  '    if (!line || quantity <= 0 || line.reserved < quantity) {',
  '      throw new Error(`sell: ${quantity} x ${sku} cannot be sold in ${this.city}`);',
  '    }',
];
const dedent = (lines) => lines.map((l) => l.replace(/^ {2}/, ''));
const DRIFTED_BLOCK = ['<<<<<<< SEARCH', ...dedent(SELL), '=======', ...dedent(SELL_NEW), '>>>>>>> REPLACE'].join('\n');

// Warehouse.receive() as the model misremembered it (parameter name, condition, message): a near miss.
const RECEIVE_ACTUAL = [
  '  receive(sku: string, quantity: number): void {',
  '    if (quantity <= 0) {',
  '      throw new Error(`receive: quantity must be positive, got ${quantity}`);',
  '    }',
];
const RECEIVE_SEARCH = [
  '  receive(sku: string, amount: number): void {',
  '    if (amount <= 0) {',
  '      throw new Error(`quantity must be positive: ${amount}`);',
  '    }',
];
const RECEIVE_REPLACE = [
  '  receive(sku: string, quantity: number): void {',
  '    if (!Number.isInteger(quantity) || quantity <= 0) {',
  '      throw new Error(`receive: quantity must be a positive integer, got ${quantity}`);',
  '    }',
];
const NEAR_MISS_BLOCK = ['<<<<<<< SEARCH', ...RECEIVE_SEARCH, '=======', ...RECEIVE_REPLACE, '>>>>>>> REPLACE'].join('\n');

const CHAT_INPUT = '.interactive-input-part .interactive-input-editor';
const RESPONSE = '.interactive-item-container.interactive-response';

/** The text the chat input renders (its visible lines), spaces normalised. */
function chatInputText(page) {
  return page.evaluate((selector) => {
    const lines = [...document.querySelectorAll(`${selector} .view-lines .view-line`)].map((l) => /** @type {HTMLElement} */ (l));
    lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.map((l) => l.textContent.replace(/\u00a0/g, ' ')).join('\n');
  }, CHAT_INPUT);
}

async function focusChatInput(page) {
  await page.locator(`${CHAT_INPUT} .native-edit-context, ${CHAT_INPUT} textarea.inputarea`).first().focus();
}

/**
 * Sends `@apply <block>` from the chat input and returns the locator of its reply once `expected` shows
 * in it. Typing would send at the first newline (and auto-close brackets), so the block is pasted.
 */
async function askApply(page, block, expected) {
  // The chat list renders only the rows in view (a long reply scrolls older ones out of the DOM), so a
  // new reply is told by the last rendered one changing, not by counting replies.
  const lastReplyText = () =>
    page
      .locator(RESPONSE)
      .last()
      .innerText({ timeout: 1000 })
      .catch(() => '');
  const before = (await page.locator(RESPONSE).count()) === 0 ? '' : await lastReplyText();
  await focusChatInput(page);
  await page.keyboard.type('@apply ');
  // Closes the participant completion list, which would otherwise take the next Enter.
  await page.keyboard.press('Escape');
  await setClipboard(page, block);
  await focusChatInput(page);
  await page.keyboard.press(`${mod}+V`);
  await eventually(async () => (await chatInputText(page)).includes('>>>>>>> REPLACE'), true, {
    timeoutMs: 10_000,
    message: 'the pasted block did not show in the chat input',
  });
  await page.keyboard.press('Enter');
  await eventually(
    async () => {
      const now = await lastReplyText();
      return now !== before && now.includes(expected);
    },
    true,
    { timeoutMs: 60_000, message: `no new chat reply with "${expected}" appeared` },
  );
  const reply = page.locator(RESPONSE).last();
  await reply.filter({ hasText: expected }).waitFor({ state: 'visible', timeout: 60_000 });
  return reply;
}

/** The reply's buttons (stream.button), by their label. */
function button(reply, label) {
  return reply.locator('.chat-command-button a.monaco-button', { hasText: label });
}

/** Widens the secondary side bar (where the Chat view is) by dragging its sash, for readable replies. */
async function widenChat(page, by) {
  const box = await page.locator('.part.auxiliarybar').boundingBox();
  if (!box) {
    return;
  }
  await page.mouse.move(box.x - 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 1 - by, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
}

export default async function ({ page, workspace, screenshot, log }) {
  const onDisk = fs.readFileSync(path.join(workspace, FILE), 'utf8');
  assert.equal(onDisk.split(SELL.join('\n')).length, 2, 'the demo file changed; update the test');
  assert.ok(onDisk.includes(RECEIVE_ACTUAL.join('\n')), 'the demo file changed; update the test');
  const afterSell = onDisk.replace(SELL.join('\n'), SELL_NEW.join('\n'));
  const afterBoth = afterSell.replace(RECEIVE_ACTUAL.join('\n'), RECEIVE_REPLACE.join('\n'));
  const sellLine = onDisk.split('\n').indexOf(SELL[0]) + 1;
  const receiveLine = onDisk.split('\n').indexOf(RECEIVE_ACTUAL[0]) + 1;

  // The extension is active (its command ran) before anything is asked of it.
  await runWhenAvailable(page, 'Resilient Apply: Show Log');
  await page.locator('.part.panel', { hasText: 'Resilient Apply' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await runCommand(page, 'View: Toggle Panel Visibility');
  await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
  await openFile(page, FILE);
  await runCommand(page, 'Chat: Open Chat');
  await page.locator(CHAT_INPUT).waitFor({ state: 'visible', timeout: 30_000 });
  // The request carries a model only once the picker has one.
  await page.locator('.interactive-input-part', { hasText: 'Test Stub' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await widenChat(page, 300);

  // 1. The drifted block.
  const drifted = await askApply(page, DRIFTED_BLOCK, 'matched after normalising indentation');
  const driftedText = await drifted.innerText();
  log(
    `reply: ${driftedText
      .split('\n')
      .filter((l) => /Block 1/.test(l))
      .join(' ')}`,
  );
  assert.match(driftedText, new RegExp(`matched after normalising indentation at lines ${sellLine}-${sellLine + 4}`));
  await button(drifted, /^Apply$/).waitFor({ state: 'visible', timeout: 20_000 });
  await screenshot('drifted-reply');
  // The user closed the file meanwhile: Apply opens it again at the change.
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
  await button(drifted, /^Apply$/).click();
  await page.locator('.tabs-container .tab.active[data-resource-name="inventory.ts"]').waitFor({ timeout: 20_000 });
  await eventually(async () => (await visibleText(page)).includes('cannot be sold in'), true, {
    timeoutMs: 20_000,
    message: 'the changed lines are not in view after Apply',
  });
  await screenshot('drifted-applied');
  await eventually(() => editorText(page), afterSell, {
    timeoutMs: 20_000,
    message: "Apply did not write the change in the file's indentation",
  });

  // 2. The near miss: candidates with "Apply here", and nothing changes before the click.
  const nearMiss = await askApply(page, NEAR_MISS_BLOCK, 'Apply here');
  const applyHere = button(nearMiss, /^Apply here \(\d+%, lines \d+-\d+\)$/).first();
  await applyHere.waitFor({ state: 'visible', timeout: 20_000 });
  const label = (await applyHere.innerText()).trim();
  log(`button: ${label}`);
  assert.match(label, new RegExp(`^Apply here \\(\\d+%, lines ${receiveLine}-${receiveLine + 3}\\)$`));
  assert.equal(await button(nearMiss, /^Apply$/).count(), 0, 'a near miss must not offer a plain Apply');
  await nearMiss.scrollIntoViewIfNeeded();
  await screenshot('near-miss-reply');
  assert.equal(await editorText(page), afterSell, 'the near-miss reply changed the file before any click');
  // editorText() left the cursor at the end of the file, far from the candidate.
  assert.ok(!(await visibleText(page)).includes('receive(sku'), 'the candidate lines are already in view');
  await applyHere.click();
  await eventually(async () => (await visibleText(page)).includes('must be a positive integer'), true, {
    timeoutMs: 20_000,
    message: 'the changed lines are not in view after Apply here',
  });
  await screenshot('near-miss-applied');
  await eventually(() => editorText(page), afterBoth, { timeoutMs: 20_000, message: 'Apply here did not put REPLACE at the candidate' });
  // The applies themselves save nothing. (Sending a chat request saves dirty files, VS Code's default
  // chat.saveBeforeSend, so the second request saved the first change.)
  assert.equal(fs.readFileSync(path.join(workspace, FILE), 'utf8'), afterSell);
}
