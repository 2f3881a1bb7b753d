import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cmd, makeFixture, read, write, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

describe('evaluateAll', () => {
  it('judges each call exactly as evaluate does, and records nothing', async () => {
    fx.settings('project', { deny: ['Read(./secrets/**)'] });
    fx.write('secrets/key.txt', 'k\n');
    fx.write('.env', 'A=1\n');
    const e = await fx.engine({});
    fs.symlinkSync(path.join(fx.project, 'secrets/key.txt'), path.join(fx.project, 'src/link.txt'));
    const calls = [
      read('src/index.ts'),
      read('secrets/key.txt'),
      read('.env'),
      read('src/link.txt'),
      read('../outside'),
      write('a.txt'),
      cmd('ls'),
      { tool: 'nope' },
      'not a call',
    ];
    const one = await Promise.all(calls.map(async (c) => (await e.evaluate(c, { agentMode: 'plan' })).decision));
    const all = (await e.evaluateAll(calls, { agentMode: 'plan' })).map((x) => x.decision);
    expect(all).toEqual(one);
    expect(all.map((d) => d.decision)).toEqual([
      'allow',
      'deny',
      'ask',
      'deny',
      'deny',
      'deny',
      'deny',
      'deny',
      'deny',
    ]);
    expect(fs.existsSync(path.join(fx.configDir, 'audit.jsonl'))).toBe(false);
  });
});
