import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeCall, TextRenderer } from '../../../src/main/shells/cli/text-renderer';
import { ttyApprover } from '../../../src/main/shells/cli/tty-approver';
import type { ApprovalRequest } from '../../../src/main/services/agent-runs/types';

const base: ApprovalRequest = {
  requestId: 'q1',
  runId: 'r1',
  tool: 'write_file',
  input: { path: 'big.txt', content: '' },
  reason: 'writes ask in default mode',
  source: 'mode',
  suggestedRules: ['Edit(big.txt)'],
};

/** Answers the prompt with each of `typed`, one per prompt, and returns what the terminal showed. */
async function answer(req: ApprovalRequest, typed: string[]): Promise<{ kind: string; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  let prompts = 0;
  output.on('data', (c: Buffer) => {
    shown += c.toString('utf8');
    const seen = shown.split(/Allow(?: once)?\? /).length - 1;
    if (seen > prompts) {
      prompts = seen;
      input.write(typed[prompts - 1] ?? '\n');
    }
  });
  const result = await ttyApprover(input, output)(req, new AbortController().signal);
  return { kind: result.kind, shown };
}

describe('the terminal approval', () => {
  it('says how many diff lines are cut and shows them on "v" before the answer', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `+line ${i + 1}`);
    const req: ApprovalRequest = {
      ...base,
      preview: {
        kind: 'diff',
        path: 'big.txt',
        unifiedDiff: `--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,100 @@\n${lines.join('\n')}\n`,
      },
    };
    const { kind, shown } = await answer(req, ['v\n', 'y\n']);
    expect(kind).toBe('once');
    expect(shown).toContain('... 43 more diff lines: type v to see them');
    expect(shown).toContain('[v]iew the whole diff');
    expect(shown.indexOf('+line 100')).toBeGreaterThan(shown.indexOf('more diff lines'));
    expect(shown.indexOf('+line 100')).toBeLessThan(shown.lastIndexOf('Allow?'));
  });

  it('prints a hostile rule and reason with markers, never the raw characters', async () => {
    const req: ApprovalRequest = {
      ...base,
      reason: 'matched \x1b]8;;https://evil.example\x07rule\x1b]8;;\x07',
      suggestedRules: ['Edit(a\u202Eb)'],
    };
    const { shown } = await answer(req, ['\n']);
    expect(shown).toContain('matched ⟨ESC⟩]8;;https://evil.example⟨BEL⟩rule⟨ESC⟩]8;;⟨BEL⟩');
    expect(shown).toContain('"session"/"always" would add: Edit(a⟨U+202E⟩b)');
    expect(shown).toContain('! This call contains 5 hidden or control characters');
    // (readline's own prompt drawing comes after)
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(shown.slice(0, shown.indexOf('\x1b[1G'))).not.toMatch(/[\x07\x1b\u202E]/);
  });
});

describe('which sandbox a command runs in, on the terminal', () => {
  it('the approval says where an allowed command will run; the tool line where it ran', async () => {
    const req: ApprovalRequest = {
      ...base,
      tool: 'run_command',
      input: { command: 'make' },
      suggestedRules: ['Bash(make)'],
      sandbox: 'workspace',
    };
    expect((await answer(req, ['n\n'])).shown).toContain('  if you allow it, it runs in: sandbox: project writable\n');
    expect((await answer({ ...req, sandbox: undefined }, ['n\n'])).shown).not.toContain('runs in');
    const lines: string[] = [];
    const renderer = new TextRenderer((l) => lines.push(l));
    renderer.handle({
      type: 'agent',
      runId: 'r',
      event: {
        type: 'tool_call_started',
        turn: 1,
        id: 'c',
        name: 'run_command',
        input: { command: 'ls' },
        safety: 'exec',
      },
    });
    const decided = { type: 'tool_call_decided', id: 'c', allow: true, source: 'mode', rule: null } as const;
    renderer.handle({ type: 'agent', runId: 'r', event: { ...decided, reason: 'read-only', sandbox: 'read-only' } });
    expect(lines).toEqual(['[tool] run_command ls -> allow (mode): read-only [read-only sandbox]']);
  });
});

describe('gatehouse run --output text', () => {
  it('shows a long command cut with the rest counted, a line break as ⏎, and the model text with markers', () => {
    expect(describeCall('run_command', { command: `echo ${'a'.repeat(300)}` })).toMatch(
      /^run_command echo a{155}… \(145 more characters\)$/,
    );
    expect(describeCall('run_command', { command: 'echo  safe\ntouch X' })).toBe('run_command echo  safe⏎touch X');
    const lines: string[] = [];
    const renderer = new TextRenderer((l) => lines.push(l));
    renderer.handle({
      type: 'agent',
      runId: 'r',
      event: { type: 'text_delta', turn: 1, text: 'Done \x1b[2Kreally\u200B.' },
    });
    renderer.flush();
    expect(lines).toEqual(['Done ⟨ESC⟩[2Kreally⟨U+200B⟩.']);
  });
});
