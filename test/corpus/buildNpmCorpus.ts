// Builds the committed real-edit corpus (test/fixtures/npmCorpus/) from the npm registry: pairs of versions
// of one package, whose changed source files are real edits by real people. Each change that lies inside
// one or two declarations becomes a case: the old file (before.txt), the edits that make the new file
// (case.json), and one code block per shape chat models write (renderBlocks.ts). npm test runs them
// (test/unit/npmCorpus.test.ts); nothing of the packages but those files is kept.
//
//   npm run corpus:npm                  rebuild every case (packs into the OS temp folder; needs the registry)
//   npm run corpus:npm -- --probe PKG FROM TO   print what each changed file of one pair would give
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compactEdits, lineHunks } from './lineDiff';
import { filesUnder, unpack } from './npmPackages';
import { languageOf, renderReleaseChange } from './renderBlocks';

export const NPM_CORPUS = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'npmCorpus');

interface Source {
  pkg: string;
  /** Versions in order; each one is compared with the one before it. */
  versions: string[];
  /** Which shipped files are sources worth reading (relative paths). */
  include: RegExp;
  /** At most this many changes from one pair of versions, so that no package dominates. */
  perPair?: number;
}

// Configuration files (JSON, YAML, TOML) are the configuration corpus's, not this one's.
const SOURCE_FILE = /\.(ts|tsx|mts|js|mjs|cjs|jsx|py|gyp|gypi|rb|podspec|java|kt|cpp|cc|h|hpp|mm|m|c|cs|php|css|scss|go|rs|sh)$/;
const NOT_SOURCE = /(\.min\.|\.d\.ts$|\.map$|(^|\/)(dist|build|umd|esm|cjs|lib-cov|coverage)\/)/;

const TREE_SITTER = /^(bindings\/|grammar\.js$|src\/scanner\.c$|setup\.py$)/;
const treeSitter = (pkg: string, versions: string[]): Source => ({ pkg, versions, include: TREE_SITTER, perPair: 6 });

