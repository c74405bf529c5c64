// Code blocks in the languages whose tree-sitter grammar ships beside the first seven: C#, PHP, CSS, Ruby,
// C++ and Bash. For each, on real-looking source: a member replaced, a declaration inserted beside its
// neighbour, a name defined twice refused; and the reader is the grammar, not the outline.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet, type SnippetResult } from '../../src/core';
import { grammarFor } from '../../src/core/match/structure/languages';
import { testGrammars } from '../shared/grammars';

/** applySnippet with the shipped grammars, checking what every result keeps. */
async function apply(doc: string, code: string, languageId: string, reader: string): Promise<SnippetResult> {
  const result = await applySnippet(doc, { code, languageId }, { grammars: testGrammars, fileName: 'file', languageId });
  assert.equal(result.snippet.reader, reader, result.snippet.grammarProblem);
  if (result.status === 'applied') {
    let rebuilt = doc;
    for (const edit of [...result.edits].sort((a, b) => b.start - a.start)) {
      rebuilt = rebuilt.slice(0, edit.start) + edit.newText + rebuilt.slice(edit.end);
    }
    assert.equal(rebuilt, result.content);
    assert.ok(!/\.\.\. existing code/.test(result.content ?? ''), 'a placeholder line was written');
  } else {
    assert.equal(result.content, undefined);
  }
  return result;
}

const ACCOUNTS_CS = `using System;
using System.Collections.Generic;

namespace Bank.Accounts
{
    public record Transfer(string From, string To, decimal Amount);

    public class Ledger
    {
        private readonly Dictionary<string, decimal> _balances = new();

        public Ledger(IEnumerable<string> accounts)
        {
            foreach (var account in accounts)
            {
                _balances[account] = 0m;
            }
        }

        public decimal Balance { get; private set; }

        public void Deposit(string account, decimal amount)
        {
            _balances[account] += amount;
        }

        public bool Withdraw(string account, decimal amount)
        {
            if (_balances[account] < amount)
            {
                return false;
            }
            _balances[account] -= amount;
            return true;
        }
    }

    public struct Money
    {
        public decimal Value;

        public void Deposit(string account, decimal amount)
        {
        }
    }
}
`;

describe('C# by tree-sitter', () => {
  test('a method shown alone at column 0 replaces the method of its class, at the class depth', async () => {
    const code =
      'public bool Withdraw(string account, decimal amount)\n{\n    if (amount <= 0 || _balances[account] < amount)\n    {\n        return false;\n    }\n    _balances[account] -= amount;\n    return true;\n}';
    const result = await apply(ACCOUNTS_CS, code, 'csharp', 'csharp');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      ACCOUNTS_CS.replace('if (_balances[account] < amount)', 'if (amount <= 0 || _balances[account] < amount)'),
    );
    assert.match(result.message, /method Withdraw of class Ledger/);
  });

  test('a new method in the class skeleton goes after its neighbour', async () => {
    const code = [
      '    public class Ledger',
      '    {',
      '        // ... existing code ...',
      '        public void Deposit(string account, decimal amount)',
      '        {',
      '            _balances[account] += amount;',
      '        }',
      '',
      '        public void Close(string account)',
      '        {',
      '            _balances.Remove(account);',
      '        }',
      '        // ... existing code ...',
      '    }',
    ].join('\n');
    const result = await apply(ACCOUNTS_CS, code, 'csharp', 'csharp');
    assert.equal(result.status, 'applied', result.message);
    const deposit = '            _balances[account] += amount;\n        }\n';
    assert.equal(
      result.content,
      ACCOUNTS_CS.replace(
        deposit,
        `${deposit}\n        public void Close(string account)\n        {\n            _balances.Remove(account);\n        }\n`,
      ),
    );
  });

  test('Deposit shown alone, declared in the class and the struct, is refused', async () => {
    const result = await apply(ACCOUNTS_CS, 'public void Deposit(string account, decimal amount)\n{\n}', 'csharp', 'csharp');
    assert.equal(result.status, 'ambiguous', result.message);
  });

  test('a property and a record are declarations by name', async () => {
    const result = await apply(ACCOUNTS_CS, '    public decimal Balance { get; set; }', 'csharp', 'csharp');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, ACCOUNTS_CS.replace('Balance { get; private set; }', 'Balance { get; set; }'));
  });
});

const ORDERS_PHP = `<?php

namespace App\\Services;

use App\\Models\\Order;

class OrderService
{
    public function __construct(private Mailer $mailer)
    {
    }

    public function place(Order $order): void
    {
        $order->save();
    }

    public function cancel(Order $order): void
    {
        $order->delete();
    }
}

trait Notifies
{
    public function cancel(Order $order): void
    {
    }
}

function order_total(array $lines): int
{
    return array_sum(array_column($lines, 'price'));
}
`;

