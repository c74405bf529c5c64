// Which configuration format a file is: by its name first (settings.json, tsconfig.*.json, .eslintrc, .env),
// then VS Code's language id, then the extension when the language is unknown (the CLI says 'plaintext').
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { configFormatOf } from '../../src/core/config/configFormats';

test('JSON with comments by name, whatever the language id says', () => {
  for (const name of [
    '.vscode/settings.json',
    'launch.json',
    'tsconfig.json',
    'packages/a/tsconfig.build.json',
    'tsconfig-base.json',
    'jsconfig.json',
    '.eslintrc',
    '.eslintrc.json',
    'C:\\repo\\.vscode\\tasks.json',
    'x.jsonc',
  ]) {
    assert.equal(configFormatOf(name, 'json'), 'jsonc', name);
    assert.equal(configFormatOf(name, 'plaintext'), 'jsonc', name);
  }
});

test('plain JSON, YAML, TOML and the line formats by language id or extension', () => {
  assert.equal(configFormatOf('package.json', 'json'), 'json');
  assert.equal(configFormatOf('package.json', 'plaintext'), 'json');
  assert.equal(configFormatOf('package.json'), 'json');
  assert.equal(configFormatOf('.github/workflows/ci.yml', 'yaml'), 'yaml');
  assert.equal(configFormatOf('compose.yaml', 'dockercompose'), 'yaml');
  assert.equal(configFormatOf('.eslintrc.yml', 'plaintext'), 'yaml');
  assert.equal(configFormatOf('Cargo.toml', 'plaintext'), 'toml');
  assert.equal(configFormatOf('pyproject.toml', 'toml'), 'toml');
  assert.equal(configFormatOf('.env', 'plaintext'), 'env');
  assert.equal(configFormatOf('.env.local', 'shellscript'), 'env');
  assert.equal(configFormatOf('prod.env'), 'env');
  assert.equal(configFormatOf('setup.cfg'), 'ini');
  assert.equal(configFormatOf('php.ini', 'ini'), 'ini');
  assert.equal(configFormatOf('app.properties', 'plaintext'), 'properties');
  assert.equal(configFormatOf('.editorconfig', 'plaintext'), 'editorconfig');
});

test('code files are no configuration files, even when named like one', () => {
  assert.equal(configFormatOf('src/cart.ts', 'typescript'), undefined);
  assert.equal(configFormatOf('.eslintrc.js', 'javascript'), undefined);
  assert.equal(configFormatOf('data.json', 'javascript'), undefined);
  assert.equal(configFormatOf('README.md', 'markdown'), undefined);
  assert.equal(configFormatOf(undefined, undefined), undefined);
  assert.equal(configFormatOf('Makefile', 'plaintext'), undefined);
});

test("VS Code's 'properties' language: .properties files only, .cfg as INI; nginx.conf and .gitconfig are not merged by key", () => {
  assert.equal(configFormatOf('src/main/resources/application.properties', 'properties'), 'properties');
  assert.equal(configFormatOf('setup.cfg', 'properties'), 'ini');
  assert.equal(configFormatOf('/etc/nginx/nginx.conf', 'properties'), undefined);
  assert.equal(configFormatOf('.gitconfig', 'properties'), undefined);
  assert.equal(configFormatOf('.gitattributes', 'properties'), undefined);
  assert.equal(configFormatOf('.editorconfig', 'properties'), 'editorconfig');
  assert.equal(configFormatOf('.env', 'properties'), 'env');
});
