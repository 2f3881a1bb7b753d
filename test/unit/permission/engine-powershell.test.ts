import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proposeRules } from '../../../src/main/core/permission/approvals';
import { cmd, makeFixture, type Fixture } from './fixture';

// On a Windows machine without Git Bash, run_command's text runs in PowerShell, which the engine has no analysis
// for: it is unreadable. No allow rule, mode or read-only verdict lets it through; deny and ask rules and the
// built-in deny list still judge it as bash would read it (they can only make the answer stricter).

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const POWERSHELL = { shell: 'powershell' } as const;
const UNREADABLE =
  /^unreadable command \(it runs in PowerShell \(no Git Bash on this Windows machine\), which Gatehouse does not analyse\): Gatehouse cannot know what runs, so it asks in every mode$/;

describe('a command PowerShell runs is unreadable', () => {
  it('no allow rule lets it through, in any mode, bypass included (bash: the same rules allow it)', async () => {
    fx.settings('user', { allow: ['Bash', 'Bash(ls:*)', 'Bash(Get-ChildItem:*)', 'Bash(npm test)'] });
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      const e = await fx.engine({ mode });
      for (const command of ['ls src', 'Get-ChildItem -Recurse', 'npm test', 'ls; Remove-Item -Recurse src']) {
        expect((await e.decide(cmd(command))).decision, `${mode}: ${command}`).toBe('allow');
        const asked = await e.decide(cmd(command), POWERSHELL);
        expect(asked, `${mode}: ${command}`).toMatchObject({ decision: 'ask', source: 'defaults', rule: null });
        expect(asked.reason).toMatch(UNREADABLE);
        expect((await e.decide(cmd(command), POWERSHELL)).decision).toBe('ask');
      }
    }
  });

  it('what bash would call read-only is not read-only in PowerShell (`ls` is Get-ChildItem, `cat` Get-Content)', async () => {
    const e = await fx.engine({ mode: 'default' });
    for (const command of ['ls', 'cat README.md', 'git status', 'echo $env:PATH', 'pwd']) {
      expect((await e.decide(cmd(command))).decision, command).toBe('allow');
      expect((await e.evaluate(cmd(command), POWERSHELL)).context?.category, command).toBe('exec');
      expect((await e.decide(cmd(command), POWERSHELL)).decision, command).toBe('ask');
    }
    const [bash, ps] = [await e.evaluateAll([cmd('ls')]), await e.evaluateAll([cmd('ls')], POWERSHELL)];
    expect([bash[0]!.decision.decision, ps[0]!.decision.decision]).toEqual(['allow', 'ask']);
  });

  it('deny and ask rules and the built-in deny list still judge the text', async () => {
    fx.settings('user', { allow: ['Bash'], deny: ['Bash(Remove-Item:*)'], ask: ['Bash(git push:*)'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(cmd('Remove-Item -Recurse -Force src'), POWERSHELL)).toMatchObject({
      decision: 'deny',
      rule: 'Bash(Remove-Item:*)',
    });
    expect(await e.decide(cmd('git push origin main'), POWERSHELL)).toMatchObject({
      decision: 'ask',
      rule: 'Bash(git push:*)',
    });
    expect(await e.decide(cmd('sudo rm -rf /'), POWERSHELL)).toMatchObject({ decision: 'deny', source: 'hard' });
    expect(await e.decide(cmd('echo x > .gatehouse/settings.yaml'), POWERSHELL)).toMatchObject({
      decision: 'deny',
      source: 'hard',
    });
  });

  it('an approval offers no rule to remember: the next PowerShell command is judged afresh', async () => {
    const e = await fx.engine({ mode: 'default' });
    expect(await proposeRules(e, cmd('npm test'))).not.toEqual([]);
    expect(await proposeRules(e, cmd('npm test'), POWERSHELL)).toEqual([]);
  });

  it('other tools are judged as ever', async () => {
    const e = await fx.engine({ mode: 'default' });
    expect((await e.decide({ tool: 'read_file', input: { path: 'README.md' } }, POWERSHELL)).decision).toBe('allow');
  });
});
