import fs from 'node:fs';
import path from 'node:path';
import * as pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { CLI, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// `gatehouse run` on a real terminal with hostile calls: what the prompt prints is what runs (issue 13).

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

const PROMPT = /Allow(?: once)?\? \[y\]es once[^:]*: /;

/** Runs `gatehouse run` in a pty and types `answers[i]` at the i-th approval prompt. */
function runOnTty(answers: string[]): Promise<{ code: number; screen: string; prompts: string[] }> {
  return new Promise((resolve) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(box.env)) if (v !== undefined) env[k] = v;
    const term = pty.spawn(process.execPath, [CLI, 'run', '--project', box.project, 'go'], {
      name: 'xterm',
      cols: 220,
      rows: 60,
      cwd: box.home,
      env,
    });
    let screen = '';
    let seen = 0;
    const prompts: string[] = [];
    term.onData((d) => {
      screen += d;
      const asked = screen.split('[approval]').length - 1;
      const latest = screen.slice(screen.lastIndexOf('[approval]'));
      if (asked > seen && seen < answers.length && PROMPT.test(latest)) {
        prompts.push(latest);
        term.write(answers[seen++] ?? '\r');
      }
    });
    term.onExit(({ exitCode }) => resolve({ code: exitCode, screen, prompts }));
  });
}

describe('the terminal approval shows hidden characters and line breaks', () => {
  it('a Trojan Source command prints its bidi controls as markers with a warning; No keeps it from running', async () => {
    const command = 'ls \u202E\u2066; touch trojan\u2069 \u2066#\u2069\u202C';
    fake.enqueue(reply(toolUse('toolu_t', 'run_command', { command })), reply(text('ok')));
    const r = await runOnTty(['\r']);
    expect(r.code).toBe(0);
    const prompt = r.prompts[0] ?? '';
    expect(prompt).toContain(
      '[approval] run_command ls ⟨U+202E⟩⟨U+2066⟩; touch trojan⟨U+2069⟩ ⟨U+2066⟩#⟨U+2069⟩⟨U+202C⟩',
    );
    // The call and the rule "always" would add: six bidi controls each.
    expect(prompt).toContain('! This call contains 10 hidden or control characters');
    // Nothing the terminal would interpret reached it.
    expect(r.screen).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(fs.existsSync(path.join(box.project, 'trojan'))).toBe(false);
  });

  it('a command with a line break is shown as numbered lines, and one with escape sequences as markers', async () => {
    fake.enqueue(
      reply(
        toolUse('toolu_n', 'run_command', { command: 'echo safe\ntouch newline-ran' }),
        toolUse('toolu_e', 'run_command', { command: 'touch esc-ran # \x1b[2K\x1b[1A\rls' }),
      ),
      reply(text('ok')),
    );
    const r = await runOnTty(['\r', '\r']);
    expect(r.code).toBe(0);
    const [first = '', second = ''] = r.prompts;
    expect(first).toContain('[approval] run_command (call 1 of 2 in this turn)');
    expect(first).toMatch(/2 lines:\r?\n +1 │ echo safe\r?\n +2 │ touch newline-ran/);
    expect(second).toContain('(call 2 of 2 in this turn)');
    // On a raw terminal the escapes would erase the line and leave "ls".
    expect(second).toContain('touch esc-ran # ⟨ESC⟩[2K⟨ESC⟩[1A⟨CR⟩ls');
    expect(second).toContain('! This call contains 3 hidden or control characters');
    // The [tool] summary lines keep the line break visible as ⏎ instead of a space.
    expect(r.screen).toContain('[tool] run_command echo safe⏎touch newline-ran -> deny');
    expect(fs.existsSync(path.join(box.project, 'newline-ran'))).toBe(false);
    expect(fs.existsSync(path.join(box.project, 'esc-ran'))).toBe(false);
  });

  it('a zero-width character in a path and a diff line is marked, and the diff line is flagged', async () => {
    fs.writeFileSync(path.join(box.project, 'app.js'), 'const ok = 1;\n');
    fake.enqueue(
      reply(toolUse('toolu_z', 'write_file', { path: 'app\u200B.js', content: 'if (isAdmin\u200B) run();\n' })),
      reply(text('ok')),
    );
    const r = await runOnTty(['\r']);
    const prompt = r.prompts[0] ?? '';
    expect(prompt).toContain('[approval] write_file app⟨U+200B⟩.js');
    expect(prompt).toContain('+if (isAdmin⟨U+200B⟩) run();   <- hidden characters');
    expect(r.screen).not.toContain('\u200B');
  });

  it('overwriting a binary file says its content cannot be previewed and offers only once/No ("always" stores nothing)', async () => {
    fs.writeFileSync(path.join(box.project, 'tool.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    fake.enqueue(
      reply(toolUse('toolu_b', 'write_file', { path: 'tool.bin', content: 'x'.repeat(42) })),
      reply(text('ok')),
    );
    const denied = await runOnTty(['a\r']);
    const prompt = denied.prompts[0] ?? '';
    expect(prompt).toContain(
      '! tool.bin: This write replaces a binary file of 8 bytes with 42 bytes of new content, and binary content cannot be shown',
    );
    expect(prompt).toContain('Allow once? [y]es once, [N]o');
    expect(prompt).not.toContain('[s]ession');
    expect(prompt).not.toContain('Runs outside the sandbox');
    expect(fs.readFileSync(path.join(box.project, 'tool.bin'))).toEqual(
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]),
    );

    fake.enqueue(
      reply(toolUse('toolu_b2', 'write_file', { path: 'tool.bin', content: 'x'.repeat(42) })),
      reply(text('ok')),
    );
    const allowed = await runOnTty(['y\r']);
    expect(allowed.code).toBe(0);
    expect(fs.readFileSync(path.join(box.project, 'tool.bin'), 'utf8')).toBe('x'.repeat(42));
    expect(fs.existsSync(path.join(box.project, '.gatehouse', 'settings.local.yaml'))).toBe(false);
  });
});
