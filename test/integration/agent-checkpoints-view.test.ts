import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { runGatehouse, withTrustedProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// A checkpoint covers what its own ignore rules covered when it was taken. An agent that ignores the files it
// changes (`src/` added to .gitignore, a line in .git/info/exclude) hides nothing from `gatehouse checkpoints
// diff|restore`; a person's own edit of the rules while the run goes is kept and listed; files the checkpoint's rules
// ignored stay out of reach even when the agent un-ignores them. `gatehouse run` with the loopback model, real git,
// real files.

let fake: FakeAnthropic;
let box: Sandbox;
withTrustedProject('gh-ckpt-view-', (f, b) => {
  fake = f;
  box = b;
});

const cli = (...args: string[]) => runGatehouse(args, box.env, box.home);
const file = (rel: string) => path.join(box.project, rel);
const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');
const EXCLUDE = '.git/info/exclude';

async function agentRun(prompt: string, ...replies: ReturnType<typeof reply>[]): Promise<void> {
  fake.enqueue(...replies, reply(text('Done.')));
  const r = await cli('run', '--project', box.project, '--mode', 'bypassPermissions', prompt);
  expect(r.code, r.stderr).toBe(0);
}

async function checkpointIds(): Promise<string[]> {
  const r = await cli('checkpoints', 'list', '--project', box.project, '--json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ id: string }>).map((e) => e.id);
}

/** `M path` lines of `checkpoints diff`, sorted, with their "(changed outside the agent)" mark. */
async function previewLines(id: string): Promise<string[]> {
  const diff = await cli('checkpoints', 'diff', id, '--project', box.project);
  expect(diff.code, diff.stderr).toBe(0);
  return diff.stdout
    .split('\n')
    .filter((l) => /^ {2}[MAD] /.test(l))
    .map((l) => l.trim().replace(/ +\(/, ' ('))
    .sort();
}

function seed(): void {
  execFileSync('git', ['init', '-q'], { cwd: box.project });
  fs.mkdirSync(file('src'));
  fs.mkdirSync(file('lib'));
  fs.writeFileSync(file('src/app.js'), 'app v1\n');
  fs.writeFileSync(file('src/util.js'), 'util v1\n');
  fs.writeFileSync(file('lib/a.js'), 'lib v1\n');
  fs.writeFileSync(file('.gitignore'), 'node_modules/\n.env\n');
  fs.writeFileSync(file(EXCLUDE), '# git ls-files --exclude-from=.git/info/exclude\n');
  fs.mkdirSync(file('node_modules/dep'), { recursive: true });
  fs.writeFileSync(file('node_modules/dep/index.js'), 'dep v1\n');
  fs.writeFileSync(file('.env'), 'TOKEN=one\n');
}

describe('a rewind judges files by the checkpoint\u2019s ignore rules', () => {
  it('files the agent hid with .gitignore and .git/info/exclude are listed and restored', async () => {
    seed();
    // Writing under .git/ asks unless a rule allows it: here the person allowed this one file.
    fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), `permissions:\n  allow:\n    - Edit(${EXCLUDE})\n`);
    await agentRun(
      'change things',
      reply(
        toolUse('t1', 'run_command', {
          command: [
            'echo src/ >> .gitignore',
            `echo lib/ >> ${EXCLUDE}`,
            'echo hacked > src/app.js',
            'rm src/util.js',
            'echo planted > src/new.js',
            'echo hacked > lib/a.js',
          ].join(' && '),
        }),
      ),
    );
    expect(read('src/app.js')).toBe('hacked\n');
    const [id] = await checkpointIds();
    // git itself no longer sees them: only the rules hide them.
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: box.project,
      encoding: 'utf8',
    });
    expect(status).not.toMatch(/src\/|lib\//);

    expect(await previewLines(id!)).toEqual([
      'A src/util.js',
      'D src/new.js',
      `M ${EXCLUDE}`,
      'M .gitignore',
      'M lib/a.js',
      'M src/app.js',
    ]);
    const diff = await cli('checkpoints', 'diff', id!, '--project', box.project);
    expect(diff.stdout).toContain('-hacked\n+app v1');
    expect(diff.stdout).toContain(`diff --git a/${EXCLUDE} b/${EXCLUDE}`);
    expect(diff.stdout).toContain('-lib/');

    const restored = await cli('checkpoints', 'restore', id!, '--yes', '--project', box.project);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('restored 6 file(s)');
    expect(read('src/app.js')).toBe('app v1\n');
    expect(read('src/util.js')).toBe('util v1\n');
    expect(read('lib/a.js')).toBe('lib v1\n');
    expect(fs.existsSync(file('src/new.js'))).toBe(false);
    expect(read('.gitignore')).toBe('node_modules/\n.env\n');
    expect(read(EXCLUDE)).toBe('# git ls-files --exclude-from=.git/info/exclude\n');

    // The restore's undo covers what the restore changed, hidden files included.
    const undoId = /undo with: gatehouse checkpoints restore ([0-9a-f]+) --yes/.exec(restored.stdout)?.[1];
    const undone = await cli('checkpoints', 'restore', undoId!, '--yes', '--project', box.project);
    expect(undone.code, undone.stderr).toBe(0);
    expect(read('src/app.js')).toBe('hacked\n');
    expect(fs.existsSync(file('src/util.js'))).toBe(false);
    expect(read(EXCLUDE)).toContain('lib/');
  });

  it('a person\u2019s edit of the rules while the run goes is listed as theirs and kept', async () => {
    seed();
    const personsRules = 'node_modules/\n.env\nnotes/\n';
    await agentRun(
      'two edits',
      reply(toolUse('t1', 'write_file', { path: 'src/app.js', content: 'agent v2\n' })),
      // Between the two calls (the agent waits for its model), the person edits the rules in their editor.
      {
        ...reply(toolUse('t2', 'edit_file', { path: 'src/util.js', old_string: 'v1', new_string: 'v2' })),
        onRequest: () => {
          fs.writeFileSync(file('.gitignore'), personsRules);
          fs.appendFileSync(file(EXCLUDE), 'scratch/\n');
          fs.mkdirSync(file('notes'));
          fs.writeFileSync(file('notes/todo.txt'), 'the person\u2019s notes\n');
        },
      },
    );
    const [id] = await checkpointIds();
    expect(await previewLines(id!)).toEqual([
      'D notes/todo.txt (changed outside the agent)',
      `M ${EXCLUDE} (changed outside the agent)`,
      'M .gitignore (changed outside the agent)',
      'M src/app.js',
      'M src/util.js',
    ]);
    const restored = await cli('checkpoints', 'restore', id!, '--yes', '--project', box.project);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('kept 3 file(s) changed outside the agent');
    expect(read('src/app.js')).toBe('app v1\n');
    expect(read('src/util.js')).toBe('util v1\n');
    expect(read('.gitignore')).toBe(personsRules);
    expect(read(EXCLUDE)).toContain('scratch/');
    expect(read('notes/todo.txt')).toBe('the person\u2019s notes\n');
  });

  it('files the checkpoint\u2019s rules ignored stay out of reach, even when the agent un-ignores them', async () => {
    seed();
    await agentRun(
      'unignore',
      reply(
        toolUse('t1', 'run_command', {
          command: [
            ': > .gitignore',
            'echo TOKEN=two > .env',
            'echo dep v2 > node_modules/dep/index.js',
            'echo new > node_modules/dep/new.js',
          ].join(' && '),
        }),
      ),
    );
    const [id] = await checkpointIds();
    expect(await previewLines(id!)).toEqual(['M .gitignore']);
    const restored = await cli('checkpoints', 'restore', id!, '--yes', '--project', box.project);
    expect(restored.code, restored.stderr).toBe(0);
    expect(read('.gitignore')).toBe('node_modules/\n.env\n');
    // Never captured, so never rewritten or deleted: the checkpoint knows nothing of them.
    expect(read('.env')).toBe('TOKEN=two\n');
    expect(read('node_modules/dep/index.js')).toBe('dep v2\n');
    expect(read('node_modules/dep/new.js')).toBe('new\n');
  });
});
