import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionEngine } from '../../../src/main/core/permission/engine';
import { cmd, makeFixture, type Fixture } from './fixture';

let fx: Fixture;
let engine: PermissionEngine;
beforeAll(async () => {
  fx = makeFixture();
  engine = await fx.engine({ mode: 'bypassPermissions' });
});
afterAll(() => fx.cleanup());

const benignProgram = fc.constantFrom(
  'ls',
  'cat',
  'echo',
  'grep',
  'git status',
  'git log',
  'npm test',
  'npm run build',
  'make',
  'wc -l',
  'head -n 5',
  'node',
  'python3',
  'cargo build',
  'rm',
  'rm -rf',
  'chmod -R 755',
  'find',
);
const benignArg = fc.oneof(
  fc.constantFrom(
    'src',
    'src/index.ts',
    'README.md',
    './build',
    'dist/',
    'node_modules/.cache',
    '-v',
    '--verbose',
    'docs/a.md',
    '"sudo"',
    "'rm -rf /'",
    'shutdown.txt',
    'mkfs-notes.md',
  ),
  fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}(\/[a-z0-9_-]{1,8}){0,2}(\.[a-z]{1,3})?$/),
);

describe('property: benign commands never trigger the built-in deny list', () => {
  it('random project-local arguments', async () => {
    await fc.assert(
      fc.asyncProperty(benignProgram, fc.array(benignArg, { maxLength: 5 }), async (program, args) => {
        const command = [program, ...args].join(' ');
        const d = await engine.decide(cmd(command));
        expect(d.source, `${command}: ${d.reason}`).not.toBe('hard');
      }),
      { numRuns: 300 },
    );
  });
});
