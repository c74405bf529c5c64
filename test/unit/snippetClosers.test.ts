// The closing braces a block's last line, a placeholder, leaves out (closeAfterLastPlaceholder): added only
// when the placeholder sits deeper than every line that opened a brace, depth counted in columns with tab
// stops, as the rest of the code-block path counts them (columnsOf).
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { closeAfterLastPlaceholder } from '../../src/core/decide/snippetClosers';

describe('closeAfterLastPlaceholder', () => {
  test("a function whose body ends with a placeholder gets its closing brace, at the opener's indentation", () => {
    const closed = closeAfterLastPlaceholder(['  function f() {', '    one();', '    // ... existing code ...'], [false, false, true]);
    assert.deepEqual(closed?.lines, ['  function f() {', '    one();', '    // ... existing code ...', '  }']);
    assert.deepEqual(closed?.implied, [false, false, false, true]);
  });

  test("a placeholder at the opener's own depth is not the rest of its body: nothing is closed", () => {
    assert.equal(closeAfterLastPlaceholder(['function f() {', '  one();', '// ... existing code ...'], [false, false, true]), undefined);
  });

  test('mixed tabs and spaces: depth is columns with tab stops ("  \\t" is column 4, "\\t " column 5)', () => {
    // By tab stops the placeholder (column 5) is inside the `if` (column 4); counting a tab as four more
    // columns wherever it stands would put the `if` at column 6 and leave its brace unclosed.
    const closed = closeAfterLastPlaceholder(['  \tif (x) {', '\t // ... existing code ...'], [false, true]);
    assert.deepEqual(closed?.lines, ['  \tif (x) {', '\t // ... existing code ...', '  \t}']);
    // And the other way: "\t  " (column 6) opens, a placeholder at "    \t" (column 8) is inside it.
    assert.deepEqual(closeAfterLastPlaceholder(['\t  if (x) {', '    \t// ...'], [false, true])?.lines.at(-1), '\t  }');
    // A placeholder at column 4 ("  \t") under an opener at column 4 ("    ") is at its depth: not closed.
    assert.equal(closeAfterLastPlaceholder(['    if (x) {', '  \t// ...'], [false, true]), undefined);
  });
});
