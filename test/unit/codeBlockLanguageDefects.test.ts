// Issue 25, "the defects found", the language and structure ones: each reproduced on code written for it
// (a test per defect), applied through applySnippet with the shipped grammars and compared byte for byte,
// or refused with a reason a model can act on.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocksAsync, applySnippet, recognisePlaceholder, type SnippetResult } from '../../src/core';
import { testGrammars } from '../shared/grammars';

async function apply(doc: string, code: string, fileName: string): Promise<SnippetResult> {
  const result = await applySnippet(doc, { code, fileName }, { grammars: testGrammars, fileName });
  if (result.status === 'applied') {
    let rebuilt = doc;
    for (const edit of [...result.edits].sort((a, b) => b.start - a.start)) {
      rebuilt = rebuilt.slice(0, edit.start) + edit.newText + rebuilt.slice(edit.end);
    }
    assert.equal(rebuilt, result.content);
  }
  return result;
}

/** The document with line `at` (1-based) replaced by `lines`. */
function withLines(doc: string, at: number, count: number, lines: string[]): string {
  const all = doc.split('\n');
  all.splice(at - 1, count, ...lines);
  return all.join('\n');
}

const TICKER_JS = `const DEFAULT_INTERVAL = 1000;

function makeTicker(callback, interval = DEFAULT_INTERVAL) {
  let count = 0;
  let timer = null;

  function tick() {
    count += 1;
    callback(count);
  }

  return {
    start() {
      timer = setInterval(tick, interval);
    },
    stop() {
      clearInterval(timer);
    },
  };
}

module.exports = { makeTicker };
`;

const CONSOLE_PY = `import os
import sys


def clear_screen():
    os.system("cls" if os.name == "nt" else "clear")


if sys.platform == "win32":
    class Console:
        def __init__(self, stream):
            self.stream = stream

        def write(self, text):
            self.stream.write(text.replace("\\n", "\\r\\n"))


def make_console():
    class Recorder:
        def __init__(self):
            self.lines = []

        def write(self, text):
            self.lines.append(text)

    return Recorder()
`;

const RESPONSE_JS = `'use strict';

var res = Object.create(http.ServerResponse.prototype);

/**
 * Set cookie \`name\` to \`value\`.
 */
res.cookie = function (name, value, options) {
  var opts = { ...options };
  var val = String(value);

  if (opts.path == null) {
    opts.path = '/';
  }

  this.append('Set-Cookie', serialize(name, val, opts));
  return this;
};

/**
 * Set the location header to \`url\`.
 */
res.location = function location(url) {
  return this.set('Location', encodeurl(url));
};

function Router() {}

Router.prototype.route = function route(path) {
  return new Route(path);
};

module.exports = res;
`;

describe('declarations the outline did not list', () => {
  test('a function inside a function, a class inside `if` and inside a function; JS methods assigned to members', async () => {
    const tick = await apply(
      TICKER_JS,
      '  function tick() {\n    count += 1;\n    if (count % 10 === 0) console.log(count);\n    callback(count);\n  }',
      'ticker.js',
    );
    assert.equal(tick.status, 'applied', tick.message);
    assert.equal(tick.content, withLines(TICKER_JS, 9, 0, ['    if (count % 10 === 0) console.log(count);']));
    assert.match(tick.message, /function tick of function makeTicker/);

    // Shown dedented, as models write a nested declaration: written at its depth in the file.
    const win = await apply(
      CONSOLE_PY,
      'class Console:\n    def __init__(self, stream):\n        self.stream = stream\n\n    def write(self, text):\n        self.stream.write(text.replace("\\n", "\\r\\n"))\n        self.stream.flush()',
      'console.py',
    );
    assert.equal(win.status, 'applied', win.message);
    assert.equal(win.content, withLines(CONSOLE_PY, 16, 0, ['            self.stream.flush()']));

    const local = await apply(
      CONSOLE_PY,
      'class Recorder:\n    def __init__(self):\n        self.lines = []\n\n    def write(self, text):\n        self.lines.append(text.rstrip())',
      'console.py',
    );
    assert.equal(local.status, 'applied', local.message);
    assert.equal(local.content, withLines(CONSOLE_PY, 24, 1, ['            self.lines.append(text.rstrip())']));

    // The assigned method with placeholders: its `};` is its own, not a line of some later declaration.
    const cookie = await apply(
      RESPONSE_JS,
      "res.cookie = function (name, value, options) {\n  // ... existing code ...\n  if (opts.path == null) {\n    opts.path = '/';\n  }\n\n  if (opts.partitioned) {\n    opts.secure = true;\n  }\n  // ... existing code ...\n};",
      'response.js',
    );
    assert.equal(cookie.status, 'applied', cookie.message);
    assert.equal(cookie.content, withLines(RESPONSE_JS, 15, 0, ['', '  if (opts.partitioned) {', '    opts.secure = true;', '  }']));

    const route = await apply(
      RESPONSE_JS,
      'Router.prototype.route = function route(path) {\n  return new Route(path, this);\n};',
      'response.js',
    );
    assert.equal(route.status, 'applied', route.message);
    assert.equal(route.content, withLines(RESPONSE_JS, 30, 1, ['  return new Route(path, this);']));
    assert.match(route.message, /method Router\.prototype\.route/);
  });
});