describe('PHP by tree-sitter', () => {
  test('a method shown without <?php and dedented replaces the method of its class', async () => {
    const code = 'public function place(Order $order): void\n{\n    $order->save();\n    $this->mailer->send($order);\n}';
    const result = await apply(ORDERS_PHP, code, 'php', 'php');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      ORDERS_PHP.replace('        $order->save();\n', '        $order->save();\n        $this->mailer->send($order);\n'),
    );
  });

  test('a new function after its neighbour, and the trait method told apart by its trait', async () => {
    const code = [
      '<?php',
      '// ... existing code ...',
      'function order_total(array $lines): int',
      '{',
      "    return array_sum(array_column($lines, 'price'));",
      '}',
      '',
      'function order_count(array $lines): int',
      '{',
      '    return count($lines);',
      '}',
    ].join('\n');
    const result = await apply(ORDERS_PHP, code, 'php', 'php');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, `${ORDERS_PHP}\nfunction order_count(array $lines): int\n{\n    return count($lines);\n}\n`);
    const trait =
      'trait Notifies\n{\n    public function cancel(Order $order): void\n    {\n        logger()->info("cancelled");\n    }\n}';
    const inTrait = await apply(ORDERS_PHP, trait, 'php', 'php');
    assert.equal(inTrait.status, 'applied', inTrait.message);
    assert.equal(
      inTrait.content,
      ORDERS_PHP.replace('void\n    {\n    }\n}', 'void\n    {\n        logger()->info("cancelled");\n    }\n}'),
    );
  });

  test('cancel shown alone, in the class and in the trait, is refused', async () => {
    const result = await apply(ORDERS_PHP, 'public function cancel(Order $order): void\n{\n}', 'php', 'php');
    assert.equal(result.status, 'ambiguous', result.message);
  });
});

const SITE_CSS = `:root {
  --accent: #0a7;
}

.nav a,
.nav button {
  color: var(--accent);
}

.card {
  padding: 1rem;
}

@media (max-width: 600px) {
  .card {
    padding: 0.5rem;
  }
}
`;

describe('CSS by tree-sitter', () => {
  test('a rule set is found by its selectors (the line break between them is no difference)', async () => {
    const result = await apply(SITE_CSS, '.nav a, .nav button {\n  color: var(--accent);\n  text-decoration: none;\n}', 'css', 'css');
    assert.equal(result.status, 'applied', result.message);
    const expected = SITE_CSS.replace(
      '.nav a,\n.nav button {\n  color: var(--accent);\n',
      '.nav a, .nav button {\n  color: var(--accent);\n  text-decoration: none;\n',
    );
    assert.equal(result.content, expected);
  });

  test('a rule inside @media is found within it, and a new rule goes beside its neighbour there', async () => {
    const code = '@media (max-width: 600px) {\n  .card {\n    padding: 0.25rem;\n  }\n\n  .nav {\n    display: none;\n  }\n}';
    const result = await apply(SITE_CSS, code, 'css', 'css');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      SITE_CSS.replace('    padding: 0.5rem;\n  }\n', '    padding: 0.25rem;\n  }\n\n  .nav {\n    display: none;\n  }\n'),
    );
  });

  test('.card shown alone goes to the top-level rule, not the one in @media; a selector written twice is refused', async () => {
    const result = await apply(SITE_CSS, '.card {\n  padding: 2rem;\n}', 'css', 'css');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, SITE_CSS.replace('padding: 1rem;', 'padding: 2rem;'));
    const twice = `${SITE_CSS}\n.card {\n  margin: 0;\n}\n`;
    const refused = await apply(twice, '.card {\n  padding: 2rem;\n}', 'css', 'css');
    assert.equal(refused.status, 'ambiguous', refused.message);
  });
});

const USER_RB = `module Accounts
  # A person who can sign in.
  class User
    def initialize(name, email)
      @name = name
      @email = email
    end

    def self.find_by_email(email)
      all.find { |u| u.email == email }
    end

    def email
      @email
    end
  end

  class Admin
    def email
      "admin@example.com"
    end
  end
end
`;

describe('Ruby by tree-sitter', () => {
  test('`def self.x` is its own name: replaced, and not mistaken for an instance method', async () => {
    const code = '    def self.find_by_email(email)\n      all.find { |u| u.email.casecmp?(email) }\n    end';
    const result = await apply(USER_RB, code, 'ruby', 'ruby');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, USER_RB.replace('u.email == email', 'u.email.casecmp?(email)'));
  });

  test('a new method in the class skeleton goes after its neighbour, before the `end`', async () => {
    const code = 'class User\n  # ...\n  def email\n    @email\n  end\n\n  def name\n    @name\n  end\nend';
    const result = await apply(USER_RB, code, 'ruby', 'ruby');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      USER_RB.replace('      @email\n    end\n  end\n', '      @email\n    end\n\n    def name\n      @name\n    end\n  end\n'),
    );
  });

  test("the comment under `module Accounts` is the class's own: shown with the class, it is not written twice", async () => {
    const code = '  # A person who can sign in.\n  class User\n    # ...\n    def email\n      @email.downcase\n    end\n  end';
    const result = await apply(USER_RB, code, 'ruby', 'ruby');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, USER_RB.replace('    def email\n      @email\n', '    def email\n      @email.downcase\n'));
  });

  test('email shown alone, in User and in Admin, is refused', async () => {
    const result = await apply(USER_RB, 'def email\n  @email.downcase\nend', 'ruby', 'ruby');
    assert.equal(result.status, 'ambiguous', result.message);
  });
});

