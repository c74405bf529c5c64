// @ts-check
// Lint rules that keep the architecture and the style honest (issue 11). `npm run lint` runs it and
// `npm test` runs that first. Type-aware rules use tsconfig.json through the project service.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      '*.vsix',
      'test-results/**',
      'demo/**',
      'test/property/fixtures/**',
      'test/stub-model/extension.js',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test() and describe() return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The engine runs in Node and in a browser worker: no VS Code API, no Node built-ins.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core is pure: VS Code adapters live in src/extension.' }],
          patterns: [
            { group: ['node:*'], message: 'src/core runs in a browser worker too: no Node built-ins.' },
            {
              group: ['fs', 'path', 'os', 'child_process', 'crypto', 'util', 'buffer', 'stream'],
              message: 'src/core runs in a browser worker too: no Node built-ins.',
            },
            { group: ['../extension/*', '../node/*', '../cli'], message: 'src/core must not depend on the adapters.' },
          ],
        },
      ],
    },
  },
  {
    // The adapters also run in the web worker extension host: Node built-ins only in src/extension/node/,
    // which the Node entry point (desktop.ts) alone hands in.
    files: ['src/extension/**/*.ts'],
    ignores: ['src/extension/node/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'src/extension runs in the web worker too: Node-only code lives in src/extension/node/.' },
            { group: ['../node/*', '../../node/*', '../cli'], message: 'the editor adapters do not use the CLI.' },
          ],
        },
      ],
    },
  },
  {
    // The CLI's file handling never reaches into the editor adapters.
    files: ['src/node/**/*.ts', 'src/cli.ts', 'src/cliLoader.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the CLI runs without VS Code.' }],
          patterns: [{ group: ['**/extension/*'], message: 'the CLI must not depend on the editor adapters.' }],
        },
      ],
    },
  },
);
