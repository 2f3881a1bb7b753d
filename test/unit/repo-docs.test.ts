import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/main/shells/cli/commands';
import { docPages, NOT_RUNNABLE, shellBlocks } from '../support/doc-blocks';

/**
 * A fresh clone's docs stand alone: the README and docs/ point only at files inside the repository (a clone has
 * nothing beside it), every relative link and its anchor resolves, and the Node version the README asks for is
 * package.json's. The README opens with a short quick start and the two commands CI and the guide rely on; the
 * reference is in docs/, where every command either runs in a test (a `sh runnable` block,
 * test/integration/docs-commands.test.ts) or is one no test can run.
 */
const root = path.resolve(__dirname, '../..');
const docs = [...docPages(), 'build/README.md'];

function read(rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

/** Markdown link targets `[text](target)` that are not URLs or in-page anchors. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#'));
}

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm))
    out.add(
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  return out;
}

describe('the repository docs', () => {
  it('include the permission model and the architecture, linked from the README', () => {
    const readme = read('README.md');
    expect(readme).toContain('](docs/permission-model.md)');
    expect(readme).toContain('](docs/architecture.md)');
  });

  it.each(docs)('%s never points outside the repository, and every link and anchor resolves', (rel) => {
    const text = read(rel);
    expect(text).not.toMatch(/\.\.\/shared\b|\bshared\/(docs|corpus|tools)\//);
    for (const link of relativeLinks(text)) {
      const [file = '', anchor] = link.split('#');
      const target = path.resolve(path.dirname(path.join(root, rel)), file);
      expect(path.relative(root, target).startsWith('..'), `${rel}: ${link} leaves the repository`).toBe(false);
      expect(fs.existsSync(target), `${rel}: ${link} does not exist`).toBe(true);
      if (anchor && target.endsWith('.md'))
        expect([...anchors(fs.readFileSync(target, 'utf8'))], `${rel}: ${link}`).toContain(anchor);
    }
  });

  it("asks for the Node version package.json's engines and CI check", () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const floor = /^>=\s*(\d+\.\d+)$/.exec(engines)?.[1];
    expect(floor, `engines.node is "${engines}"`).toBeDefined();
    expect(read('README.md')).toContain(`Requirements: Node.js ${floor}+`);
    expect(read('.ci/run')).toContain('require("./package.json").engines.node');
  });
});

describe('the README', () => {
  const readme = read('README.md');
  const sections = readme.split(/^(?=## )/m);

  it('opens with a quick start of under 30 lines that holds the two commands', () => {
    expect(sections[1]).toMatch(/^## Quick start\n/);
    const quickStart = sections[1]!.trimEnd().split('\n');
    expect(quickStart.length).toBeLessThan(30);
    // .ci/run and the project's guide run these two, as written.
    expect(quickStart).toContainEqual(expect.stringMatching(/^npm install && npm start(\s+#.*)?$/));
    expect(quickStart).toContainEqual(expect.stringMatching(/^npm test(\s+#.*)?$/));
    // Where the model key and a compatible server's address go.
    expect(sections[1]).toContain('ANTHROPIC_API_KEY');
    expect(sections[1]).toContain('ANTHROPIC_BASE_URL');
    expect(sections[1]).toContain('Settings');
  });

  it('links each reference page', () => {
    for (const page of ['using-the-app', 'cli', 'configuration', 'troubleshooting', 'development'])
      expect(readme).toContain(`](docs/${page}.md)`);
  });
});

describe('the commands in the docs', () => {
  const blocks = docPages().flatMap((page) => shellBlocks(page));

  it('are found: runnable blocks in the reference pages', () => {
    expect(blocks.filter((b) => b.runnable).length).toBeGreaterThan(5);
  });

  it.each(blocks.map((b) => [b.where, b] as const))('%s: runs in a test, or cannot', (_where, block) => {
    expect(block.commands.length, 'an empty block').toBeGreaterThan(0);
    for (const c of block.commands) {
      const unrunnable = NOT_RUNNABLE.some((p) => p.test(c.text));
      if (block.runnable) expect(unrunnable, `line ${c.line}: ${c.text} cannot run in a test`).toBe(false);
      else
        expect(unrunnable, `line ${c.line}: ${c.text} should be in a \`sh runnable\` block (a test runs it)`).toBe(
          true,
        );
    }
  });

  it('docs/cli.md names every command and every option of each', async () => {
    const cli = read('docs/cli.md').replace(/\\\n\s*/g, ' '); // a line continued with a backslash is one
    for (const entry of COMMANDS) {
      expect(cli).toContain(`gatehouse ${entry.name}`);
      const { help } = await entry.load();
      for (const flag of Object.keys(help.options))
        expect(cli, `gatehouse ${entry.name} --${flag}`).toMatch(
          new RegExp(`gatehouse ${entry.name}\\b[^\\n]*--${flag}\\b`),
        );
    }
  });
});
