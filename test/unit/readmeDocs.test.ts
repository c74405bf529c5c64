// The README doc test (issue 28): every command README.md shows in a code block is run, or, where it cannot
// run here, listed below with the reason and checked for shape; every MCP configuration snippet is parsed
// (JSON, TOML) and the command it names is started and answers the MCP handshake; the outputs it shows are
// what the product prints. The install path is the user's: `npm pack` in a copy of this checkout, the
// tarball installed with `npm install -g` into a temp prefix (offline: it must need nothing from the
// registry), then the installed `resilient-apply` runs the README's commands. A code block with a command
// or an MCP snippet the test does not know fails it: a new command needs its entry here.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseToml } from 'smol-toml';
import { codeBlocks, commandLines, inlineCode, type CodeBlock } from './readmeBlocks';

const ROOT = path.resolve(__dirname, '../../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
};
const TARBALL = `${MANIFEST.name}-${MANIFEST.version}.tgz`;
const VSIX = `${MANIFEST.name}-${MANIFEST.version}.vsix`;
/** The placeholder the README uses for the absolute path of a checkout. */
const CHECKOUT_PLACEHOLDER = '/path/to/resilient-apply';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ra-readme-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
/** A copy of this checkout (sources, build script, manifest; node_modules linked) where the README's install runs. */
const checkout = path.join(tmp, 'resilient-apply');
const prefix = path.join(tmp, 'prefix');
const linkPrefix = path.join(tmp, 'link-prefix');

/** The environment of a user's shell: npm's global prefix in the temp folder, offline, and its bin on PATH. */
function shellEnv(globalPrefix: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // `npm run test:unit` passes its own npm_config_* settings down; a user's shell has none of them.
    if (value !== undefined && !/^npm_/i.test(key)) {
      env[key] = value;
    }
  }
  return {
    ...env,
    NPM_CONFIG_PREFIX: globalPrefix,
    NPM_CONFIG_OFFLINE: 'true',
    NPM_CONFIG_AUDIT: 'false',
    NPM_CONFIG_FUND: 'false',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    NPM_CONFIG_CACHE: path.join(tmp, 'npm-cache'),
    TMPDIR: path.join(tmp, 'tmpdir'),
    PATH: `${path.join(globalPrefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
  };
}

interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one README command line as written, in a POSIX shell. */
function sh(line: string, cwd: string, env = shellEnv(prefix), input = ''): ShellRun {
  const r = spawnSync('/bin/sh', ['-c', line], { cwd, env, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(line: string, r: ShellRun): void {
  assert.equal(r.code, 0, `\`${line}\` exited with ${String(r.code)}:\n${r.stdout}\n${r.stderr}`);
}

const scriptExists = (name: string) => () => assert.ok(MANIFEST.scripts[name], `package.json has no script "${name}"`);

/**
 * Commands (each part of a `&&` chain) the README shows that this test does not run, why, and what it checks
 * instead. Everything else in a command block must be in RUN below.
 */
const NOT_RUN: Record<string, { why: string; check: () => void }> = {
  'npm install': {
    why: 'installs the dependencies from the registry; this checkout has them (the test runs offline)',
    check: () => assert.ok(fs.existsSync(path.join(ROOT, 'node_modules', 'esbuild')), 'node_modules is installed'),
  },
  'npm run package': { why: 'vsce packaging; `npm test` runs it and installs the .vsix it writes', check: scriptExists('package') },
  [`code --install-extension ${VSIX}`]: {
    why: 'needs VS Code; `npm test` installs the .vsix into a real VS Code server with this option',
    check: () => {
      assert.match(MANIFEST.scripts.package, /^vsce package /, 'npm run package writes <name>-<version>.vsix (vsce)');
      assert.equal(VSIX, `resilient-apply-${MANIFEST.version}.vsix`);
    },
  },
  'npm start': { why: 'starts a VS Code server until Ctrl+C', check: scriptExists('start') },
  'npm test': { why: 'runs this test among all the others', check: scriptExists('test') },
};

/** The README's `claude mcp add` lines: not run (Claude Code is not here); the server command after `--` is started. */
const CLAUDE_ADD = /^claude mcp add (--scope (?:user|project|local) )?resilient-apply -- (.+)$/;

