import fs from 'node:fs';
import path from 'node:path';

// The fenced shell blocks of the README and docs/: a block whose info string is `sh runnable` is run by
// test/integration/docs-commands.test.ts; any other `sh` block may hold only commands no test can run
// (test/unit/repo-docs.test.ts checks that).

export const REPO = path.resolve(__dirname, '../..');

/** The README and every page of docs/, relative to the repository. */
export function docPages(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

export interface ShellBlock {
  /** `docs/cli.md:42`: where the block's first line is. */
  where: string;
  runnable: boolean;
  /** The block's text, as written. */
  text: string;
  /** Its commands: continuation lines joined, comment-only and empty lines left out, each with its line number. */
  commands: { line: number; text: string }[];
}

const SHELLS = new Set(['sh', 'bash', 'shell', 'console']);

/** Every fenced block of `page` whose language is a shell's. */
export function shellBlocks(page: string): ShellBlock[] {
  const lines = fs.readFileSync(path.join(REPO, page), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    // The closing fence: the same character, at least as many, nothing else on the line.
    const closing = new RegExp(`^\\s*\\${fence[0]}{${fence.length},}\\s*$`);
    const end = lines.findIndex((l, j) => j > i && closing.test(l));
    const close = end === -1 ? lines.length : end;
    const body = lines.slice(i + 1, close);
    if (SHELLS.has(open[3]!)) {
      const commands: ShellBlock['commands'] = [];
      let current: { line: number; text: string } | null = null;
      body.forEach((l, k) => {
        if (current) current.text += `\n${l}`;
        else if (l.trim() && !l.trim().startsWith('#')) current = { line: i + 2 + k, text: l };
        else return;
        if (!/\\$/.test(l)) {
          commands.push(current!);
          current = null;
        }
      });
      if (current) commands.push(current);
      blocks.push({
        where: `${page}:${i + 1}`,
        runnable: /^runnable\b/.test(open[4]!),
        text: body.join('\n'),
        commands,
      });
    }
    i = close;
  }
  return blocks;
}

/**
 * Commands a test cannot run: installing, starting the app (it serves until stopped and opens a browser), the whole
 * suite, packaging, system packages, a remote machine. Any other command in the docs is in a runnable block.
 */
export const NOT_RUNNABLE = [
  /^npm (install|ci|start|test|link|rebuild electron)\b/,
  /^npm run (build|dev|dist|bench|format|check|lint|typecheck|knip|electronegativity)\b/,
  /^npx install-electron\b/,
  /^node node_modules\/electron\/install\.js\b/,
  /^xvfb-run /,
  /^(sudo )?apt-get /,
  /^ssh /,
  /^gatehouse web\b/,
  // Starts the desktop app, or serves the browser shell until Ctrl-C (test/integration/cli-open.test.ts runs both).
  /^gatehouse (open|\.)(\s|$)/,
  /^(ANTHROPIC_[A-Z_]+|GATEHOUSE_[A-Z_]+|BROWSER)=\S+ (npm start|gatehouse web)\b/,
];

/**
 * What a command line's trailing comment promises: `# exit 2` (or `# exit 0 or 1`) its exit status (default 0),
 * and `# exit 2: TEXT` also TEXT in its output.
 */
export function expectation(command: string): { exit: number[]; says: string | null } {
  const m = /\s#\s*exit (\d+)(?: or (\d+))?(?::\s*(.*\S))?\s*$/.exec(command);
  if (!m) return { exit: [0], says: null };
  return { exit: [Number(m[1]), ...(m[2] ? [Number(m[2])] : [])], says: m[3] ?? null };
}
