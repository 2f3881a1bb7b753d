import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A fresh clone's docs stand alone: the README and docs/ point only at files inside the repository (a clone has
 * nothing beside it), every relative link resolves, and the Node version the README asks for is package.json's.
 */
const root = path.resolve(__dirname, '../..');
const docs = [
  'README.md',
  'build/README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function read(rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

/** Markdown link targets `[text](target)` that are not URLs or in-page anchors. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#'));
}

describe('the repository docs', () => {
  it('include the permission model and the architecture, linked from the README', () => {
    const readme = read('README.md');
    expect(readme).toContain('](docs/permission-model.md)');
    expect(readme).toContain('](docs/architecture.md)');
  });

  it.each(docs)('%s never points outside the repository', (rel) => {
    const text = read(rel);
    expect(text).not.toMatch(/\.\.\/shared\b|\bshared\/(docs|corpus|tools)\//);
    for (const link of relativeLinks(text)) {
      const target = path.resolve(path.dirname(path.join(root, rel)), link.split('#')[0]!);
      expect(path.relative(root, target).startsWith('..'), `${rel}: ${link} leaves the repository`).toBe(false);
      expect(fs.existsSync(target), `${rel}: ${link} does not exist`).toBe(true);
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