/** Command lines that are usage synopses (placeholders in <> or options in []), checked against `--help`. */
const SYNOPSIS = /^resilient-apply (apply|patch|mcp) .*[<[]/;
/** The example in a synopsis line's comment, checked for shape: `patch` without a file reads the patch from stdin. */
const SYNOPSIS_COMMENTS: Record<string, string> = { 'e.g. git diff | resilient-apply patch': '[<patch>|-]' };

/** The example of "Code blocks": a function replaced from stdin. */
const SNIPPET_EXAMPLE = "printf 'def total(items):\\n    return sum(items) * 2\\n' | resilient-apply apply shop.py --snippet - --json";
/** The near-miss example of "How blocks are matched". */
const NEAR_MISS_EXAMPLE = 'resilient-apply apply m.go --blocks fix.txt';
/** The example of "Elisions". */
const ELISION_EXAMPLE = 'resilient-apply apply loader.py --blocks elided.txt';
/** Files for the code block example of "Code blocks" (the README names shop.py but does not show it). */
const SHOP_PY = 'def total(items):\n    return sum(items)\n\n\ndef count(items):\n    return len(items)\n';

/** The README's fenced file shown after `marker` (e.g. 'With this `m.go`:'). */
function fileAfter(marker: string): string {
  const at = README.indexOf(marker);
  assert.ok(at >= 0, `README no longer has ${JSON.stringify(marker)}`);
  const line = README.slice(0, at).split('\n').length;
  const block = codeBlocks(README).find((b) => b.fenced && b.line > line);
  assert.ok(block, `no code block after ${JSON.stringify(marker)}`);
  return block.text;
}

/** The code block right after the one holding `command`: the output the README shows for it. */
function outputShownFor(command: string): { text: string; exitCode: number } {
  const blocks = codeBlocks(README);
  const index = blocks.findIndex((b) => b.text.split('\n').includes(command));
  assert.ok(index >= 0 && index + 1 < blocks.length, `no output shown after ${command}`);
  const between = README.split('\n')
    .slice(blocks[index].endLine, blocks[index + 1].line - 1)
    .join(' ');
  const exit = /exits with code (\d)/.exec(between);
  return { text: blocks[index + 1].text, exitCode: exit ? Number(exit[1]) : 0 };
}

/**
 * Runs an example the README shows in full: its files (each the fenced block after its marker), the command,
 * and the output block after the command, which must be what the command prints, with the exit code the
 * text between them states ("exits with code 1"; else 0).
 */
function shownExample(command: string, markers: Record<string, string>): { files: Record<string, string>; dir: string } {
  const files = Object.fromEntries(Object.entries(markers).map(([name, marker]) => [name, fileAfter(marker)]));
  const dir = folder(files);
  const r = sh(command, dir);
  const shown = outputShownFor(command);
  const printed = r.stdout.replace(/\n$/, '');
  assert.equal(
    printed,
    shown.text,
    `the README shows another output for \`${command}\`; it prints (indent by 4 for the README):\n${printed}`,
  );
  assert.equal(r.code, shown.exitCode, `the exit code the README states for \`${command}\``);
  return { files, dir };
}

/** `resilient-apply --help` of the installed command (set by the RUN step). */
let help = '';

/** Commands the test runs, in this order, each against the state the ones before left (as a user would). */
const RUN: { line: string; run: () => void }[] = [
  {
    line: 'npm pack',
    run: () => {
      const r = sh('npm pack', checkout);
      ok('npm pack', r);
      assert.ok(fs.existsSync(path.join(checkout, TARBALL)), `npm pack wrote no ${TARBALL}:\n${r.stdout}`);
      const listed = sh(`tar tzf ${TARBALL}`, checkout).stdout.trim().split('\n').sort();
      assert.deepEqual(
        listed.filter((f) => !f.startsWith('package/dist/grammars/')),
        [
          'package/LICENSE',
          'package/README.md',
          'package/dist/cli-code-blocks.js',
          'package/dist/cli-main.js',
          'package/dist/cli.js',
          'package/dist/mcp.js',
          'package/package.json',
        ],
        'the tarball holds the CLI, its bundles and grammars, nothing else',
      );
      assert.ok(listed.includes('package/dist/grammars/tree-sitter-python.wasm'), 'the grammars are in the tarball');
    },
  },
  {
    line: `npm install -g ./${TARBALL}`,
    run: () => {
      ok('npm install -g', sh(`npm install -g ./${TARBALL}`, checkout));
      const bin = path.join(prefix, 'bin', 'resilient-apply');
      assert.ok(fs.existsSync(bin), 'the install made a resilient-apply command');
      assert.ok(
        !fs.existsSync(path.join(prefix, 'lib', 'node_modules', 'resilient-apply', 'node_modules')),
        'nothing but the package was installed',
      );
    },
  },
  {
    line: 'resilient-apply --help',
    run: () => {
      const r = sh('resilient-apply --help', tmp);
      ok('resilient-apply --help', r);
      assert.match(r.stdout, /^Usage: resilient-apply apply <file>/);
      help = r.stdout;
    },
  },
  { line: 'npm run build', run: () => ok('npm run build', sh('npm run build', checkout)) },
  {
    line: 'npm link',
    run: () => {
      const env = shellEnv(linkPrefix);
      ok('npm link', sh('npm link', checkout, env));
      assert.equal(fs.realpathSync(path.join(linkPrefix, 'bin', 'resilient-apply')), path.join(checkout, 'dist', 'cli.js'));
      const version = sh('resilient-apply --version', tmp, env);
      ok('resilient-apply --version', version);
      assert.equal(version.stdout.trim(), MANIFEST.version);
    },
  },
  {
    line: SNIPPET_EXAMPLE,
    run: () => {
      const dir = folder({ 'shop.py': SHOP_PY });
      const r = sh(SNIPPET_EXAMPLE, dir);
      ok(SNIPPET_EXAMPLE, r);
      assert.equal((JSON.parse(r.stdout) as { status: string }).status, 'applied');
      assert.equal(fs.readFileSync(path.join(dir, 'shop.py'), 'utf8'), SHOP_PY.replace('sum(items)\n', 'sum(items) * 2\n'));
    },
  },
  {
    line: NEAR_MISS_EXAMPLE,
    run: () => {
      const { files, dir } = shownExample(NEAR_MISS_EXAMPLE, { 'm.go': 'With this `m.go`:', 'fix.txt': 'and this `fix.txt`' });
      assert.equal(fs.readFileSync(path.join(dir, 'm.go'), 'utf8'), files['m.go'], 'a near miss writes nothing');
    },
  },
  {
    line: ELISION_EXAMPLE,
    run: () => {
      const { files, dir } = shownExample(ELISION_EXAMPLE, {
        'loader.py': 'With this `loader.py`:',
        'elided.txt': 'and this `elided.txt`',
      });
      const written = files['loader.py'].replace('def load(path):', 'def load(path, strict=False):');
      assert.equal(fs.readFileSync(path.join(dir, 'loader.py'), 'utf8'), written, 'only the def line changed');
    },
  },
];

let counter = 0;
function folder(files: Record<string, string>): string {
  const dir = path.join(tmp, `w${++counter}`);
  fs.mkdirSync(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

/** Every command line of the README's command blocks, `&&` chains split, with the block it is in. */
function readmeCommands(): { command: string; block: CodeBlock }[] {
  return codeBlocks(README).flatMap((block) =>
    commandLines(block).flatMap((line) => line.split(' && ').map((command) => ({ command, block }))),
  );
}

/** The MCP configuration snippets: blocks naming mcpServers, servers or mcp_servers, with the bold label of the paragraph before. */
function mcpSnippets(): { block: CodeBlock; label: string }[] {
  const lines = README.split('\n');
  return codeBlocks(README)
    .filter((b) => /"mcpServers"|"servers"|mcp_servers/.test(b.text))
    .map((block) => {
      const labelLine = lines
        .slice(0, block.line - 1)
        .reverse()
        .find((l) => /^\*\*[^*]+\*\*/.test(l));
      return { block, label: labelLine ? /^\*\*([^*]+)\*\*/.exec(labelLine)![1] : '' };
    });
}

/** How each agent's snippet is read: its format and the key that holds the servers. */
const SNIPPET_FORMATS: Record<string, { format: 'json' | 'toml'; key: string; type?: string }> = {
  Codex: { format: 'toml', key: 'mcp_servers' },
  Cursor: { format: 'json', key: 'mcpServers' },
  'VS Code': { format: 'json', key: 'servers', type: 'stdio' },
  'Gemini CLI': { format: 'json', key: 'mcpServers' },
  'From a checkout': { format: 'json', key: 'mcpServers' },
};

interface ServerCommand {
  where: string;
  command: string;
  args: string[];
}

/** The command and arguments of the resilient-apply entry of a snippet, read by a real parser. */
function serverOf(block: CodeBlock, label: string): ServerCommand {
  const format = SNIPPET_FORMATS[label];
  assert.ok(format, `an MCP snippet after **${label}** (README line ${block.line}) that the doc test does not know`);
  assert.equal(block.info, format.format, `the ${label} snippet is fenced as ${format.format}`);
  const parsed = (format.format === 'json' ? JSON.parse(block.text) : parseToml(block.text)) as Record<string, any>;
  assert.deepEqual(Object.keys(parsed), [format.key], `the ${label} snippet's top-level key`);
  const entry = parsed[format.key]['resilient-apply'] as { type?: string; command: string; args: string[] };
  assert.ok(entry, `the ${label} snippet names the server resilient-apply`);
  assert.equal(entry.type, format.type, `the ${label} snippet's type`);
  return { where: `${label} (README line ${block.line})`, command: entry.command, args: entry.args };
}

/** The server a `claude mcp add ... -- <command> <args>` line registers. */
function serverOfClaudeLine(command: string): ServerCommand {
  const match = CLAUDE_ADD.exec(command);
  assert.ok(match, command);
  const [program, ...args] = match[2].split(' ');
  return { where: command, command: program, args };
}

/** Starts `server` as the agent would (a checkout path stands for the test's checkout) and does the MCP handshake. */
async function handshake(server: ServerCommand): Promise<void> {
  assert.notEqual(server.command, 'npx', `${server.where}: never npx (the name is not published)`);
  const args = server.args.map((a) => a.replace(CHECKOUT_PLACEHOLDER, checkout));
  const transport = new StdioClientTransport({ command: server.command, args, cwd: folder({}), env: shellEnv(prefix), stderr: 'pipe' });
  const client = new Client({ name: 'readme-doc-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    assert.deepEqual(client.getServerVersion(), { name: 'resilient-apply', version: MANIFEST.version }, server.where);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['apply_edits', 'apply_patch'],
      server.where,
    );
  } finally {
    await client.close();
  }
}

describe('README doc test', { skip: process.platform === 'win32' ? 'a POSIX shell runs the README commands' : false }, () => {
  before(() => {
    fs.mkdirSync(checkout);
    fs.mkdirSync(path.join(tmp, 'tmpdir'));
    for (const name of ['package.json', '.npmignore', 'README.md', 'LICENSE', 'CHANGELOG.md', 'esbuild.mjs', 'tsconfig.json']) {
      fs.copyFileSync(path.join(ROOT, name), path.join(checkout, name));
    }
    fs.cpSync(path.join(ROOT, 'src'), path.join(checkout, 'src'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
  });

  test('every command in a code block is one the test runs or lists as not run, and every listed one is shown', () => {
    const known = new Set([...RUN.map((r) => r.line), ...Object.keys(NOT_RUN)]);
    const unknown: string[] = [];
    const shown = new Set<string>();
    for (const { command, block } of readmeCommands()) {
      shown.add(command);
      const synopsis = SYNOPSIS.test(command);
      if (!known.has(command) && !synopsis && !CLAUDE_ADD.test(command)) {
        unknown.push(`README line ${block.line}: ${command}`);
      }
    }
    assert.deepEqual(
      unknown,
      [],
      'commands the README shows that the doc test neither runs nor lists (add them to test/unit/readmeDocs.test.ts)',
    );
    assert.deepEqual(
      [...known].filter((c) => !shown.has(c)),
      [],
      'commands the doc test knows that the README no longer shows (remove them from the test)',
    );
    for (const { check } of Object.values(NOT_RUN)) {
      check();
    }
  });

  test('no code block runs npx, and the README names npx only to warn against it', () => {
    for (const block of codeBlocks(README)) {
      assert.doesNotMatch(block.text, /\bnpx\b/, `README line ${block.line}`);
    }
    const mentions = README.split('\n').filter((l) => /\bnpx\b/.test(l));
    assert.ok(
      mentions.every((l) => /do not run `npx resilient-apply`/.test(l)),
      mentions.join('\n'),
    );
  });

  test('the install, as the README shows it: npm pack, npm install -g of the tarball, npm link; then its examples', () => {
    for (const step of RUN) {
      step.run();
    }
  });

  test('every usage line the README shows is the one --help prints, with options --help names', () => {
    assert.ok(help, 'resilient-apply --help ran');
    const usage = help
      .split('\n\n')[0]
      .replace(/^Usage: /, '')
      .replace(/\n\s+(?=\[|--)/g, ' ')
      .split('\n')
      .map((l) => l.trim().replace(/\s+/g, ' '));
    for (const { command } of readmeCommands().filter((c) => SYNOPSIS.test(c.command))) {
      const [synopsis, comment] = command.split(/\s+#\s+/);
      assert.ok(
        usage.includes(synopsis.replace(/\s+/g, ' ')),
        `README usage line not in --help: ${synopsis}\n--help:\n${usage.join('\n')}`,
      );
      if (comment) {
        assert.ok(SYNOPSIS_COMMENTS[comment], `a usage line's comment the doc test does not know: ${comment}`);
        assert.ok(synopsis.includes(SYNOPSIS_COMMENTS[comment]), comment);
      }
    }
    for (const span of inlineCode(README).filter((s) => /^resilient-apply \w/.test(s))) {
      const [, sub] = span.split(' ');
      assert.ok(['apply', 'patch', 'mcp'].includes(sub), `\`${span}\`: no subcommand ${sub}`);
      for (const flag of span.match(/--[\w-]+/g) ?? []) {
        assert.ok(help.includes(flag), `\`${span}\`: --help has no ${flag}`);
      }
    }
    for (const span of inlineCode(README).filter((s) => /^npm (run \S+|start|test)\b/.test(s))) {
      const script = span.startsWith('npm run ') ? span.split(' ')[2] : span.split(' ')[1];
      assert.ok(MANIFEST.scripts[script], `\`${span}\`: package.json has no script ${script}`);
    }
  });

  test('the commands, settings, tool and chat participant the README names are those of package.json', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: {
        commands: { category: string; title: string }[];
        languageModelTools: { toolReferenceName: string }[];
        chatParticipants: { name: string }[];
      };
    };
    const titles = new Set(manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`));
    const named = [...README.matchAll(/(?:\*\*|\| )(Resilient Apply: [^*|]+?)(?:\*\*| \|)/g)].map((m) => m[1].replace(/\s+/g, ' '));
    assert.ok(named.length >= 6, 'the README names the commands');
    assert.deepEqual(
      named.filter((n) => !titles.has(n)),
      [],
      'command names the README uses that package.json does not contribute',
    );
    const manifestText = JSON.stringify(manifest);
    const settings = [...new Set(README.match(/\bresilientApply\.[\w.]*\w/g))];
    assert.deepEqual(
      settings.filter((s) => !manifestText.includes(`"${s}"`)),
      [],
      'setting names the README uses that package.json does not have',
    );
    assert.ok(README.includes('`#applyBlocks`') && manifest.contributes.languageModelTools[0].toolReferenceName === 'applyBlocks');
    assert.ok(README.includes('`@apply`') && manifest.contributes.chatParticipants[0].name === 'apply');
  });

  test('every relative link and image of the README is a file of the repository, every #link one of its headings', () => {
    const targets = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:|^#/.test(t));
    assert.ok(targets.length > 0);
    assert.deepEqual(
      targets.filter((t) => !fs.existsSync(path.join(ROOT, t))),
      [],
      'README links to files that do not exist',
    );
    // Links to its own sections use GitHub's heading ids (lower case, punctuation dropped, spaces to '-').
    const ids = new Set(
      README.split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) =>
          l
            .replace(/^#+ /, '')
            .toLowerCase()
            .replace(/[^\w\- ]/g, '')
            .replace(/ /g, '-'),
        ),
    );
    const anchors = [...README.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(anchors.length > 0);
    assert.deepEqual(
      anchors.filter((a) => !ids.has(a)),
      [],
      'README links to sections it does not have',
    );
  });

  test('every MCP snippet parses and the command it names starts the server (initialize, tools/list)', async () => {
    const snippets = mcpSnippets();
    assert.deepEqual(
      snippets.map((s) => s.label).sort(),
      Object.keys(SNIPPET_FORMATS).sort(),
      'one snippet for each agent the doc test knows',
    );
    const servers = snippets.map(({ block, label }) => serverOf(block, label));
    const claude = readmeCommands().filter((c) => CLAUDE_ADD.test(c.command));
    assert.equal(claude.length, 2, 'claude mcp add with the installed command and with a checkout');
    servers.push(...claude.map((c) => serverOfClaudeLine(c.command)));
    for (const server of servers) {
      await handshake(server);
    }
  });
});
