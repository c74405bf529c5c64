// Versions of npm packages, packed from the registry into a temporary folder (never into the repository):
// the files two versions both ship, and which of them changed.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const CACHE = path.join(os.tmpdir(), 'resilient-apply-npm-corpus');

/** The unpacked package folder of pkg@version (packed once, then reused from the temporary folder). */
export function unpack(pkg: string, version: string): string {
  const dir = path.join(CACHE, `${pkg.replace(/[@/]/g, '_')}@${version}`);
  const root = path.join(dir, 'package');
  if (fs.existsSync(path.join(dir, '.done'))) {
    return root;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', `${pkg}@${version}`, '--pack-destination', dir, '--silent'], { cwd: dir, encoding: 'utf8' });
  const tarball = path.join(dir, out.trim().split('\n').pop() ?? '');
  execFileSync('tar', ['xzf', tarball, '-C', dir]);
  fs.rmSync(tarball);
  // Some packages (@types, scoped forks) unpack into a folder not named "package".
  if (!fs.existsSync(root)) {
    const only = fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).isDirectory());
    fs.renameSync(path.join(dir, only[0]), root);
  }
  fs.writeFileSync(path.join(dir, '.done'), '');
  return root;
}

/** Every file under root, as paths relative to it. */
export function filesUnder(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      out.push(...filesUnder(root, child));
    } else if (entry.isFile()) {
      out.push(child);
    }
  }
  return out;
}
