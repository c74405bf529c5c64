// Reading README.md for its doc test (readmeDocs.test.ts): the code blocks (fenced with ``` or ~~~, and
// indented by four spaces or more after a blank line, also inside list items), the command lines of the
// blocks that hold shell commands, and the inline code spans of the prose.

export interface CodeBlock {
  /** 1-based line of the block's first line (its opening fence, or its first indented line). */
  line: number;
  /** 1-based line of its last line (its closing fence, or its last indented line). */
  endLine: number;
  /** The fence's info string's first word ('' for none or an indented block). */
  info: string;
  /** The content, without the fences and the block's indentation. */
  text: string;
  fenced: boolean;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;

/** The code blocks of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const fence = FENCE.exec(lines[i]);
    if (fence) {
      const indent = fence[1].length;
      const close = new RegExp(`^\\s*${fence[2][0] === '`' ? '`' : '~'}{${fence[2].length},}\\s*$`);
      let end = i + 1;
      while (end < lines.length && !close.test(lines[end])) {
        end++;
      }
      const body = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
      blocks.push({ line: i + 1, endLine: end + 1, info: fence[3], text: body.join('\n'), fenced: true });
      i = end + 1;
      continue;
    }
    const indent = /^( {4,})\S/.exec(lines[i])?.[1].length;
    if (indent !== undefined && (i === 0 || lines[i - 1].trim() === '')) {
      let end = i;
      // The block goes on over lines indented as much and over blank lines followed by such a line.
      for (let j = i + 1; j < lines.length; j++) {
        if (lines[j].startsWith(' '.repeat(indent))) {
          end = j;
        } else if (lines[j].trim() !== '') {
          break;
        }
      }
      const body = lines.slice(i, end + 1).map((l) => l.slice(indent));
      blocks.push({ line: i + 1, endLine: end + 1, info: '', text: body.join('\n'), fenced: false });
      i = end + 1;
      continue;
    }
    i++;
  }
  return blocks;
}

/** Words that start a shell command line in a README block. */
const COMMAND_WORDS = new Set([
  'npm',
  'npx',
  'node',
  'resilient-apply',
  'code',
  'code-server',
  'claude',
  'codex',
  'gemini',
  'git',
  'printf',
  'echo',
  'cat',
  'cd',
  'curl',
  'sudo',
  'apt-get',
]);

/** The first word of a command line, after environment assignments (`PORT=9000 npm start`). */
function commandWord(line: string): string {
  return line
    .trim()
    .replace(/^(\w+=\S*\s+)+/, '')
    .split(/\s/)[0];
}

/**
 * The command lines of a block that holds shell commands (fenced as sh/bash/shell/console, or whose first
 * line starts with a command word), a line indented under the one before joined to it; none for other blocks.
 */
export function commandLines(block: CodeBlock): string[] {
  const lines = block.text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const shell = ['sh', 'bash', 'shell', 'console', 'shell-session'].includes(block.info);
  if (lines.length === 0 || (!shell && !COMMAND_WORDS.has(commandWord(lines[0])))) {
    return [];
  }
  const commands: string[] = [];
  for (const line of lines) {
    if (/^\s/.test(line) && commands.length > 0) {
      commands[commands.length - 1] += ` ${line.trim()}`;
    } else {
      commands.push(line.trim().replace(/^\$ /, ''));
    }
  }
  return commands;
}

/** The inline code spans of the prose (code blocks left out), single-backtick spans only. */
export function inlineCode(markdown: string): string[] {
  const lines = markdown.split('\n');
  for (const block of codeBlocks(markdown)) {
    lines.fill('', block.line - 1, block.endLine);
  }
  return [...lines.join('\n').matchAll(/(?<!`)`([^`]+)`(?!`)/g)].map((m) => m[1].replace(/\s+/g, ' '));
}
