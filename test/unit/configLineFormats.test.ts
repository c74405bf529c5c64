// .env, .ini, .editorconfig and .properties snippets merged by key (src/core/config/lineFormats.ts), on
// a real .editorconfig from node_modules and realistic .env, setup.cfg and .properties fixtures.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mergeEditorconfig, mergeEnv, mergeIni, mergeProperties } from '../../src/core/config/lineFormats';
import type { ConfigMergeResult } from '../../src/core/config/types';

const ROOT = path.resolve(__dirname, '../../..');
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const env = read('test/fixtures/config/app.env');
const setupCfg = read('test/fixtures/config/setup.cfg');
const properties = read('test/fixtures/config/messages.properties');
const editorconfig = read('node_modules/qs/.editorconfig');

function merged(result: ConfigMergeResult): Extract<ConfigMergeResult, { kind: 'merged' }> {
  assert.equal(result.kind, 'merged', result.kind === 'refused' ? result.message : '');
  return result as Extract<ConfigMergeResult, { kind: 'merged' }>;
}

const refusal = (result: ConfigMergeResult) => (result.kind === 'refused' ? result : assert.fail(`merged: ${JSON.stringify(result)}`));

test('.env: a key shown is set in place (export and a trailing comment kept), a new key goes after the one before it', () => {
  const result = merged(mergeEnv(env, 'export DATABASE_URL="postgres://shop:secret@db:5432/shop"\nDATABASE_POOL=10\nDATABASE_SSL=true\n'));
  assert.equal(
    result.text,
    env
      .replace(
        'export DATABASE_URL="postgres://shop:shop@localhost:5432/shop"',
        'export DATABASE_URL="postgres://shop:secret@db:5432/shop"',
      )
      .replace('DATABASE_POOL=5 # connections\n', 'DATABASE_POOL=10 # connections\nDATABASE_SSL=true\n'),
  );
  assert.deepEqual(
    result.changes.map((c) => [c.path.join('.'), c.action, c.line]),
    [
      ['DATABASE_URL', 'set', 6],
      ['DATABASE_POOL', 'set', 7],
      ['DATABASE_SSL', 'added', 8],
    ],
  );
  assert.deepEqual(result.kept, [{ path: [], keys: ['NODE_ENV', 'PORT', 'FEATURE_CHECKOUT_V2'] }]);
});

test('.env: quoting alone is no change; a placeholder line stands for the keys kept; CRLF kept', () => {
  const crlf = env.replace(/\n/g, '\r\n');
  const result = merged(mergeEnv(crlf, "NODE_ENV='development'\n# ...\nFEATURE_CHECKOUT_V2=true\n"));
  assert.equal(result.text, crlf.replace('FEATURE_CHECKOUT_V2=false', 'FEATURE_CHECKOUT_V2=true'));
  assert.equal(result.changes[0].action, 'unchanged');
});

test('.editorconfig: a section shown gets its keys set and new ones after its last key; a new section goes at the end', () => {
  const result = merged(mergeEditorconfig(editorconfig, '[*]\nindent_size = 2\n\n[*.yml]\nindent_size = 2\n'));
  const expected = `${editorconfig.replace('[*]\nindent_style = space\nindent_size = 4', '[*]\nindent_style = space\nindent_size = 2')}\n[*.yml]\nindent_size = 2\n`;
  assert.equal(result.text, expected);
});

test('.ini: a snippet without a header is set in the one section that has its key; two sections: refused naming them', () => {
  const one = merged(mergeIni(setupCfg, 'max-line-length = 120\n'));
  assert.equal(one.text, setupCfg.replace('max-line-length = 100', 'max-line-length = 120'));
  const two = refusal(mergeIni('[a]\nx = 1\n[b]\nx = 2\n', 'x = 3\n'));
  assert.equal(two.reason, 'ambiguous');
  assert.match(two.message, /fits 2 sections: \[a\], \[b\]/);
  assert.deepEqual(
    two.places?.map((p) => p.line),
    [1, 3],
  );
});

test('.ini: a value continued on indented lines (setup.cfg) is one value, replaced whole', () => {
  const result = merged(mergeIni(setupCfg, '[options]\ninstall_requires =\n    requests>=2.32\n    click>=8\n'));
  assert.equal(
    result.text,
    setupCfg.replace('install_requires =\n    requests>=2.31', 'install_requires =\n    requests>=2.32\n    click>=8'),
  );
});

test('.properties: key=value, key: value and a value continued with a backslash', () => {
  const result = merged(
    mergeProperties(properties, 'checkout.total: Order total\ncheckout.terms=You accept our terms\ncheckout.coupon=Coupon code\n'),
  );
  assert.equal(
    result.text,
    properties
      .replace('checkout.total: Total', 'checkout.total: Order total')
      .replace(
        'checkout.terms=By placing the order you accept \\\n    our terms and conditions',
        'checkout.terms=You accept our terms\ncheckout.coupon=Coupon code',
      ),
  );
});

test('line formats: a line that is no key = value is refused with its line', () => {
  const result = refusal(mergeEnv(env, 'PORT=3001\nthis is not a variable\n'));
  assert.equal(result.reason, 'invalid-snippet');
  assert.match(result.message, /line 2, column 1/);
});

test('line formats: a snippet showing only what the file has leaves it byte for byte', () => {
  assert.equal(merged(mergeEditorconfig(editorconfig, '[*.md]\nmax_line_length = off\n')).text, editorconfig);
  assert.equal(merged(mergeProperties(properties, 'payment.card=Card\n')).text, properties);
});
