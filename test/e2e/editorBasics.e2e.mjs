// @ts-check
// The workbench basics every UI test builds on: open a file, type, paste, read the text back, undo.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  closeSecondarySideBar,
  editorText,
  focusEditor,
  goToLine,
  mod,
  openFile,
  paste,
  pressUndo,
  waitForVisibleText,
} from './workbench.mjs';

export const title = 'open a tab-indented file, type and paste, read it back, undo both';

export default async function ({ page, workspace, screenshot }) {
  const file = 'server/handler.go';
  const onDisk = fs.readFileSync(path.join(workspace, file), 'utf8');

  await closeSecondarySideBar(page);
  await openFile(page, file);
  assert.equal(await editorText(page), onDisk, 'the editor does not show the file as it is on disk');

  // Type a line above the first one (open the line first: Enter after a comment would continue it).
  await goToLine(page, 1);
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.type('// Edited in the UI test.');
  const typed = `// Edited in the UI test.\n${onDisk}`;
  assert.equal(await editorText(page), typed);

  // Paste a tab-indented function at the end (editorText left the cursor there).
  const pasted = 'func ping() string {\n\treturn "pong"\n}\n';
  await paste(page, pasted);
  // Pasting is asynchronous (paste edit providers, ours included, get asked first); touching the editor
  // before it lands would cancel it.
  await waitForVisibleText(page, 'return "pong"');
  const afterPaste = typed + pasted;
  assert.equal(await editorText(page), afterPaste, 'the pasted text (tabs included) did not arrive verbatim');
  await goToLine(page, afterPaste.split('\n').length - 3);
  await screenshot('typed-and-pasted');

  // One undo takes back the whole paste; typing took several undo stops (VS Code splits it by words).
  await pressUndo(page);
  assert.equal(await editorText(page), typed, 'one undo did not revert the paste');
  let text = typed;
  for (let i = 0; i < 20 && text !== onDisk; i++) {
    await pressUndo(page);
    text = await editorText(page);
  }
  assert.equal(text, onDisk, 'undo did not restore the original text');
  await focusEditor(page);
  await page.keyboard.press(`${mod}+Home`);
  await screenshot('restored');

  // Nothing was saved: the file on disk is untouched.
  assert.equal(fs.readFileSync(path.join(workspace, file), 'utf8'), onDisk);
}
