import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cmd, edit, makeFixture, read, write, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

describe('4. rules across sources: deny > ask > allow', () => {
  it('any deny wins over allows of stronger sources, and the winning rule and source are reported', async () => {
    fx.settings('project', { allow: ['Bash(git push:*)'] });
    fx.settings('user', { deny: ['Bash(git push:*)'] });
    const e = await fx.engine({ cli: [{ behavior: 'allow', rule: 'Bash(git push origin main)' }] });
    expect(await e.decide(cmd('git push origin main'))).toMatchObject({
      decision: 'deny',
      source: 'user',
      rule: 'Bash(git push:*)',
    });
  });
  it('ask beats allow', async () => {
    fx.settings('project', { allow: ['Edit(src/**)'] });
    fx.settings('local', { ask: ['Edit(src/secret/**)'] });
    const e = await fx.engine({ mode: 'acceptEdits' });
    expect(await e.decide(write('src/secret/a.ts'))).toMatchObject({
      decision: 'ask',
      source: 'local',
      rule: 'Edit(src/secret/**)',
    });
    expect(await e.decide(write('src/other.ts'))).toMatchObject({
      decision: 'allow',
      source: 'project',
      rule: 'Edit(src/**)',
    });
  });
  it('among matching rules of one behaviour the strongest source is reported (policy first)', async () => {
    fx.settings('policy', { deny: ['Bash(curl:*)'] });
    fx.settings('user', { deny: ['Bash(curl *)'] });
    const e = await fx.engine();
    expect(await e.decide(cmd('curl example.com'))).toMatchObject({ decision: 'deny', source: 'policy' });
  });
  it('a user deny holds in bypass mode; every source is read', async () => {
    const sources = ['policy', 'user', 'project', 'local', 'claudeProject', 'claudeLocal', 'claudeUser'] as const;
    const expected = {
      policy: 'policy',
      user: 'user',
      project: 'project',
      local: 'local',
      claudeProject: 'project',
      claudeLocal: 'local',
      claudeUser: 'user',
    };
    for (const s of sources) {
      const f = makeFixture();
      try {
        f.settings(s, { deny: ['Bash(git push:*)'] });
        const e = await f.engine({ mode: 'bypassPermissions' });
        expect(await e.decide(cmd('git push origin main')), s).toMatchObject({ decision: 'deny', source: expected[s] });
      } finally {
        await f.cleanup();
      }
    }
    const e = await fx.engine({ mode: 'bypassPermissions', cli: [{ behavior: 'deny', rule: 'Bash(git push:*)' }] });
    expect(await e.decide(cmd('git push'))).toMatchObject({ decision: 'deny', source: 'cli' });
  });
});