const BROKEN_JS = `function greet(name) {
  return 'Hello, ' + name + '!;
}

function farewell(name) {
  return 'Goodbye, ' + name;
}

function shout(text) {
  return text.toUpperCase();
}
`;

const BROKEN_PY = `import json


def load(path):
    with open(path) as handle:
        return json.load(handle


def save(path, data):
    with open(path, "w") as handle:
        json.dump(data, handle)


def describe(data):
    return ", ".join(sorted(data))
`;

const UNCLOSED_TS = `export class Cart {
  private items: string[] = [];

  add(item: string): void {
    if (item) {
      this.items.push(item);
  }

  count(): number {
    return this.items.length;
  }
}

export function total(cart: Cart): number {
  return cart.count();
}
`;

describe('a file that does not parse', () => {
  test('where the parse went wrong, the indentation outline reads the declarations', async () => {
    // An unterminated string: tree-sitter reads the whole file as one broken expression.
    const farewell = await apply(BROKEN_JS, "function farewell(name) {\n  return 'Goodbye, ' + name + '.';\n}", 'broken.js');
    assert.equal(farewell.status, 'applied', farewell.message);
    assert.equal(farewell.content, withLines(BROKEN_JS, 6, 1, ["  return 'Goodbye, ' + name + '.';"]));

    // An unclosed bracket: tree-sitter reads `save` as statements of `load`.
    const save = await apply(
      BROKEN_PY,
      'def save(path, data):\n    with open(path, "w") as handle:\n        json.dump(data, handle, indent=2)',
      'broken.py',
    );
    assert.equal(save.status, 'applied', save.message);
    assert.equal(save.content, withLines(BROKEN_PY, 11, 1, ['        json.dump(data, handle, indent=2)']));

    // A `}` missing in a method: the class and the function after it keep their own names and lines.
    const count = await apply(UNCLOSED_TS, '  count(): number {\n    return this.items.length + 0;\n  }', 'cart.ts');
    assert.equal(count.status, 'applied', count.message);
    assert.equal(count.content, withLines(UNCLOSED_TS, 10, 1, ['    return this.items.length + 0;']));
    assert.match(count.message, /method count of class Cart/);
    const total = await apply(UNCLOSED_TS, 'export function total(cart: Cart): number {\n  return cart.count() * 2;\n}', 'cart.ts');
    assert.equal(total.status, 'applied', total.message);
    assert.equal(total.content, withLines(UNCLOSED_TS, 15, 1, ['  return cart.count() * 2;']));
    assert.doesNotMatch(total.message, /of class Cart/);
  });
});

const CONFIG_H = `#ifndef APP_CONFIG_H
#define APP_CONFIG_H

#include <string>
#include <vector>

namespace app {
namespace config {

struct Settings {
    std::string name;
    int retries = 3;
    bool verbose = false;
    std::vector<std::string> paths;
};

inline int defaultRetries() {
    return 3;
}

}  // namespace config
}  // namespace app

#endif
`;

const LEDGER_CS = `using System;

namespace Bank.Accounts
{
    public class Ledger
    {
        private readonly Dictionary<string, decimal> _balances = new();
        private int _limit = 100;

        public decimal Balance { get; private set; }

        public void Deposit(string account, decimal amount)
        {
            _balances[account] += amount;
        }
    }
}
`;

const LEDGER_PHP = `<?php

namespace App;

class Ledger
{
    private array $balances = [];
    private int $limit = 100;
    public const MAX = 3;

    public function deposit(string $account, int $amount): void
    {
        $this->balances[$account] += $amount;
    }
}
`;

