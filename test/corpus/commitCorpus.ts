// The local real-commit corpus (issue 25): commits of public repositories, read from git snapshots that
// the `fetch` tool brought in (/work/.mirror/<owner>+<name>/repo, or RESILIENT_APPLY_MIRRORS). Nothing of
// them is committed: this script writes the cases to test-results/commitCorpus/ (git-ignored), then runs
// every block through the CLI's code-block path like the npm corpus does and prints the tally.
//
//   npm run corpus:commits                 build (when missing) and run
//   npm run corpus:commits -- --rebuild    build again from the snapshots
//   npm run corpus:commits -- --notes FILE write one line per refused or wrong case to FILE
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyCompactEdits, compactEdits, lineHunks } from './lineDiff';
import { languageOf, renderChange } from './renderBlocks';
import { count, diagnosisLine, emptyTally, runCorpusCase, type Tally, tallyLine } from './runCorpus';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const OUT = path.join(ROOT, 'test-results', 'commitCorpus');
const MIRRORS = process.env.RESILIENT_APPLY_MIRRORS ?? '/work/.mirror';
const SOURCE_FILE = /\.(ts|tsx|js|mjs|cjs|py|rb|java|kt|cpp|cc|h|hpp|c|cs|php|css|scss|sass|go|rs|sh|hs|swift)$/;
// Configuration files (JSON, YAML, TOML) are the configuration corpus's; generated and vendored code is nobody's edit.
const NOT_SOURCE = /(\.min\.|\.d\.ts$|(^|\/)(dist|vendor|node_modules|third_party|testdata|fixtures)\/|_generated|\.pb\.)/;
const PER_REPO = 14;
const COMMITS_READ = 1500;

interface CommitCase {
  repo: string;
  commit: string;
  subject: string;
  path: string;
  language: string;
  what: string;
  edits: ReturnType<typeof compactEdits>;
  shapes: string[];
}

const git = (repo: string, args: string[]) =>
  execFileSync('git', ['--git-dir', repo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });

async function casesOfRepo(name: string, repo: string): Promise<number> {
  let made = 0;
  const seen = new Set<string>();
  const commits = git(repo, ['log', '--no-merges', `-n${COMMITS_READ}`, '--format=%H %s', 'HEAD'])
    .split('\n')
    .filter(Boolean);
  for (const line of commits) {
    if (made >= PER_REPO) {
      break;
    }
    const [commit, ...subjectWords] = line.split(' ');
    let numstat: string;
    try {
      numstat = git(repo, ['diff-tree', '--no-commit-id', '-r', '--numstat', `${commit}^`, commit]);
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
      if (seen.has(file) || made >= PER_REPO) {
        continue;
      }
      let before: string;
      let after: string;
      try {
        before = git(repo, ['show', `${commit}^:${file}`]);
        after = git(repo, ['show', `${commit}:${file}`]);
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
      made++;
      const id = `${languageOf(file)}-${name}-${commit.slice(0, 8)}-${path.basename(file).replace(/\.[^.]+$/, '')}`.replace(
        /[^A-Za-z0-9._-]/g,
        '_',
      );
      const dir = path.join(OUT, 'cases', id);
      fs.mkdirSync(dir, { recursive: true });
      const spec: CommitCase = {
        repo: name,
        commit,
        subject: subjectWords.join(' '),
        path: file,
        language: languageOf(file),
        what: rendered.what,
        edits: compactEdits(lineHunks(before.split('\n'), after.split('\n')) ?? [], after.split('\n')),
        shapes: rendered.blocks.map((b) => b.shape),
      };
      fs.writeFileSync(path.join(dir, 'case.json'), `${JSON.stringify(spec, null, 1)}\n`);
      fs.writeFileSync(path.join(dir, 'before.txt'), before);
      for (const b of rendered.blocks) {
        fs.writeFileSync(path.join(dir, `${b.shape}.md`), b.block);
      }
    }
  }
  return made;
}

async function build(): Promise<void> {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(path.join(OUT, 'cases'), { recursive: true });
  for (const entry of fs.readdirSync(MIRRORS).sort()) {
    const repo = path.join(MIRRORS, entry, 'repo');
    if (!fs.existsSync(path.join(repo, 'HEAD'))) {
      continue;
    }
    const made = await casesOfRepo(entry, repo);
    console.log(`commit corpus: ${entry}: ${made} changes`);
  }
}

async function run(notesFile: string | undefined): Promise<void> {
  const tally = emptyTally();
  const byLanguage = new Map<string, Tally>();
  const notes: string[] = [];
  const dirs = fs.readdirSync(path.join(OUT, 'cases')).sort();
  for (const name of dirs) {
    const dir = path.join(OUT, 'cases', name);
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as CommitCase;
    const before = fs.readFileSync(path.join(dir, 'before.txt'), 'utf8');
    const expected = applyCompactEdits(before, spec.edits);
    for (const shape of spec.shapes) {
      const run = await runCorpusCase(before, fs.readFileSync(path.join(dir, `${shape}.md`), 'utf8'), spec.path, expected);
      count(tally, run, spec.language);
      const own = byLanguage.get(spec.language) ?? emptyTally();
      byLanguage.set(spec.language, own);
      count(own, run, spec.language);
      if (run.verdict !== 'applied as expected') {
        notes.push(diagnosisLine(`${name}/${shape} (${spec.repo} ${spec.commit.slice(0, 10)} ${spec.path}: ${spec.what})`, run));
      }
    }
  }
  if (notesFile) {
    fs.writeFileSync(notesFile, `${notes.join('\n')}\n`);
  }
  for (const [language, own] of [...byLanguage].sort()) {
    console.log(
      `  ${language}: ${own.cases} cases, ${own.applied} right, ${own.trailing > 0 ? `${own.trailing} trailing whitespace dropped, ` : ''}${own.refused} refused, ${own.wrong} wrong`,
    );
  }
  console.log(tallyLine('commit corpus', tally));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--rebuild') || !fs.existsSync(path.join(OUT, 'cases'))) {
    await build();
  }
  const at = args.indexOf('--notes');
  await run(at >= 0 ? args[at + 1] : undefined);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
