// The real-commit corpus (issue 25): changes of public repositories' commits, each inside one or two
// declarations, rendered as the code blocks chat models write (renderBlocks.ts) and run through the CLI's
// code-block path; each block must give the commit's file byte for byte, or be refused.
// test/fixtures/commitCorpus/manifest.json names the cases (no code: commitCases.ts says why); the code is
// read from the git snapshots the `fetch` tool brings in (github:<owner>/<name> for each of REPOS).
// test/unit/commitCorpus.test.ts runs the same cases in `npm run test:unit`.
//
//   npm run corpus:commits                 run the manifest's cases and print the tally
//   npm run corpus:commits -- --rebuild    choose the cases again from the snapshots, write the manifest, run
//   npm run corpus:commits -- --notes FILE write one line per refused or wrong case to FILE
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  blocksOf,
  type CommitCaseEntry,
  loadRepoCases,
  MANIFEST,
  manifestText,
  MIRRORS,
  readManifest,
  shortHash,
  snapshotOf,
} from './commitCases';
import { languageOf, renderChange } from './renderBlocks';
import { countByLanguage, diagnosisLine, emptyTally, languageLine, runCorpusCase, type Tally, tallyLine } from './runCorpus';

/** The repositories the cases come from, at least ten languages among them. */
export const REPOS = [
  'Alamofire/Alamofire', // Swift
  'App-vNext/Polly', // C#
  'DaveGamble/cJSON', // C
  'expressjs/express', // JavaScript
  'fmtlib/fmt', // C++
  'jgthms/bulma', // SCSS, CSS
  'nvm-sh/nvm', // shell
  'pallets/click', // Python
  'rust-lang/log', // Rust
  'sinatra/sinatra', // Ruby
  'sindresorhus/ky', // TypeScript
  'slimphp/Slim', // PHP
  'spf13/cobra', // Go
  'square/javapoet', // Java
  'square/kotlinpoet', // Kotlin
];

const SOURCE_FILE = /\.(ts|tsx|js|mjs|cjs|py|rb|java|kt|cpp|cc|h|hpp|c|cs|php|css|scss|sass|go|rs|sh|hs|swift)$/;
// Configuration files (JSON, YAML, TOML) are the configuration corpus's; generated and vendored code is nobody's edit.
const NOT_SOURCE = /(\.min\.|\.d\.ts$|(^|\/)(dist|vendor|node_modules|third_party|testdata|fixtures)\/|_generated|\.pb\.)/;
const PER_REPO = 14;
const COMMITS_READ = 1500;

const git = (repo: string, args: string[]) =>
  execFileSync('git', ['--git-dir', repo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });

/** The newest small commits' changes of one repository that lie inside one or two declarations. */
async function casesOfRepo(repo: string, gitDir: string): Promise<CommitCaseEntry[]> {
  const made: CommitCaseEntry[] = [];
  const seen = new Set<string>();
  const commits = git(gitDir, ['log', '--no-merges', `-n${COMMITS_READ}`, '--format=%H %s', 'HEAD'])
    .split('\n')
    .filter(Boolean);
  for (const line of commits) {
    if (made.length >= PER_REPO) {
      break;
    }
    const [commit, ...subjectWords] = line.split(' ');
    let numstat: string;
    try {
      numstat = git(gitDir, ['diff-tree', '--no-commit-id', '-r', '--numstat', `${commit}^`, commit]);
    } catch {
      continue; // a root commit
    }
    const stat = numstat
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t'));
    const sources = stat.filter(([, , file]) => SOURCE_FILE.test(file) && !NOT_SOURCE.test(file));
    // Small, focused commits: one to three source files, a few dozen lines.
    if (sources.length === 0 || sources.length > 3 || sources.some(([add, del]) => add === '-' || Number(add) + Number(del) > 60)) {
      continue;
    }
    for (const [, , file] of sources) {
      if (seen.has(file) || made.length >= PER_REPO) {
        continue;
      }
      let before: string;
      let after: string;
      try {
        before = git(gitDir, ['show', `${commit}^:${file}`]);
        after = git(gitDir, ['show', `${commit}:${file}`]);
      } catch {
        continue;
      }
      if (before.length > 200_000 || after.length > 200_000) {
        continue;
      }
      const rendered = await renderChange(before, after, file);
      if (typeof rendered === 'string') {
        continue;
      }
      seen.add(file);
      made.push({
        id: `${languageOf(file)}-${repo.replace('/', '_')}-${commit.slice(0, 8)}-${path.basename(file).replace(/\.[^.]+$/, '')}`.replace(
          /[^A-Za-z0-9._-]/g,
          '_',
        ),
        repo,
        commit,
        subject: subjectWords.join(' ').slice(0, 120),
        path: file,
        language: languageOf(file),
        what: rendered.what,
        after: shortHash(after),
        shapes: Object.fromEntries(rendered.blocks.map((b) => [b.shape, shortHash(b.block)])),
      });
    }
  }
  return made;
}

async function build(): Promise<void> {
  const missing = REPOS.filter((repo) => !snapshotOf(repo));
  if (missing.length > 0) {
    throw new Error(`no snapshot in ${MIRRORS} of ${missing.join(', ')}: bring them in with the fetch tool (github:<owner>/<name>)`);
  }
  const cases: CommitCaseEntry[] = [];
  for (const repo of REPOS) {
    const made = await casesOfRepo(repo, snapshotOf(repo) as string);
    console.log(`commit corpus: ${repo}: ${made.length} changes`);
    cases.push(...made);
  }
  // One commit can change two files of one name (index.js of two folders): the second is `<id>-2`.
  const ids = new Map<string, number>();
  for (const c of cases) {
    const seen = (ids.get(c.id) ?? 0) + 1;
    ids.set(c.id, seen);
    c.id = seen > 1 ? `${c.id}-${seen}` : c.id;
  }
  fs.writeFileSync(MANIFEST, manifestText({ repos: REPOS, cases: cases.sort((x, y) => x.id.localeCompare(y.id)) }));
}

async function run(notesFile: string | undefined): Promise<void> {
  const tally = emptyTally();
  const byLanguage = new Map<string, Tally>();
  const notes: string[] = [];
  const manifest = readManifest();
  for (const repo of manifest.repos) {
    const loaded = loadRepoCases(
      repo,
      manifest.cases.filter((c) => c.repo === repo),
    );
    if (!loaded) {
      console.log(`commit corpus: ${repo}: no snapshot in ${MIRRORS} (fetch github:${repo}); its cases are not run`);
      continue;
    }
    for (const entry of loaded.absent) {
      console.log(`commit corpus: ${entry.id}: the snapshot lacks ${entry.commit} ${entry.path}; not run`);
    }
    for (const one of loaded.cases) {
      const { entry, before, after } = one;
      for (const block of await blocksOf(one)) {
        const result = await runCorpusCase(before, block.block, entry.path, after);
        countByLanguage(tally, byLanguage, result, entry.language);
        if (result.verdict !== 'applied as expected') {
          notes.push(
            diagnosisLine(`${entry.id}/${block.shape} (${entry.repo} ${entry.commit.slice(0, 10)} ${entry.path}: ${entry.what})`, result),
          );
        }
      }
    }
  }
  if (notesFile) {
    fs.writeFileSync(notesFile, `${notes.join('\n')}\n`);
  }
  for (const [language, own] of [...byLanguage].sort()) {
    console.log(`  ${languageLine(language, own)}`);
  }
  console.log(tallyLine('commit corpus', tally));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--rebuild')) {
    await build();
  }
  const at = args.indexOf('--notes');
  await run(at >= 0 ? args[at + 1] : undefined);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