describe('C, C++, C# and PHP', () => {
  test('a .h header reads as C++ (through its include guard); fields of C++, C# and PHP are declarations', async () => {
    for (const fileName of ['config.h', 'config.hpp']) {
      const field = await apply(
        CONFIG_H,
        'namespace app {\nnamespace config {\n\nstruct Settings {\n    // ... existing code ...\n    int retries = 5;\n    // ... existing code ...\n};\n\n}  // namespace config\n}  // namespace app',
        fileName,
      );
      assert.equal(field.status, 'applied', field.message);
      assert.equal(field.snippet.reader, 'cpp');
      assert.equal(field.content, withLines(CONFIG_H, 12, 1, ['    int retries = 5;']));
    }
    const fn = await apply(CONFIG_H, 'inline int defaultRetries() {\n    return 5;\n}', 'config.h');
    assert.equal(fn.status, 'applied', fn.message);
    assert.equal(fn.content, withLines(CONFIG_H, 18, 1, ['    return 5;']));

    const cs = await apply(
      LEDGER_CS,
      'public class Ledger\n{\n    // ... existing code ...\n    private int _limit = 250;\n    // ... existing code ...\n    public decimal Balance { get; set; }\n    // ... existing code ...\n}',
      'Ledger.cs',
    );
    assert.equal(cs.status, 'applied', cs.message);
    assert.equal(
      cs.content,
      withLines(withLines(LEDGER_CS, 8, 1, ['        private int _limit = 250;']), 10, 1, ['        public decimal Balance { get; set; }']),
    );

    const php = await apply(
      LEDGER_PHP,
      'class Ledger\n{\n    // ... existing code ...\n    private int $limit = 250;\n    public const MAX = 5;\n    // ... existing code ...\n}',
      'Ledger.php',
    );
    assert.equal(php.status, 'applied', php.message);
    assert.equal(php.content, withLines(LEDGER_PHP, 8, 2, ['    private int $limit = 250;', '    public const MAX = 5;']));
  });
});

const POLL_PY = `import time


def poll(entries, last_poll):
    changed = []
    for entry in entries:
        # entries that are unchanged since the last poll are skipped
        if entry.mtime <= last_poll:
            continue
        changed.append(entry)
    return changed
`;

describe('a comment that contains a placeholder word', () => {
  test('is text unless the whole comment is a placeholder: code blocks and SEARCH/REPLACE write it', async () => {
    for (const line of [
      '# entries that are unchanged since the last poll are skipped',
      '// check if the hash is the same as the stored one',
      '# return the value as is when it is already a string',
      '// parse headers, cookies, etc. before routing the request',
    ]) {
      assert.equal(recognisePlaceholder(line), undefined, line);
    }
    for (const line of ['# rest unchanged', '// ... existing code ...', '// render method unchanged', '# handleClick stays the same']) {
      assert.ok(recognisePlaceholder(line), line);
    }
    const edited = withLines(POLL_PY, 7, 1, ['        # entries that are unchanged since the last sync are skipped']);
    const block = await apply(POLL_PY, edited.split('\n').slice(3, 11).join('\n'), 'poll.py');
    assert.equal(block.status, 'applied', block.message);
    assert.equal(block.content, edited);

    const search = POLL_PY.split('\n').slice(5, 8).join('\n');
    const replace = edited.split('\n').slice(5, 8).join('\n');
    const blocks = await applyBlocksAsync(POLL_PY, [{ index: 1, search, replace, sourceLine: 1 }], { fileName: 'poll.py' });
    assert.equal(blocks.status, 'applied', blocks.message);
    assert.equal(blocks.content, edited);
  });
});

const DOOR_CS = `using System;
using System.Collections;
using UnityEngine;

public class Door : MonoBehaviour
{
    /// <summary>
    /// Opens the door when the player is near.
    /// The door stays open for <see cref="openTime"/> seconds,
    /// then closes on its own unless the player is still inside.
    /// </summary>
    public void Open()
    {
        StartCoroutine(OpenRoutine());
    }
}
`;

describe('sketches applied as edits', () => {
  test('a prose first line, a note appended to a line of the file, a doc comment cut short: refused, naming what looked unintended', async () => {
    const prose = await apply(
      DOOR_CS,
      'Current usings in Door.cs:\nusing System;\nusing System.Collections;\nusing UnityEngine;\nusing UnityEngine.Events;',
      'Door.cs',
    );
    assert.equal(prose.status, 'invalid', prose.message);
    assert.match(prose.message, /line 1 of the code block \("Current usings in Door\.cs:"\) is prose/);

    const note = await apply(
      DOOR_CS,
      'using System;\nusing System.Collections;  // this using is needed\nusing UnityEngine;\nusing UnityEngine.Events;',
      'Door.cs',
    );
    assert.equal(note.status, 'invalid', note.message);
    assert.match(note.message, /line 2 of the code block is a line of the file with a note added \("this using is needed"\)/);

    const shortened = await apply(
      DOOR_CS,
      '    /// <summary>\n    /// Opens the door when the player is near.\n    /// </summary>\n    public void Open()\n    {\n        StartCoroutine(OpenRoutine());\n        onOpened.Invoke();\n    }',
      'Door.cs',
    );
    assert.equal(shortened.status, 'invalid', shortened.message);
    assert.match(shortened.message, /3 of the 5 lines of the comment above method Open/);

    // The same block with the whole comment, or a new trailing comment on a changed line, applies.
    const whole = await apply(
      DOOR_CS,
      DOOR_CS.split('\n').slice(6, 15).join('\n').replace('OpenRoutine());', 'OpenRoutine());  // starts the timer'),
      'Door.cs',
    );
    assert.equal(whole.status, 'applied', whole.message);
  });
});
