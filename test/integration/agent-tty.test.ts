import fs from 'node:fs';
import path from 'node:path';
import * as pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { CLI, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// `gatehouse run` on a real terminal (a pty): an ask becomes a y/N prompt whose default is No.

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

function runOnTty(answer: string): Promise<{ code: number; screen: string }> {
  return new Promise((resolve) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(box.env)) if (v !== undefined) env[k] = v;
    const term = pty.spawn(process.execPath, [CLI, 'run', '--project', box.project, 'write it'], {
      name: 'xterm',
      cols: 200,
      rows: 50,
      cwd: box.home,
      env,
    });
    let screen = '';
    let answered = false;
    term.onData((d) => {
      screen += d;
      if (!answered && screen.includes('Allow? [y]es once')) {
        answered = true;
        term.write(answer);
      }
    });
    term.onExit(({ exitCode }) => resolve({ code: exitCode, screen }));
  });
}

describe('gatehouse run on a TTY', () => {
  it.each([
    ['Enter (the default, No)', '\r', false],
    ['y', 'y\r', true],
  ])('answering %s', async (_label, answer, written) => {
    fake.enqueue(
      reply(toolUse('toolu_w', 'write_file', { path: 'tty.txt', content: 'from the tty\n' })),
      reply(text('Finished.')),
    );
    const r = await runOnTty(answer);
    expect(r.code).toBe(0);
    expect(r.screen).toContain('[approval] write_file tty.txt');
    expect(r.screen).toContain('+from the tty');
    expect(fs.existsSync(path.join(box.project, 'tty.txt'))).toBe(written);
    expect(r.screen).toMatch(
      written ? /write_file tty\.txt -> allow \(approval\)/ : /write_file tty\.txt -> deny \(approval\): denied by you/,
    );
  });
});
