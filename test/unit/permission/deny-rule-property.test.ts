import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionEngine } from '../../../src/main/core/permission/engine';
import { cmd, makeFixture, type Fixture } from './fixture';

let fx: Fixture;
let engine: PermissionEngine;
beforeAll(async () => {
  fx = makeFixture();
  fx.settings('user', { deny: ['Bash(git push:*)'] });
  engine = await fx.engine({ mode: 'bypassPermissions' });
});
afterAll(() => fx.cleanup());

/** Writes a word with random shell quoting that the shell removes again. */
const quoted = (word: string) =>
  fc
    .array(fc.constantFrom<'plain' | 'single' | 'double' | 'backslash'>('plain', 'single', 'double', 'backslash'), {
      minLength: word.length,
      maxLength: word.length,
    })
    .map((styles) =>
      [...word]
        .map((ch, i) =>
          styles[i] === 'single'
            ? `'${ch}'`
            : styles[i] === 'double'
              ? `"${ch}"`
              : styles[i] === 'backslash'
                ? `\\${ch}`
                : ch,
        )
        .join(''),
    );
const wrapper = fc.constantFrom(
  '',
  'env FOO=1 ',
  'FOO=bar ',
  'command ',
  'nice -n 5 ',
  'timeout 5 ',
  'nohup ',
  'env ',
  '/usr/bin/env ',
);
const around = fc.constantFrom(
  (c: string) => c,
  (c: string) => `true && ${c}`,
  (c: string) => `(${c})`,
  (c: string) => `echo $(${c})`,
  (c: string) => `ls; ${c} | cat`,
  (c: string) => `bash -c '${c.replace(/'/g, '')}'`,
);

describe('property: a user deny rule holds under random quoting, wrappers and compounds', () => {
  it('git push stays denied (bypass mode)', async () => {
    await fc.assert(
      fc.asyncProperty(
        wrapper,
        quoted('git'),
        quoted('push'),
        fc.constantFrom('', ' origin main', ' --force'),
        around,
        async (w, g, p, rest, wrap) => {
          const command = wrap(`${w}${g} ${p}${rest}`);
          const d = await engine.decide(cmd(command));
          expect(d.decision, `${command}: ${d.source} ${d.reason}`).toBe('deny');
        },
      ),
      { numRuns: 300 },
    );
  });
});
