// @ts-check
// Lint rules that keep the architecture and the style honest (issue 11). `npm run lint` runs it and
// `npm test` runs that first. Type-aware rules use tsconfig.json through the project service.
import tseslint from 'typescript-eslint';

/** Outside core, the engine is reached through its public surface, src/core/index.ts, never a file inside it. */
const CORE_SURFACE_ONLY = {
  regex: '(^|/)core/.',
  message: "import core through its public surface ('../core', src/core/index.ts); add what you need there.",
};

/** Core runs in Node and in a browser worker: no VS Code API, no Node built-ins, no adapters. */
const CORE_NO_VSCODE = { name: 'vscode', message: 'src/core is pure: VS Code adapters live in src/extension.' };
const CORE_PURE_PATTERNS = [
  { group: ['node:*'], message: 'src/core runs in a browser worker too: no Node built-ins.' },
  {
    group: ['fs', 'path', 'os', 'child_process', 'crypto', 'util', 'buffer', 'stream'],
    message: 'src/core runs in a browser worker too: no Node built-ins.',
  },
  { regex: '(^|/)(extension|node|cli)(/|$)', message: 'src/core must not depend on the adapters.' },
];

/** The folders of src/core in the order of the data path; each may import only the ones before it. */
export const CORE_LAYERS = ['formats', 'match', 'decide', 'write', 'report', 'config', 'batch'];

/** One no-restricted-imports rule per folder of core: no import of a later folder, of engine.ts or of index.ts. */
function coreLayerRules() {
  return CORE_LAYERS.map((layer, i) => {
    const later = CORE_LAYERS.slice(i + 1);
    // engine.ts sits between config/ and batch/: batch/ may run it, the folders before it may not.
    const banned = layer === 'batch' ? [] : [...later, 'engine'];
    return {
      files: [`src/core/${layer}/**/*.ts`],
      rules: {
        // Typed so that ['error', options] reads as a rule entry (a tuple), not an array of either.
        'no-restricted-imports': /** @type {import('eslint').Linter.RuleEntry} */ ([
          'error',
          {
            paths: [CORE_NO_VSCODE],
            patterns: [
              ...CORE_PURE_PATTERNS,
              {
                regex: '^\\.\\.(/\\.\\.)*(/index)?/?$',
                message: `src/core/${layer} must not import core's public surface (index.ts): import the file.`,
              },
              ...(banned.length
                ? [
                    {
                      regex: `^(\\.\\./)+(${banned.join('|')})(/|$)`,
                      message: `src/core/${layer} comes before ${banned.join(', ')} in the data path (formats -> match -> decide -> write -> report -> config -> engine -> batch) and must not import them.`,
                    },
                  ]
                : []),
            ],
          },
        ]),
      },
    };
  });
}

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
      'test/fixtures/codeBlockCorpus/**',
      'test/fixtures/npmCorpus/**',
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
    // No room too big to read (issue 18): no source file over 800 lines, no function over 100. Blank lines
    // and comments count (skipBlankLines/skipComments false): a function is as long as a reader scrolls,
    // and these are the counts issue 18 named (parseApplyPatch 178, buildReplacement 163, parseUnifiedDiff
    // 120, estimateWindows 115, parseArgs 110). test/unit/sizeLimits.test.ts shows both rules fail.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 800, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  {
    // The engine runs in Node and in a browser worker: no VS Code API, no Node built-ins.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [CORE_NO_VSCODE],
          patterns: CORE_PURE_PATTERNS,
        },
      ],
    },
  },
  // Inside core, folders depend in the order of the data path: formats -> match -> decide -> write -> report,
  // then engine.ts (a batch, block by block) and batch/ (runs of the engine). A folder never imports a later
  // one, nor the engine or core's public surface (index.ts). test/unit/coreLayers.test.ts shows a violation fail.
  ...coreLayerRules(),
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
            CORE_SURFACE_ONLY,
          ],
        },
      ],
    },
  },
  {
    // The CLI's file handling never reaches into the editor adapters.
    files: ['src/node/**/*.ts', 'src/cli.ts', 'src/cliLoader.ts', 'src/mcp.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the CLI runs without VS Code.' }],
          patterns: [{ group: ['**/extension/*'], message: 'the CLI must not depend on the editor adapters.' }, CORE_SURFACE_ONLY],
        },
      ],
    },
  },
);
