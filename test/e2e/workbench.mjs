// @ts-check
// Helpers for UI tests that drive the real VS Code web workbench through playwright-core.
//
// ## Adding a UI test
// Create test/e2e/<name>.e2e.mjs; test/runVsCode.mjs runs every such file, in name order, each in a fresh
// browser context (fresh IndexedDB, so no state leaks) on a fresh copy of demo/ with the extension loaded:
//
//   import * as assert from 'node:assert/strict';
//   import { openFile, editorText, pressUndo } from './workbench.mjs';
//   export const title = 'what the user does and sees';
//   export const timeoutMs = 120_000;            // optional; the default is 2 minutes
//   export default async function ({ page, workspace, screenshot, log }) {
//     await openFile(page, 'src/inventory.ts');   // path relative to the workspace
//     ...
//     await screenshot('after-apply');            // test-results/e2e/<name>-NN-after-apply.png
//   }
//
// `page` is a playwright Page already showing the restored workbench; `workspace` is the absolute path of
// the throwaway workspace (read files there to check what was saved); `screenshot(label)` saves a PNG and
// returns its path; `log(text)` prints under the test's name. Throw (e.g. a failed assert) to fail. A
// failing test gets a screenshot named *-FAILED.png automatically. Run one file with
// `RESILIENT_APPLY_E2E=<name> node test/runVsCode.mjs --e2e` (after `npm run build`).
//
// Reading the editor's text back goes through the clipboard (select all, copy, read navigator.clipboard),
// because Monaco only renders the visible lines into the DOM.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

const isMac = process.platform === 'darwin';
export const mod = isMac ? 'Meta' : 'Control';

/** The focused text editor's input area. */
export const EDITOR = '.editor-group-container.active .monaco-editor';

/** Runs a command from the Command Palette by its label, e.g. 'View: Toggle Word Wrap'. */
export async function runCommand(page, label) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await input.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
}

/**
 * Runs a palette command once the extension host has registered it: on a loaded machine the workbench
 * can be restored well before the extension host has scanned the development extension.
 */
export async function runWhenAvailable(page, label, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${label}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: 3000 });
      await input.press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    } catch (err) {
      await page.keyboard.press('Escape');
      if (Date.now() > deadline) {
        throw new Error(`command '${label}' never appeared in the palette: ${err.message}`);
      }
      await page.waitForTimeout(1000);
    }
  }
}

/** Opens a workspace file with Quick Open (Ctrl+P), like a user would, and waits for its editor to focus. */
export async function openFile(page, relativePath) {
  const base = path.basename(relativePath);
  await page.keyboard.press(`${mod}+P`);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(relativePath);
  // Quick Open searches asynchronously (slowly on a loaded machine); wait for the file's row.
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: base }).first();
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  await input.press('Enter');
  await page.locator(`.tabs-container .tab.active[data-resource-name="${base}"]`).waitFor({ timeout: 20_000 });
  await focusEditor(page);
}

/** Puts the keyboard focus into the active text editor. */
export async function focusEditor(page) {
  const editor = page.locator(EDITOR).first();
  await editor.waitFor({ state: 'visible', timeout: 20_000 });
  // Clicking would move the cursor; focusing the native edit context keeps it.
  await page.evaluate((selector) => {
    const root = document.querySelector(selector);
    const input = root?.querySelector('.native-edit-context, textarea.inputarea');
    if (!input) {
      throw new Error(`no input element in ${selector}`);
    }
    input.focus();
  }, EDITOR);
}

export async function setClipboard(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
}

export async function readClipboard(page) {
  return page.evaluate(() => navigator.clipboard.readText());
}

/**
 * The whole text of the active editor, read via select-all + copy. Leaves the cursor at the end of the
 * document. Line endings come back as LF whatever the file uses (the clipboard normalises them).
 */
export async function editorText(page) {
  await focusEditor(page);
  const marker = `\u0000no copy happened ${Date.now()}`;
  await setClipboard(page, marker);
  await page.keyboard.press(`${mod}+A`);
  await page.keyboard.press(`${mod}+C`);
  let text = marker;
  for (let i = 0; i < 50 && text === marker; i++) {
    await page.waitForTimeout(100);
    text = await readClipboard(page);
  }
  assert.notEqual(text, marker, 'copying the editor text did not reach the clipboard');
  await page.keyboard.press(`${mod}+End`);
  return text;
}

/** Moves the cursor to the start of a 1-based line with Go to Line (Ctrl+G). */
export async function goToLine(page, line) {
  await page.keyboard.press(`${mod}+G`);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${line}`);
  await input.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  await page.keyboard.press('Home');
  await page.keyboard.press('Home');
}

/** Pastes `text` at the cursor the way a user does: into the clipboard, then Ctrl+V. */
export async function paste(page, text) {
  await setClipboard(page, text);
  await focusEditor(page);
  await page.keyboard.press(`${mod}+V`);
}

/**
 * The text of the lines the active editor currently renders (only what is scrolled into view), spaces
 * normalised. Reading it does not touch the editor, unlike editorText(): use it to wait for something
 * asynchronous (a paste goes through paste edit providers first) without cancelling it.
 */
export async function visibleText(page) {
  return page.evaluate((selector) => {
    const lines = [...document.querySelectorAll(`${selector} .view-lines .view-line`)].map((l) => /** @type {HTMLElement} */ (l));
    lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.map((l) => l.textContent.replace(/\u00a0/g, ' ')).join('\n');
  }, EDITOR);
}

/** Waits until the active editor renders `text` (a substring of one line). */
export async function waitForVisibleText(page, text, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await visibleText(page)).includes(text)) {
    if (Date.now() > deadline) {
      throw new Error(`the editor did not show ${JSON.stringify(text)} within ${timeoutMs / 1000}s`);
    }
    await page.waitForTimeout(200);
  }
}

export async function pressUndo(page) {
  await focusEditor(page);
  await page.keyboard.press(`${mod}+Z`);
}

/**
 * Polls `read()` until it returns `expected` (deep equal) or the time is up; then asserts.
 * @param {() => unknown | Promise<unknown>} read
 * @param {unknown} expected
 * @param {{ timeoutMs?: number, message?: string }} [options]
 */
export async function eventually(read, expected, { timeoutMs = 10_000, message } = {}) {
  const deadline = Date.now() + timeoutMs;
  let actual;
  for (;;) {
    actual = await read();
    try {
      assert.deepEqual(actual, expected);
      return actual;
    } catch (err) {
      if (Date.now() > deadline) {
        if (message) {
          err.message = `${message}\n${err.message}`;
        }
        throw err;
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Hides the Chat view that the workbench opens in the secondary side bar, for roomier screenshots. */
export async function closeSecondarySideBar(page) {
  if (await page.locator('.part.auxiliarybar').isVisible()) {
    await runCommand(page, 'View: Toggle Secondary Side Bar Visibility');
    await page.locator('.part.auxiliarybar').waitFor({ state: 'hidden', timeout: 10_000 });
  }
}