describe('Bash rules', () => {
  it('prefix rules with word boundary, exact rules, globs', async () => {
    fx.settings('project', {
      allow: ['Bash(npm run test:*)', 'Bash(npm ci)', 'Bash(./gradlew:*)', 'Bash(make * --quiet)'],
    });
    const e = await fx.engine();
    const allowed = [
      'npm run test',
      'npm run test -- --watch',
      'npm ci',
      './gradlew build',
      'make all --quiet',
      'npm \'run\' "test"',
    ];
    const not = ['npm run testx', 'npm run test:unit', 'npm ci --force', 'make all'];
    for (const c of allowed) expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'allow', source: 'project' });
    for (const c of not) expect((await e.decide(cmd(c))).decision, c).toBe('ask');
  });
  it('compound commands are allowed only if every part is; any denied part denies; any asked part asks', async () => {
    fx.settings('project', {
      allow: ['Bash(npm run test:*)', 'Bash(npm run lint)'],
      deny: ['Bash(curl:*)'],
      ask: ['Bash(git push:*)'],
    });
    const e = await fx.engine();
    expect((await e.decide(cmd('npm run test && rm -rf build'))).decision).toBe('ask');
    expect((await e.decide(cmd('npm run test && npm run lint'))).decision).toBe('allow');
    // Every simple command must match an allow rule, read-only ones included.
    expect(await e.decide(cmd('npm run test && ls'))).toMatchObject({ decision: 'ask', source: 'mode' });
    expect(await e.decide(cmd('npm run lint; npm run test | tee out.txt'))).toMatchObject({ decision: 'allow' });
    expect(await e.decide(cmd('npm run test && curl evil.sh'))).toMatchObject({
      decision: 'deny',
      rule: 'Bash(curl:*)',
    });
    expect(await e.decide(cmd('npm run test || git push'))).toMatchObject({
      decision: 'ask',
      rule: 'Bash(git push:*)',
    });
    expect(await e.decide(cmd('echo $(curl x)'))).toMatchObject({ decision: 'deny' });
    expect(await e.decide(cmd('(cd src && curl x)'))).toMatchObject({ decision: 'deny' });
    expect(await e.decide(cmd("bash -c 'curl x'"))).toMatchObject({ decision: 'deny' });
  });
  it('an allowed command may redirect into the project, not outside it', async () => {
    fx.settings('user', { allow: ['Bash(npm run build:*)'] });
    const e = await fx.engine();
    expect((await e.decide(cmd('npm run build > build.log 2>&1'))).decision).toBe('allow');
    expect(await e.decide(cmd(`npm run build > ${fx.outside}/log.txt`))).toMatchObject({
      decision: 'ask',
      source: 'defaults',
    });
    expect(await e.decide(cmd('npm run build > .git/hooks/pre-commit'))).toMatchObject({
      decision: 'ask',
      source: 'defaults',
    });
  });
  it('deny rules see through wrappers, assignments, quotes and program paths', async () => {
    fx.settings('user', { deny: ['Bash(git push:*)'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const c of [
      'env FOO=1 git push',
      'FOO=1 git push',
      'timeout 5 git push',
      'g\\it pu""sh',
      '/usr/bin/git push',
      'nice -n 5 git push origin',
      'command git push',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'deny', source: 'user' });
    }
  });
  it('allow rules match the program that really runs: a wrapper rule does not allow what it wraps', async () => {
    fx.settings('user', { allow: ['Bash(timeout:*)', 'Bash(make test)'] });
    const e = await fx.engine();
    expect((await e.decide(cmd('timeout 5 rm -rf build'))).decision).toBe('ask');
    expect((await e.decide(cmd('timeout 60 make test'))).decision).toBe('allow');
    expect((await e.decide(cmd('LD_PRELOAD=./evil.so make test'))).decision).toBe('ask');
    expect((await e.decide(cmd('make test | xargs make test'))).decision).toBe('ask');
    expect((await e.decide(cmd('make test | make test'))).decision).toBe('allow');
  });
  it('unreadable commands: never allowed, ask in every mode, a deny rule still denies', async () => {
    fx.settings('user', { allow: ['Bash'] });
    for (const mode of ['strict', 'default', 'acceptEdits', 'bypassPermissions'] as const) {
      const e = await fx.engine({ mode });
      for (const c of ['$CMD --version', 'eval "$SCRIPT"', '$(echo rm) -rf x', 'sh -c "$X"']) {
        expect(await e.decide(cmd(c)), `${mode} ${c}`).toMatchObject({ decision: 'ask' });
        expect((await e.decide(cmd(c))).reason).toContain('unreadable');
      }
    }
    fx.settings('project', { deny: ['Bash'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(cmd('$CMD --version'))).toMatchObject({ decision: 'deny', source: 'project' });
  });
  it('bare Bash matches every command; raw tool name rules work', async () => {
    fx.settings('user', { allow: ['run_command(npm test)'], deny: ['write_file(src/gen/**)'] });
    const e = await fx.engine({ mode: 'acceptEdits' });
    expect(await e.decide(cmd('npm test'))).toMatchObject({ decision: 'allow', rule: 'run_command(npm test)' });
    expect(await e.decide(write('src/gen/a.ts'))).toMatchObject({ decision: 'deny', rule: 'write_file(src/gen/**)' });
    expect((await e.decide(edit('src/gen/a.ts'))).decision).toBe('allow');
  });
});

describe('path rules', () => {
  it('Read applies to read_file, find_files and search_code; Glob and Grep to one each', async () => {
    fx.settings('user', { deny: ['Read(./secrets/**)', 'Glob(docs/**)', 'Grep(src/**)'] });
    const e = await fx.engine();
    expect(await e.decide(read('secrets/key.txt'))).toMatchObject({ decision: 'deny', rule: 'Read(./secrets/**)' });
    expect((await e.decide({ tool: 'find_files', input: { pattern: '*', path: 'secrets' } })).decision).toBe('deny');
    expect((await e.decide({ tool: 'search_code', input: { pattern: 'k', path: 'secrets' } })).decision).toBe('deny');
    expect((await e.decide({ tool: 'find_files', input: { pattern: '*', path: 'docs' } })).decision).toBe('deny');
    expect((await e.decide({ tool: 'find_files', input: { pattern: 'secrets/**' } })).decision).toBe('deny');
    expect((await e.decide({ tool: 'search_code', input: { pattern: 'k', glob: 'secrets/*.txt' } })).decision).toBe(
      'deny',
    );
    expect((await e.decide(read('docs/a.md'))).decision).toBe('allow');
    expect((await e.decide({ tool: 'search_code', input: { pattern: 'k', path: 'src' } })).decision).toBe('deny');
    expect((await e.decide(read('src/index.ts'))).decision).toBe('allow');
  });
  it('Read rules judge the file arguments of reading commands and input redirects', async () => {
    fx.settings('project', { deny: ['Read(./secrets/**)'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const c of [
      'cat secrets/key.txt',
      'head -n 1 secrets/key.txt',
      'grep k secrets/key.txt',
      'wc -l < secrets/key.txt',
      'ls && cat ./secrets/../secrets/key.txt',
    ]) {
      expect(await e.decide(cmd(c)), c).toMatchObject({ decision: 'deny', source: 'project' });
    }
  });
  it('Edit rules judge redirect and tee targets', async () => {
    fx.settings('user', { deny: ['Edit(docs/**)'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(cmd('echo hi > docs/a.md'))).toMatchObject({ decision: 'deny', rule: 'Edit(docs/**)' });
    expect(await e.decide(cmd('echo hi | tee docs/a.md'))).toMatchObject({ decision: 'deny' });
    expect((await e.decide(cmd('echo hi > src/a.md'))).decision).toBe('allow');
  });
  it('pattern forms: no slash = any folder, // absolute, ~ home, / and ./ project-relative', async () => {
    fs.mkdirSync(path.join(fx.project, 'a/b'), { recursive: true });
    fx.settings('user', {
      ask: ['Read(notes.txt)', 'Read(/top.txt)', `Read(/${fx.project}/abs.txt)`],
      deny: ['Read(~/.ssh/**)'],
    });
    const e = await fx.engine();
    expect((await e.decide(read('a/b/notes.txt'))).decision).toBe('ask');
    expect((await e.decide(read('top.txt'))).decision).toBe('ask');
    expect((await e.decide(read('a/top.txt'))).decision).toBe('allow');
    expect((await e.decide(read('abs.txt'))).decision).toBe('ask');
    expect(await e.decide(cmd('cat ~/.ssh/id_rsa'))).toMatchObject({ decision: 'deny', rule: 'Read(~/.ssh/**)' });
  });
  it('deny rules match a symlink by its name and by its target; allow rules only by where it lands', async () => {
    fs.symlinkSync('secrets', path.join(fx.project, 'public'));
    fx.settings('user', { deny: ['Read(./secrets/**)'], allow: ['Edit(public/**)'] });
    const e = await fx.engine();
    expect((await e.decide(read('public/key.txt'))).decision).toBe('deny');
    expect((await e.decide(write('public/new.txt'))).decision).toBe('ask');
  });
  it('rules for tools Gatehouse does not have are kept and match nothing; a bad rule is skipped, the rest applies', async () => {
    fx.settings('user', {
      allow: ['WebFetch(domain:example.com)', 'Bash(', 'Bash(make:*)'],
      deny: ['mcp__github__create_issue'],
    });
    const e = await fx.engine();
    expect(await e.decide(cmd('make all'))).toMatchObject({ decision: 'allow', rule: 'Bash(make:*)' });
    const snap = await e.state.snapshot();
    expect(snap.rules.map((r) => r.text)).toEqual(
      expect.arrayContaining(['WebFetch(domain:example.com)', 'mcp__github__create_issue']),
    );
    expect(snap.ruleErrors).toEqual([expect.objectContaining({ rule: 'Bash(', source: 'user' })]);
  });
  it('edits to settings take effect on the next call; a broken edit keeps the last good rules', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect((await e.decide(cmd('git push'))).decision).toBe('allow');
    fx.settings('local', { deny: ['Bash(git push:*)'] });
    expect((await e.decide(cmd('git push'))).decision).toBe('deny');
    fx.write('.gatehouse/settings.local.yaml', 'permissions:\n  deny: [\n');
    expect((await e.decide(cmd('git push'))).decision).toBe('deny');
    expect((await e.state.snapshot()).fileErrors[0]).toMatchObject({
      file: path.join(fx.project, '.gatehouse/settings.local.yaml'),
      line: expect.any(Number),
    });
    fx.write('.gatehouse/settings.local.yaml', 'permissions: {}\n');
    expect((await e.decide(cmd('git push'))).decision).toBe('allow');
  });
});
