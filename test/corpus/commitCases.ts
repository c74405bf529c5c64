// The commit corpus's cases (issue 25), as committed and as run. What is committed
// (test/fixtures/commitCorpus/manifest.json) names each case and holds no code of the repositories: the
// repository, the commit, the file's path, what the change touches, and hashes of the new file and of each
// rendered block. The code is read back from the git snapshots the `fetch` tool brings in
// (/work/.mirror/<owner>+<name>/repo, or RESILIENT_APPLY_MIRRORS): snapshot code is not to be committed
// (the fetch tool's rules). The hashes make every run use the very cases the manifest was built with: a
// snapshot that gives another file, or a renderer that writes another block, is an error, not a new case.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderChange, type RenderedBlock } from './renderBlocks';

export const COMMIT_CORPUS = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'commitCorpus');
export const MANIFEST = path.join(COMMIT_CORPUS, 'manifest.json');
export const MIRRORS = process.env.RESILIENT_APPLY_MIRRORS ?? '/work/.mirror';

/** One committed case: one commit's change to one file. */
export interface CommitCaseEntry {
  /** `<language>-<owner>_<name>-<commit8>-<file stem>`. */
  id: string;
  /** owner/name on GitHub. */
  repo: string;
  commit: string;
  subject: string;
  path: string;
  language: string;
  what: string;
  /** sha256 of the commit's file (hex, first 16 digits). */
  after: string;
  /** Each rendered shape and the sha256 of its block (likewise). */
  shapes: Record<string, string>;
}

export interface CommitManifest {
  repos: string[];
  cases: CommitCaseEntry[];
}

/** A case with its texts, read from the snapshot. */
export interface LoadedCommitCase {
  entry: CommitCaseEntry;
  before: string;
  after: string;
}

export const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The git directory of a repository's snapshot, when it is here. */
export function snapshotOf(repo: string, mirrors = MIRRORS): string | undefined {
  const dir = path.join(mirrors, repo.replace('/', '+'), 'repo');
  for (const git of [dir, path.join(dir, '.git')]) {
    if (fs.existsSync(path.join(git, 'HEAD')) && fs.existsSync(path.join(git, 'objects'))) {
      return git;
    }
  }
  return undefined;
}

export function readManifest(file = MANIFEST): CommitManifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as CommitManifest;
}

/** One case a line, so that a rebuild's diff reads case by case. */
export function manifestText(manifest: CommitManifest): string {
  const cases = manifest.cases.map((c) => `  ${JSON.stringify(c)}`).join(',\n');
  return `{\n "repos": ${JSON.stringify(manifest.repos)},\n "cases": [\n${cases}\n ]\n}\n`;
}

/**
 * Reads many `<commit>:<path>` blobs of one snapshot with one git process. A blob the snapshot lacks is
 * undefined. Texts are decoded as UTF-8, as `git show` output was when the cases were built.
 */
export function readBlobs(gitDir: string, specs: readonly string[]): (string | undefined)[] {
  if (specs.length === 0) {
    return [];
  }
  const out = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    input: `${specs.join('\n')}\n`,
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const texts: (string | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < specs.length; i++) {
    const headerEnd = out.indexOf(10, at);
    const header = out.subarray(at, headerEnd).toString('utf8');
    at = headerEnd + 1;
    const blob = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!blob) {
      texts.push(undefined); // `<spec> missing`, or not a blob
      continue;
    }
    const size = Number(blob[1]);
    texts.push(out.subarray(at, at + size).toString('utf8'));
    at += size + 1; // the blob, then a newline
  }
  return texts;
}

/** The cases of one repository, read from its snapshot (undefined: the snapshot is not here). */
export function loadRepoCases(
  repo: string,
  entries: readonly CommitCaseEntry[],
  mirrors = MIRRORS,
): { cases: LoadedCommitCase[]; absent: CommitCaseEntry[] } | undefined {
  const gitDir = snapshotOf(repo, mirrors);
  if (!gitDir) {
    return undefined;
  }
  const blobs = readBlobs(
    gitDir,
    entries.flatMap((e) => [`${e.commit}^:${e.path}`, `${e.commit}:${e.path}`]),
  );
  const cases: LoadedCommitCase[] = [];
  const absent: CommitCaseEntry[] = [];
  entries.forEach((entry, i) => {
    const [before, after] = [blobs[2 * i], blobs[2 * i + 1]];
    if (before === undefined || after === undefined) {
      absent.push(entry);
    } else {
      cases.push({ entry, before, after });
    }
  });
  return { cases, absent };
}

/**
 * The case's blocks, rendered again from its two texts; an error names what differs from the manifest
 * (the new file, or a block: then rebuild the manifest, `npm run corpus:commits -- --rebuild`).
 */
export async function blocksOf(loaded: LoadedCommitCase): Promise<RenderedBlock[]> {
  const { entry, before, after } = loaded;
  if (shortHash(after) !== entry.after) {
    throw new Error(`${entry.id}: the snapshot's ${entry.path} at ${entry.commit} is not the file the case was built with`);
  }
  const rendered = await renderChange(before, after, entry.path);
  if (typeof rendered === 'string') {
    throw new Error(`${entry.id}: the change is no case any more (${rendered}): the renderer changed; rebuild the manifest`);
  }
  const got = Object.fromEntries(rendered.blocks.map((b) => [b.shape, shortHash(b.block)]));
  if (JSON.stringify(got) !== JSON.stringify(entry.shapes)) {
    throw new Error(
      `${entry.id}: the renderer writes other blocks than the manifest's (${JSON.stringify(got)} for ${JSON.stringify(entry.shapes)}); rebuild the manifest`,
    );
  }
  return rendered.blocks;
}