export const SOURCES: Source[] = [
  {
    pkg: 'react-native',
    versions: [
      '0.83.9',
      '0.83.10',
      '0.84.0',
      '0.84.1',
      '0.85.0',
      '0.85.1',
      '0.85.2',
      '0.85.3',
      '0.86.0',
      '0.86.2',
      '0.86.3',
      '0.87.0',
      '0.87.1',
      '0.88.0',
      '0.88.1',
    ],
    include: /./,
    perPair: 14,
  },
  {
    pkg: 'node-gyp',
    versions: ['11.4.1', '11.4.2', '11.5.0', '12.0.0', '12.1.0', '12.2.0', '12.3.0', '12.4.0', '13.0.0', '13.0.1', '13.0.2', '13.1.0'],
    include: /^(gyp|lib)\//,
  },
  {
    pkg: 'nan',
    versions: ['2.22.2', '2.23.0', '2.23.1', '2.24.0', '2.25.0', '2.26.0', '2.26.1', '2.26.2', '2.27.0', '2.28.0', '2.29.0', '2.30.0'],
    include: /./,
  },
  {
    pkg: 'bootstrap',
    versions: ['5.3.0', '5.3.1', '5.3.2', '5.3.3', '5.3.4', '5.3.5', '5.3.6', '5.3.7', '5.3.8', '5.3.9'],
    include: /^(scss|js\/src)\//,
  },
  { pkg: 'tailwindcss', versions: ['4.2.2', '4.2.3', '4.2.4', '4.3.0', '4.3.1', '4.3.2', '4.3.3', '4.3.4', '4.3.5'], include: /\.css$/ },
  { pkg: 'modern-normalize', versions: ['1.1.0', '2.0.0', '3.0.0', '3.0.1'], include: /\.css$/ },
  {
    pkg: '@wordpress/block-library',
    versions: ['10.2.0', '10.3.0', '10.4.0', '10.5.0', '11.0.0', '11.1.0'],
    include: /^src\//,
    perPair: 10,
  },
  {
    pkg: 'edge-js',
    versions: ['24.0.1', '24.0.2', '24.0.3', '24.0.4', '24.0.5', '25.0.0', '25.0.1', '26.0.0', '26.1.0'],
    include: /^(src|lib)\//,
  },
  { pkg: 'rxjs', versions: ['7.5.7', '7.6.0', '7.7.0', '7.8.0', '7.8.1', '7.8.2'], include: /^src\// },
  { pkg: 'zod', versions: ['4.6.0', '4.6.1', '4.6.2', '4.6.3', '4.6.4', '4.6.5', '4.6.6', '4.6.7'], include: /^src\// },
  treeSitter('tree-sitter-javascript', ['0.20.4', '0.21.0', '0.21.4', '0.23.0', '0.23.1', '0.25.0']),
  treeSitter('tree-sitter-python', ['0.21.0', '0.23.2', '0.23.6', '0.25.0']),
  treeSitter('tree-sitter-go', ['0.20.0', '0.21.0', '0.23.0', '0.23.4', '0.25.0']),
  treeSitter('tree-sitter-rust', ['0.20.4', '0.21.0', '0.23.0', '0.23.3', '0.24.0']),
  treeSitter('tree-sitter-java', ['0.20.2', '0.21.0', '0.23.2', '0.23.5']),
  treeSitter('tree-sitter-c-sharp', ['0.20.0', '0.21.3', '0.23.0', '0.23.5']),
  treeSitter('tree-sitter-ruby', ['0.20.1', '0.21.0', '0.23.0', '0.23.1']),
  treeSitter('tree-sitter-php', ['0.23.7', '0.23.10', '0.23.12', '0.24.0', '0.24.2']),
];

/** At most this many cases of one language, so that the corpus spreads over languages. */
const PER_LANGUAGE = 30;

export interface StoredCase {
  package: string;
  from: string;
  to: string;
  path: string;
  language: string;
  what: string;
  /** When the release changed more declarations: this case applies only the hunks inside one of them. */
  releaseHunks?: { applied: number; of: number };
  /** [at, remove, insert]: the edits that turn before.txt into the new file. */
  edits: ReturnType<typeof compactEdits>;
  shapes: string[];
}

interface Candidate {
  id: string;
  spec: StoredCase;
  before: string;
  blocks: { shape: string; block: string }[];
}

async function changesOf(
  source: Source,
  from: string,
  to: string,
  log: (line: string) => void,
  wanted = (_rel: string) => true,
): Promise<Candidate[]> {
  const oldRoot = unpack(source.pkg, from);
  const newRoot = unpack(source.pkg, to);
  const found: Candidate[] = [];
  for (const rel of filesUnder(newRoot).sort()) {
    if (!SOURCE_FILE.test(rel) || NOT_SOURCE.test(rel) || !source.include.test(rel) || !wanted(rel)) {
      continue;
    }
    const oldFile = path.join(oldRoot, rel);
    if (!fs.existsSync(oldFile)) {
      continue;
    }
    const before = fs.readFileSync(oldFile, 'utf8');
    const after = fs.readFileSync(path.join(newRoot, rel), 'utf8');
    if (before === after || after.length > 16_000 || before.length > 16_000) {
      continue;
    }
    const changes = await renderReleaseChange(before, after, rel);
    if (typeof changes === 'string') {
      log(`  skip ${rel}: ${changes}`);
      continue;
    }
    changes.forEach((change, k) => {
      const { rendered } = change;
      const part = change.hunks ? ` (${change.hunks.applied} of the release's ${change.hunks.of} hunks)` : '';
      log(`  case ${rel}: ${rendered.what}${part} [${rendered.blocks.map((b) => b.shape).join(', ')}]`);
      const hunks = lineHunks(before.split('\n'), change.after.split('\n')) ?? [];
      const base = `${languageOf(rel)}-${source.pkg.replace(/^@/, '').replace(/\//g, '-')}-${to}-${path.basename(path.dirname(rel))}-${path.basename(rel).replace(/\.[^.]+$/, '')}${k > 0 ? `-${k + 1}` : ''}`;
      found.push({
        id: base.replace(/[^A-Za-z0-9._-]/g, '_'),
        before,
        blocks: rendered.blocks,
        spec: {
          package: source.pkg,
          from,
          to,
          path: rel,
          language: languageOf(rel),
          what: rendered.what + part,
          ...(change.hunks ? { releaseHunks: change.hunks } : {}),
          edits: compactEdits(hunks, change.after.split('\n')),
          shapes: rendered.blocks.map((b) => b.shape),
        },
      });
    });
  }
  return found;
}

function write(c: Candidate): void {
  const dir = path.join(NPM_CORPUS, 'cases', c.id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'case.json'), `${JSON.stringify(c.spec, null, 1)}\n`);
  fs.writeFileSync(path.join(dir, 'before.txt'), c.before);
  for (const b of c.blocks) {
    fs.writeFileSync(path.join(dir, `${b.shape}.md`), b.block);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--probe') {
    const [pkg, from, to, include] = args.slice(1);
    await changesOf({ pkg, versions: [from, to], include: new RegExp(include ?? '') }, from, to, console.log);
    return;
  }
  fs.rmSync(path.join(NPM_CORPUS, 'cases'), { recursive: true, force: true });
  let total = 0;
  const languages = new Map<string, number>();
  for (const source of SOURCES) {
    const seen = new Set<string>();
    // Newest pair first: a file changed in several releases is kept once, at its latest change.
    for (let k = source.versions.length - 1; k >= 1; k--) {
      const [from, to] = [source.versions[k - 1], source.versions[k]];
      let found: Candidate[];
      try {
        found = await changesOf(
          source,
          from,
          to,
          () => undefined,
          (rel) => !seen.has(rel) && (languages.get(languageOf(rel)) ?? 0) < PER_LANGUAGE,
        );
      } catch (error) {
        console.log(`${source.pkg} ${from} -> ${to}: not packed (${String(error).split('\n')[0]})`);
        continue;
      }
      // Round robin over the languages of the pair, so that one directory of a large package does not fill the quota.
      const byLanguage = new Map<string, Candidate[]>();
      for (const c of found.filter((f) => !seen.has(f.spec.path))) {
        byLanguage.set(c.spec.language, [...(byLanguage.get(c.spec.language) ?? []), c]);
      }
      const kept: Candidate[] = [];
      for (let round = 0; kept.length < (source.perPair ?? 12) && [...byLanguage.values()].some((l) => l.length > round); round++) {
        for (const [language, list] of byLanguage) {
          const c = list[round];
          if (c && kept.length < (source.perPair ?? 12) && (languages.get(language) ?? 0) < PER_LANGUAGE) {
            kept.push(c);
            write(c);
            total += c.blocks.length;
            languages.set(language, (languages.get(language) ?? 0) + c.blocks.length);
          }
        }
      }
      found = kept;
      found.forEach((c) => seen.add(c.spec.path));
      console.log(`${source.pkg} ${from} -> ${to}: ${found.length} changes, ${found.reduce((s, c) => s + c.blocks.length, 0)} cases`);
    }
  }
  console.log(`npm corpus: ${total} cases; by language: ${[...languages].map(([l, n]) => `${l} ${n}`).join(', ')}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
