import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createHooksHandlers } from '../../../src/main/services/app/hooks-handlers';
import { storeOracle } from '../../../src/main/core/trust/trust-extensions';
import type { TrustStore } from '../../../src/main/core/trust/trust-store';
import { HooksChannels } from '../../../src/shared/hooks-contract';
import { rejection, removeTempDirs, rulesDirs, write } from '../rules-helpers';

// The Hooks page's edits: real settings files in temp dirs, the same writer as the rules editor.

describe('hooks handlers: adding, editing and deleting hooks', () => {
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let trust: TrustStore;
  const handlers = () =>
    createHooksHandlers({ currentProject: () => project, configDir: home, env, trust: storeOracle(trust) });
  const userFile = () => path.join(home, 'settings.yaml');
  const projectFile = () => path.join(project, '.gatehouse/settings.yaml');
  const list = async () => HooksChannels.listHooks.response.parse(await handlers().listHooks({}));

  beforeEach(() => {
    ({ home, project, env, trust } = rulesDirs('hooks-edit'));
    write(userFile(), '# my settings, keep this comment\npermissions:\n  ask: ["Bash(git push:*)"] # and this one\n');
    write(
      path.join(project, '.claude/settings.json'),
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './fmt.sh' }] }] },
      }),
    );
    write(
      path.join(home, 'policy.yaml'),
      'hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: audit.sh\n',
    );
  });
  afterEach(removeTempDirs);

  it('adds a hook to the user file, keeping its comments and other keys; listed as editable and active', async () => {
    const r = await handlers().addHook({
      scope: 'user',
      hook: { event: 'PreToolUse', matcher: 'Bash|Write', command: './check.sh', timeoutSeconds: 15 },
    });
    expect(r).toEqual({ changed: true, file: userFile() });
    const text = fs.readFileSync(userFile(), 'utf8');
    expect(text).toContain('# my settings, keep this comment');
    expect(text).toContain('# and this one');
    expect(parse(text)).toEqual({
      permissions: { ask: ['Bash(git push:*)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash|Write', hooks: [{ type: 'command', command: './check.sh', timeout: 15 }] }],
      },
    });
    // A second hook with the same matcher joins the group; the same hook again changes nothing.
    await handlers().addHook({
      scope: 'user',
      hook: { event: 'PreToolUse', matcher: 'Bash|Write', command: './two.sh' },
    });
    expect(
      (
        await handlers().addHook({
          scope: 'user',
          hook: { event: 'PreToolUse', matcher: 'Bash|Write', command: './two.sh' },
        })
      ).changed,
    ).toBe(false);
    expect(parse(fs.readFileSync(userFile(), 'utf8')).hooks.PreToolUse).toEqual([
      {
        matcher: 'Bash|Write',
        hooks: [
          { type: 'command', command: './check.sh', timeout: 15 },
          { type: 'command', command: './two.sh' },
        ],
      },
    ]);
    const hooks = (await list()).hooks;
    expect(hooks.find((h) => h.command === './check.sh')).toMatchObject({
      scope: 'user',
      event: 'PreToolUse',
      matcher: 'Bash|Write',
      timeoutSeconds: 15,
      active: true,
      editable: true,
      readOnlyReason: null,
    });
    // Claude Code's file and policy stay read only, with the reason.
    expect(hooks.find((h) => h.command === './fmt.sh')).toMatchObject({ editable: false, format: 'claude' });
    expect(hooks.find((h) => h.command === './fmt.sh')?.readOnlyReason).toMatch(/Claude Code/);
    expect(hooks.find((h) => h.command === 'audit.sh')).toMatchObject({ scope: 'policy', editable: false });
    expect(hooks.find((h) => h.command === 'audit.sh')?.readOnlyReason).toMatch(/policy/);
  });

  it('edits a hook where it stands, moves it to another event, then deletes it; the empty block goes', async () => {
    const h = handlers();
    await h.addHook({ scope: 'project', hook: { event: 'PostToolUse', matcher: 'Edit', command: 'npm run lint' } });
    fs.writeFileSync(
      projectFile(),
      fs.readFileSync(projectFile(), 'utf8').replace('npm run lint', 'npm run lint # lint it'),
    );
    await h.updateHook({
      scope: 'project',
      from: { event: 'PostToolUse', matcher: 'Edit', command: 'npm run lint' },
      to: { event: 'PostToolUse', matcher: 'Edit', command: 'npm run lint:fix', timeoutSeconds: 30 },
    });
    let text = fs.readFileSync(projectFile(), 'utf8');
    expect(text).toContain('# lint it'); // changed in place: its comment stays
    expect(parse(text).hooks.PostToolUse).toEqual([
      { matcher: 'Edit', hooks: [{ type: 'command', command: 'npm run lint:fix', timeout: 30 }] },
    ]);
    await h.updateHook({
      scope: 'project',
      from: { event: 'PostToolUse', matcher: 'Edit', command: 'npm run lint:fix' },
      to: { event: 'Stop', matcher: '', command: 'npm run lint:fix' },
    });
    expect(parse(fs.readFileSync(projectFile(), 'utf8')).hooks).toEqual({
      Stop: [{ hooks: [{ type: 'command', command: 'npm run lint:fix' }] }],
    });
    await h.removeHook({ scope: 'project', hook: { event: 'Stop', matcher: '', command: 'npm run lint:fix' } });
    text = fs.readFileSync(projectFile(), 'utf8');
    expect(parse(text) ?? {}).toEqual({});
    // A hook that is not there (deleted or changed elsewhere): a clear error naming the file.
    const err = await rejection(
      h.removeHook({ scope: 'project', hook: { event: 'Stop', matcher: '', command: 'npm run lint:fix' } }),
    );
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toContain(projectFile());
  });

  it('an invalid matcher is refused with the reason and the file is untouched; unknown names only warn', async () => {
    const before = fs.readFileSync(userFile(), 'utf8');
    for (const matcher of ['Bash(', '[a-']) {
      const err = await rejection(
        handlers().addHook({ scope: 'user', hook: { event: 'PreToolUse', matcher, command: './x.sh' } }),
      );
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.message).toContain(`matcher "${matcher}" is not a valid regular expression`);
    }
    const err = await rejection(
      handlers().addHook({ scope: 'user', hook: { event: 'Stop', matcher: 'Bash', command: './x.sh' } }),
    );
    expect(err.message).toMatch(/Stop hooks have no matcher/);
    expect(fs.readFileSync(userFile(), 'utf8')).toBe(before);
    // The request schema refuses an empty command before main sees it.
    expect(
      HooksChannels.addHook.request.safeParse({ scope: 'user', hook: { event: 'Stop', matcher: '', command: '  ' } })
        .success,
    ).toBe(false);
    // The live check: errors, names of no tool, and what is fine.
    const v = handlers().validateHookMatcher;
    expect((await v({ event: 'PreToolUse', matcher: 'Bash(' })).error).toMatch(/not a valid regular expression/);
    expect(await v({ event: 'PreToolUse', matcher: 'Bash|run_command|Notebook.*|*' })).toMatchObject({
      error: expect.any(String),
    });
    expect(await v({ event: 'PreToolUse', matcher: 'Bash|run_command' })).toEqual({ error: null, warnings: [] });
    expect(await v({ event: 'PreToolUse', matcher: 'Notebook.*' })).toEqual({ error: null, warnings: [] });
    expect(await v({ event: 'PreToolUse', matcher: '*' })).toEqual({ error: null, warnings: [] });
    expect((await v({ event: 'PreToolUse', matcher: 'Bassh' })).warnings).toEqual([
      '"Bassh" is not the name of a tool: this hook never runs for it',
    ]);
    expect(await v({ event: 'SessionStart', matcher: 'startup|resume' })).toEqual({ error: null, warnings: [] });
  });

  it('a broken settings file is refused, never overwritten', async () => {
    write(projectFile(), 'hooks: [this is: not, valid\n');
    const before = fs.readFileSync(projectFile(), 'utf8');
    const err = await rejection(
      handlers().addHook({ scope: 'project', hook: { event: 'Stop', matcher: '', command: './x.sh' } }),
    );
    expect(err.message).toContain(projectFile());
    expect(fs.readFileSync(projectFile(), 'utf8')).toBe(before);
    write(projectFile(), 'hooks: just text\n');
    const shape = await rejection(
      handlers().addHook({ scope: 'project', hook: { event: 'Stop', matcher: '', command: './x.sh' } }),
    );
    expect(shape.message).toContain('"hooks" must be a mapping');
    expect(fs.readFileSync(projectFile(), 'utf8')).toBe('hooks: just text\n');
  });

  it('concurrent edits lose nothing (the file lock), and an edit of a hook changed meanwhile is refused', async () => {
    fs.mkdirSync(path.join(project, '.git/info'), { recursive: true });
    const commands = Array.from({ length: 8 }, (_, i) => `./hook-${i}.sh`);
    await Promise.all(
      commands.map((command) =>
        handlers().addHook({ scope: 'local', hook: { event: 'PreToolUse', matcher: 'Bash', command } }),
      ),
    );
    const localFile = path.join(project, '.gatehouse/settings.local.yaml');
    const written = parse(fs.readFileSync(localFile, 'utf8')).hooks.PreToolUse as { hooks: { command: string }[] }[];
    expect(written.flatMap((g) => g.hooks.map((h) => h.command)).sort()).toEqual([...commands].sort());
    // The local file is kept out of git, as with rules.
    expect(fs.readFileSync(path.join(project, '.git/info/exclude'), 'utf8')).toContain(
      '.gatehouse/settings.local.yaml',
    );

    // Someone else changed the hook in the file: the page's edit names what it expected and changes nothing.
    fs.writeFileSync(localFile, fs.readFileSync(localFile, 'utf8').replace('./hook-0.sh', './theirs.sh'));
    const before = fs.readFileSync(localFile, 'utf8');
    const err = await rejection(
      handlers().updateHook({
        scope: 'local',
        from: { event: 'PreToolUse', matcher: 'Bash', command: './hook-0.sh' },
        to: { event: 'PreToolUse', matcher: 'Bash', command: './mine.sh' },
      }),
    );
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toMatch(/changed on disk/);
    expect(fs.readFileSync(localFile, 'utf8')).toBe(before);
  });

  it('project hooks of an untrusted project, or with hooks switched off in its trust, are listed inactive with why', async () => {
    await handlers().addHook({ scope: 'project', hook: { event: 'PreToolUse', matcher: '*', command: './p.sh' } });
    const untrusted = (await list()).hooks.find((h) => h.command === './p.sh');
    expect(untrusted).toMatchObject({ active: false, editable: true });
    expect(untrusted?.inactiveReason).toMatch(/not trusted/);
    await trust.set(project, 'directory', { rules: true, hooks: false, instructions: true });
    const off = (await list()).hooks.find((h) => h.command === './p.sh');
    expect(off?.inactiveReason).toMatch(/trust does not enable its hooks/);
    await trust.set(project, 'directory', { rules: true, hooks: true, instructions: true });
    expect((await list()).hooks.find((h) => h.command === './p.sh')).toMatchObject({ active: true });
  });
});