const SHAPES_CPP = `#include <cmath>

namespace geo {

class Circle {
public:
    explicit Circle(double r) : radius_(r) {}
    double area() const;
    double perimeter() const { return 2 * M_PI * radius_; }

private:
    double radius_;
};

double Circle::area() const
{
    return M_PI * radius_ * radius_;
}

double area(double w, double h)
{
    return w * h;
}

}  // namespace geo
`;

describe('C++ by tree-sitter', () => {
  test('an out-of-class definition `Circle::area` is named so: replaced, apart from the free function area', async () => {
    const code = 'double Circle::area() const\n{\n    return M_PI * std::pow(radius_, 2);\n}';
    const result = await apply(SHAPES_CPP, code, 'cpp', 'cpp');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, SHAPES_CPP.replace('M_PI * radius_ * radius_', 'M_PI * std::pow(radius_, 2)'));
  });

  test('a method inside its class skeleton, and a new free function after its neighbour in the namespace', async () => {
    const inClass =
      'class Circle {\n    // ... existing code ...\n    double perimeter() const { return M_PI * 2 * radius_; }\n    // ... existing code ...\n};';
    const result = await apply(SHAPES_CPP, inClass, 'cpp', 'cpp');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, SHAPES_CPP.replace('2 * M_PI * radius_', 'M_PI * 2 * radius_'));
    const added = 'double area(double w, double h)\n{\n    return w * h;\n}\n\ndouble square(double s)\n{\n    return s * s;\n}';
    const inserted = await apply(SHAPES_CPP, added, 'cpp', 'cpp');
    assert.equal(inserted.status, 'applied', inserted.message);
    assert.equal(
      inserted.content,
      SHAPES_CPP.replace('    return w * h;\n}\n', '    return w * h;\n}\n\ndouble square(double s)\n{\n    return s * s;\n}\n'),
    );
  });

  test('a name defined twice (an overload written twice) is refused', async () => {
    const doc = 'int clamp(int v)\n{\n    return v;\n}\n\nint clamp(int v)\n{\n    return v < 0 ? 0 : v;\n}\n';
    const result = await apply(doc, 'int clamp(int v)\n{\n    return v > 9 ? 9 : v;\n}', 'cpp', 'cpp');
    assert.equal(result.status, 'ambiguous', result.message);
  });
});

const DEPLOY_SH = `#!/usr/bin/env bash
set -euo pipefail

log() {
  echo "[deploy] $*"
}

build() {
  npm ci
  npm run build
}

main() {
  build
  log "done"
}

main "$@"
`;

describe('Bash by tree-sitter', () => {
  test('a function replaced, and a new one inserted after its neighbour', async () => {
    const result = await apply(DEPLOY_SH, 'build() {\n  npm ci\n  npm test\n  npm run build\n}', 'shellscript', 'bash');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, DEPLOY_SH.replace('  npm ci\n', '  npm ci\n  npm test\n'));
    const code = 'log() {\n  echo "[deploy] $*"\n}\n\nwarn() {\n  echo "[deploy] warning: $*" >&2\n}';
    const inserted = await apply(DEPLOY_SH, code, 'shellscript', 'bash');
    assert.equal(inserted.status, 'applied', inserted.message);
    assert.equal(
      inserted.content,
      DEPLOY_SH.replace('"[deploy] $*"\n}\n', '"[deploy] $*"\n}\n\nwarn() {\n  echo "[deploy] warning: $*" >&2\n}\n'),
    );
  });

  test('a function defined twice is refused', async () => {
    const doc = `${DEPLOY_SH}\nlog() {\n  printf '%s\\n' "$*"\n}\n`;
    const result = await apply(doc, 'log() {\n  echo "$*" >&2\n}', 'shellscript', 'bash');
    assert.equal(result.status, 'ambiguous', result.message);
  });
});

describe('which grammar reads a file', () => {
  test('by language id and by extension; C and headers read as C++; SCSS and others stay with the outline', () => {
    const ids = (languageId: string | undefined, fileName?: string) => grammarFor(languageId, fileName)?.id;
    assert.deepEqual(
      [ids('csharp'), ids('php'), ids('css'), ids('ruby'), ids('cpp'), ids('shellscript')],
      ['csharp', 'php', 'css', 'ruby', 'cpp', 'bash'],
    );
    assert.deepEqual(
      [ids(undefined, 'a.cs'), ids(undefined, 'a.php'), ids(undefined, 'a.rb'), ids(undefined, 'a.hpp'), ids(undefined, 'a.sh')],
      ['csharp', 'php', 'ruby', 'cpp', 'bash'],
    );
    assert.deepEqual([ids('c'), ids(undefined, 'a.c'), ids(undefined, 'a.h'), ids('c', 'a.h')], ['cpp', 'cpp', 'cpp', 'cpp']);
    assert.deepEqual([ids('scss'), ids(undefined, 'a.kt')], [undefined, undefined]);
  });
});
