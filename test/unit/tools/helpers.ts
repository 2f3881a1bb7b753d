import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../../../src/worker/tools/types';
import type { ReadableCheck } from '../../../src/worker/tools/read-filter';

/** A real project folder and a real folder outside it, both realpath'd, removed by `cleanup`. */
export interface Sandbox {
  root: string;
  outside: string;
  base: string;
  ctx(extra?: Partial<ToolContext>): ToolContext;
  write(rel: string, content: string | Buffer): string;
  read(rel: string): string;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-tools-')));
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  return {
    root,
    outside,
    base,
    ctx: (extra = {}) => ({
      projectRoot: root,
      additionalDirectories: [],
      signal: new AbortController().signal,
      readable: everythingReadable,
      ...extra,
    }),
    write(rel, content) {
      const abs = path.isAbsolute(rel) ? rel : path.join(root, rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
      return abs;
    },
    read: (rel) => fs.readFileSync(path.isAbsolute(rel) ? rel : path.join(root, rel), 'utf8'),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** A read check that hides nothing (the tools' own tests; the filter itself is tested with the real engine). */
export const everythingReadable: ReadableCheck = async () => [];

export const DO = { agentMode: 'do' } as const;
export const PLAN = { agentMode: 'plan' } as const;

/** A small project with .gitignore rules (root and nested), hidden files, .git, node_modules and symlinks. */
export function buildTree(sb: Sandbox): void {
  sb.write('.gitignore', ['*.log', '!keep.log', 'build/', '/dist', 'secret*', 'docs/*.tmp'].join('\n') + '\n');
  sb.write('src/index.ts', 'export const answer = 42;\n// TODO: more\n');
  sb.write('src/util/strings.ts', 'export function hello(name: string) {\n  return `Hello ${name}`; // TODO\n}\n');
  sb.write('src/util/.gitignore', 'generated.ts\n');
  sb.write('src/util/generated.ts', 'TODO generated\n');
  sb.write('src/a-b.ts', 'todo lower case\n');
  sb.write('src/crlf.ts', 'first TODO\r\nsecond line\r\n');
  sb.write('README.md', '# Project\nTODO: write docs\n');
  sb.write('.github/workflow.yml', 'name: TODO\n');
  sb.write('app.log', 'TODO in a log\n');
  sb.write('logs/keep.log', 'TODO keep me\n');
  sb.write('build/out.js', 'TODO built\n');
  sb.write('dist/bundle.js', 'TODO dist\n');
  sb.write('lib/dist/kept.js', 'TODO nested dist is not anchored\n');
  sb.write('secret.env', 'TODO=secret\n');
  sb.write('docs/a.tmp', 'TODO tmp\n');
  sb.write('docs/guide.md', 'TODO guide\n');
  sb.write('.git/config', 'TODO git\n');
  sb.write('node_modules/pkg/index.js', 'TODO dep\n');
  sb.write('packages/x/node_modules/y.js', 'TODO nested dep\n');
  sb.write('image.bin', Buffer.concat([Buffer.from('TODO'), Buffer.from([0, 1, 2])]));
  fs.writeFileSync(path.join(sb.outside, 'leak.txt'), 'TODO outside\n');
  fs.symlinkSync(path.join(sb.outside, 'leak.txt'), path.join(sb.root, 'src/leak.ts'));
  fs.symlinkSync(sb.outside, path.join(sb.root, 'outdir'));
}
