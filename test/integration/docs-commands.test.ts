import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, requireBuiltApp } from '../e2e/support/start-web';
import { codeCacheEnv } from '../support/code-cache-env';
import { docPages, expectation, REPO, shellBlocks } from '../support/doc-blocks';
import type { ShellBlock } from '../support/doc-blocks';
import { reply, startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';

// Every command of the README and docs/ in a `sh runnable` block, run as written: a page's blocks in order, in
// bash, against a fresh home, config folder and project (`~/code/app`, the current folder), with `gatehouse` the
// built CLI on PATH (what `npm link` gives) and a local stand-in for the model. Each command must end with the exit
// status its line promises (`# exit 2`, default 0) and, for `# exit N: TEXT`, say TEXT.

const pages = docPages()
  .map((page) => ({ page, blocks: shellBlocks(page).filter((b) => b.runnable) }))
  .filter((p) => p.blocks.length > 0);

let fake: FakeAnthropic;
beforeAll(async () => {
  requireBuiltApp();
  fake = await startFakeAnthropic();
});
afterAll(async () => fake?.close());

/** A fresh world for one page: a home with two projects, the CLI on PATH, the model. */
function world(): { root: string; env: NodeJS.ProcessEnv; cwd: string } {
  const root = makeTempDir('gh-docs-');
  const home = path.join(root, 'home');
  const bin = path.join(root, 'bin');
  for (const name of ['app', 'my-app']) {
    const project = path.join(home, 'code', name);
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(path.join(project, 'README.md'), `# ${name}\n`);
    fs.writeFileSync(path.join(project, 'package.json'), `{ "name": "${name}", "scripts": { "test": "true" } }\n`);
  }
  fs.mkdirSync(bin);
  fs.symlinkSync(path.join(REPO, 'out/main/cli.js'), path.join(bin, 'gatehouse'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    GATEHOUSE_HOME: path.join(home, '.config', 'gatehouse'),
    GATEHOUSE_POLICY: path.join(root, 'no-policy.yaml'),
    ANTHROPIC_API_KEY: fake.apiKey,
    ANTHROPIC_BASE_URL: fake.baseURL,
    LANG: 'C.UTF-8',
    ...codeCacheEnv(),
  };
  return { root, env, cwd: path.join(home, 'code', 'app') };
}

/** The block as a bash script that checks each command's exit status (and words) after it, and stops at the first miss. */
function script(block: ShellBlock): string {
  const lines = ['set -uo pipefail', 'out="$(mktemp)"'];
  for (const c of block.commands) {
    const { exit, says } = expectation(c.text);
    const where = `line ${c.line}`;
    lines.push(
      `{ ${c.text}`,
      `} > "$out" 2>&1`,
      'rc=$?',
      'cat "$out"',
      `case " ${exit.join(' ')} " in *" $rc "*) ;; *) echo "DOCS: ${where}: exit $rc, expected ${exit.join(' or ')}" >&2; exit 90;; esac`,
    );
    if (says)
      lines.push(
        `grep -qF -- ${shellQuote(says)} "$out" || { printf 'DOCS: ${where}: the output does not say: %s\\n' ${shellQuote(says)} >&2; exit 91; }`,
      );
  }
  return lines.join('\n');
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function bash(source: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', source], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe.each(pages)('$page', { timeout: 120_000 }, ({ blocks }) => {
  let w: ReturnType<typeof world>;
  beforeAll(() => {
    w = world();
    // An answer for every prompt a page sends (`gatehouse run`, `gatehouse rpc`).
    fake.enqueue(...Array.from({ length: 20 }, () => reply(text('Done: this is the stand-in model.'))));
  });
  afterAll(() => removeTempDir(w.root));

  it.each(blocks.map((b) => [b.where, b] as const))('%s', async (_where, block) => {
    const { code, output } = await bash(script(block), w.env, w.cwd);
    expect(code, output).toBe(0);
  });
});
