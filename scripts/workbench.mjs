// @ts-check
// Drives the VS Code web workbench served by scripts/vscodeServer.mjs with playwright-core and the
// system's Chromium (Debian's `chromium` package; no browser download).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Absolute path of a Chromium binary: $CHROMIUM_PATH, else the first of the usual names on PATH. */
export function findChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (!fs.existsSync(process.env.CHROMIUM_PATH)) {
      throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`);
    }
    return process.env.CHROMIUM_PATH;
  }
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim()) {
      return found.stdout.trim();
    }
  }
  return null;
}

export async function launchBrowser({ headless = true } = {}) {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error('no Chromium found on PATH (Debian: apt-get install -y chromium; or set CHROMIUM_PATH)');
  }
  return chromium.launch({ executablePath, headless, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** The pid of the browser process (its process group, as playwright starts it detached). */
export function browserPid(browser) {
  return browser?.process?.()?.pid;
}

/**
 * Opens the workbench at `url` in a fresh browser context (fresh IndexedDB, so no state leaks between
 * sessions). `onExit(code)` receives the status the workbench reports through codeAutomationExit when an
 * extensionTestsPath run ends; `onConsole(text, type)` every console message of the page, which includes
 * the extension host's console output.
 * @param {import('playwright-core').Browser} browser
 * @param {{ url: string, onExit?: (code: number, logs?: Array<{ relativePath: string, contents: string }>) => void,
 *   onConsole?: (text: string, type: string) => void, onLog?: (level: number, message: string) => void,
 *   viewport?: { width: number, height: number } }} options
 */
export async function openWorkbench(browser, { url, onExit, onConsole, onLog, viewport = { width: 1440, height: 900 } }) {
  const context = await browser.newContext({
    viewport,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const origin = new URL(url).origin;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  // Must be exposed before the workbench loads: it looks for these functions on window.
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    onExit?.(code, logs);
  });
  await page.exposeFunction('codeAutomationLog', (level, message) => {
    onLog?.(level, message);
  });
  if (onConsole) {
    page.on('console', (msg) => onConsole(msg.text(), msg.type()));
    page.on('pageerror', (err) => onConsole(`pageerror: ${err.stack ?? err.message}`, 'error'));
  }
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  return { context, page };
}

/**
 * Waits until the workbench has restored (editors, views and contributions), using the smoke-test driver
 * the server exposes with --enable-smoke-test-driver.
 */
export async function waitForWorkbench(page, timeoutMs = 90_000) {
  await page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
  // The smoke-test driver the server exposes on window (not in the DOM typings).
  await page.waitForFunction(() => typeof (/** @type {any} */ (window).driver?.whenWorkbenchRestored) === 'function', null, {
    timeout: timeoutMs,
  });
  await page.evaluate(() => /** @type {any} */ (window).driver.whenWorkbenchRestored());
}
