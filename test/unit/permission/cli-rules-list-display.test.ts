import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/main/shells/cli/main';
import { makeFixture, type Fixture } from './fixture';

// `gatehouse rules list` shows rules a cloned repository wrote: their hidden characters must show (issue 13).

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

describe('gatehouse rules list (text)', () => {
  it('marks bidi controls, zero-width characters, escapes and line breaks in rules; --json keeps the exact text', async () => {
    const rules = ['Bash(npm test\u202E)', 'Bash(git\u200B status)', 'Bash(echo\nrm)', 'Read(\x1b[2K.env)'];
    fx.settings('project', { deny: rules });
    const out: string[] = [];
    const run = (args: string[]) =>
      runCli(args, { out: (l) => out.push(l), err: () => undefined, env: fx.env, cwd: fx.project });
    // The rule with a line break is skipped (an error line), so the listing fails after showing everything.
    expect(await run(['rules', 'list', '--project', fx.project])).toBe(1);
    const text = out.join('\n');
    expect(text).toContain('deny  Bash(npm test⟨U+202E⟩)');
    expect(text).toContain('deny  Bash(git⟨U+200B⟩ status)');
    expect(text).toContain('Read(⟨ESC⟩[2K.env)');
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(text).not.toMatch(/[\u202E\u200B\x1b]/);
    // A rule with a line break stays on its own line, its break shown.
    expect(out.some((l) => l.includes('Bash(echo⏎rm)'))).toBe(true);
    out.length = 0;
    expect(await run(['rules', 'list', '--project', fx.project, '--json'])).toBe(1);
    const listed = (JSON.parse(out.join('\n')) as { rules: Array<{ rule: string }> }).rules.map((r) => r.rule);
    expect(listed).toEqual(expect.arrayContaining(rules.filter((r) => !r.includes('\n'))));
  });
});

describe('gatehouse rules list / add warn about rules that do nothing', () => {
  it('list: an unknown tool says which was meant; an allow outside the project says path confinement wins', async () => {
    fx.settings('project', { allow: ['Bsh(ls)', 'Read(../**)', 'Bash(npm test)'] });
    const out: string[] = [];
    const run = (args: string[]) =>
      runCli(args, { out: (l) => out.push(l), err: () => undefined, env: fx.env, cwd: fx.project });
    expect(await run(['rules', 'list', '--project', fx.project])).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/allow Bsh\(ls\).*\n\s+warning: unknown tool "Bsh": did you mean Bash\?/);
    expect(text).toMatch(/allow Read\(\.\.\/\*\*\).*\n\s+warning: path confinement always wins/);
    expect(text).not.toMatch(/Bash\(npm test\).*\n\s+warning/);
    out.length = 0;
    expect(await run(['rules', 'list', '--project', fx.project, '--json'])).toBe(0);
    const json = JSON.parse(out.join('\n')) as { rules: Array<{ rule: string; warnings: string[] }> };
    expect(json.rules.find((r) => r.rule === 'Bsh(ls)')?.warnings).toEqual([
      'unknown tool "Bsh": did you mean Bash? As written the rule matches nothing',
    ]);
  });

  it('add: warns on stderr, and still adds the rule', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['rules', 'add', '--scope', 'project', '--behavior', 'allow', '--project', fx.project, 'Read(../**)'],
      { out: (l) => out.push(l), err: (l) => err.push(l), env: fx.env, cwd: fx.project },
    );
    expect(code).toBe(0);
    expect(err.join('\n')).toContain('warning: path confinement always wins');
    expect(out.join('\n')).toContain('added allow Read(../**)');
  });
});
