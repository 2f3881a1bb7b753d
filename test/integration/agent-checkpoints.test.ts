import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { execFileSync, spawn } from 'node:child_process';
import { RpcClient, runGatehouse, withTrustedProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// Checkpoints: `gatehouse run` (a real agent session, the loopback model) takes one before each prompt that may
// change files; `gatehouse checkpoints list|diff|restore` puts the files back. Real files, real git.

let fake: FakeAnthropic;
let box: Sandbox;
let outside: string;
withTrustedProject('gh-ckpt-', (f, b, o) => {
  fake = f;
  box = b;
  outside = o;
});

const cli = (...args: string[]) => runGatehouse(args, box.env, box.home);
const file = (rel: string) => path.join(box.project, rel);
const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

async function listed(): Promise<
  Array<{ id: string; prompt: string; error?: string; kind: string; skipped: unknown[] }>
> {
  const r = await cli('checkpoints', 'list', '--project', box.project, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<{
    id: string;
    prompt: string;
    error?: string;
    kind: string;
    skipped: unknown[];
  }>;
}

/** One prompt in acceptEdits mode (edits run, commands in the sandbox) whose model makes the given calls. */
async function agentRun(prompt: string, ...calls: ReturnType<typeof toolUse>[]): Promise<void> {
  fake.enqueue(...calls.map((c) => reply(c)), reply(text('Done.')));
  const r = await cli('run', '--project', box.project, '--mode', 'bypassPermissions', prompt);
  expect(r.code, r.stderr).toBe(0);
}

function seed(): void {
  fs.mkdirSync(file('src'));
  fs.writeFileSync(file('src/app.ts'), 'export const answer = 41;\n');
  fs.writeFileSync(file('README.md'), '# demo\n');
  fs.writeFileSync(file('keep.txt'), 'untouched\n');
  fs.writeFileSync(file('.gitignore'), 'node_modules/\n*.log\n');
  fs.mkdirSync(file('node_modules/dep'), { recursive: true });
  fs.writeFileSync(file('node_modules/dep/index.js'), 'module.exports = 1;\n');
}

describe('checkpoints before prompts, and restoring them', () => {
  it("restores the agent's writes, edits and command effects; untouched and ignored files stay as they are", async () => {
    seed();
    await agentRun(
      'change things',
      toolUse('t1', 'edit_file', { path: 'src/app.ts', old_string: '41', new_string: '42' }),
      toolUse('t2', 'write_file', { path: 'src/new.ts', content: 'export {};\n' }),
      toolUse('t3', 'run_command', { command: 'rm README.md && echo made > made-by-command.txt' }),
    );
    expect(read('src/app.ts')).toContain('42');
    expect(fs.existsSync(file('README.md'))).toBe(false);
    // The agent's run also changed an ignored file: not part of any checkpoint, left alone by a restore.
    fs.writeFileSync(file('node_modules/dep/index.js'), 'module.exports = 2;\n');
    fs.writeFileSync(file('debug.log'), 'log\n');

    const [checkpoint, ...older] = await listed();
    expect(older).toEqual([]);
    expect(checkpoint).toMatchObject({ prompt: 'change things', kind: 'turn' });
    expect(checkpoint!.error).toBeUndefined();

    const diff = await cli('checkpoints', 'diff', checkpoint!.id, '--project', box.project);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('M src/app.ts');
    expect(diff.stdout).toContain('D src/new.ts');
    expect(diff.stdout).toContain('D made-by-command.txt');
    expect(diff.stdout).toContain('A README.md');
    expect(diff.stdout).not.toContain('node_modules');
    expect(diff.stdout).not.toContain('keep.txt');
    expect(diff.stdout).toContain('-export const answer = 42;');

    // Without --yes nothing changes.
    const refused = await cli('checkpoints', 'restore', checkpoint!.id, '--project', box.project);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('add --yes');
    expect(read('src/app.ts')).toContain('42');

    const restored = await cli('checkpoints', 'restore', checkpoint!.id.slice(0, 6), '--yes', '--project', box.project);
    expect(restored.code, restored.stderr).toBe(0);
    expect(read('src/app.ts')).toBe('export const answer = 41;\n');
    expect(read('README.md')).toBe('# demo\n');
    expect(fs.existsSync(file('src/new.ts'))).toBe(false);
    expect(fs.existsSync(file('made-by-command.txt'))).toBe(false);
    expect(read('keep.txt')).toBe('untouched\n');
    expect(read('node_modules/dep/index.js')).toBe('module.exports = 2;\n');
    expect(read('debug.log')).toBe('log\n');

    // The restore is in the audit log, and can itself be undone.
    const audit = fs.readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"kind":"checkpoint-restore"');
    const undoId = /undo with: gatehouse checkpoints restore ([0-9a-f]+) --yes/.exec(restored.stdout)?.[1];
    expect(undoId).toBeDefined();
    const undone = await cli('checkpoints', 'restore', undoId!, '--yes', '--project', box.project);
    expect(undone.code, undone.stderr).toBe(0);
    expect(read('src/app.ts')).toContain('42');
    expect(fs.existsSync(file('README.md'))).toBe(false);
  });

  it("a file the person edited after the agent's run is shown and kept unless the restore is confirmed for it", async () => {
    seed();
    await agentRun('first', toolUse('t1', 'edit_file', { path: 'src/app.ts', old_string: '41', new_string: '42' }));
    await agentRun('second', toolUse('t2', 'write_file', { path: 'notes.md', content: 'agent notes\n' }));
    // The person, between and after the runs.
    fs.writeFileSync(file('keep.txt'), 'edited by the person\n');
    const [, first] = await listed();
    expect(first!.prompt).toBe('first');

    const diff = await cli('checkpoints', 'diff', first!.id, '--project', box.project);
    expect(diff.stdout).toMatch(/M keep\.txt +\(changed outside the agent\)/);
    expect(diff.stdout).not.toMatch(/src\/app\.ts +\(changed outside/);

    const restored = await cli('checkpoints', 'restore', first!.id, '--yes', '--project', box.project);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('kept 1 file(s) changed outside the agent');
    expect(read('keep.txt')).toBe('edited by the person\n');
    expect(read('src/app.ts')).toContain('41');
    expect(fs.existsSync(file('notes.md'))).toBe(false);

    const forced = await cli(
      'checkpoints',
      'restore',
      first!.id,
      '--yes',
      '--overwrite-external',
      '--project',
      box.project,
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(read('keep.txt')).toBe('untouched\n');
  });

  it('files over the size limit are left out and listed; plan mode takes no checkpoint; deleting the session deletes its checkpoints', async () => {
    seed();
    fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), 'checkpoints:\n  maxFileBytes: 1000\n');
    fs.writeFileSync(file('big.bin'), Buffer.alloc(5000, 1));
    // A repository inside the project (here one without a commit yet): left out and listed, never a failed checkpoint.
    fs.mkdirSync(file('vendor/lib'), { recursive: true });
    fs.writeFileSync(file('vendor/lib/lib.ts'), 'lib\n');
    execFileSync('git', ['init', '-q'], { cwd: file('vendor/lib') });
    await agentRun('with a big file', toolUse('t1', 'write_file', { path: 'big.bin', content: 'small now\n' }));
    const [entry] = await listed();
    expect(entry!.skipped).toEqual([
      { path: 'big.bin', reason: expect.stringContaining('larger than the limit of 1000') },
      { path: 'vendor/lib', reason: expect.stringContaining('a git repository of its own') },
    ]);
    const list = await cli('checkpoints', 'list', '--project', box.project);
    expect(list.stdout).toContain('(1 large file(s) left out; 1 folder(s) with a .git of their own left out)');

    fake.enqueue(reply(text('A plan.')));
    const plan = await cli('run', '--project', box.project, '--agent-mode', 'plan', 'plan it');
    expect(plan.code, plan.stderr).toBe(0);
    expect(await listed()).toHaveLength(1);

    const sessions = await cli('sessions', 'list', '--json');
    for (const s of JSON.parse(sessions.stdout) as Array<{ id: string }>) {
      const deleted = await cli('sessions', 'delete', s.id);
      expect(deleted.code, deleted.stderr).toBe(0);
    }
    expect(await listed()).toEqual([]);
  });

  it('a folder the agent swapped for a symbolic link to outside the project: the restore writes inside, never through it', async () => {
    seed();
    fs.writeFileSync(path.join(outside, 'app.ts'), 'outside, not the project\n');
    await agentRun('swap', toolUse('t1', 'run_command', { command: `rm -rf src && ln -s ${outside} src` }));
    expect(fs.lstatSync(file('src')).isSymbolicLink()).toBe(true);
    const [entry] = await listed();
    const restored = await cli('checkpoints', 'restore', entry!.id, '--yes', '--project', box.project);
    expect(restored.code, restored.stderr).toBe(0);
    expect(fs.lstatSync(file('src')).isDirectory()).toBe(true);
    expect(read('src/app.ts')).toBe('export const answer = 41;\n');
    expect(fs.readFileSync(path.join(outside, 'app.ts'), 'utf8')).toBe('outside, not the project\n');
    expect(fs.readdirSync(outside)).toEqual(['app.ts']);
  });

  it('a broken checkpoint index is an error with its path, never overwritten; the run still goes ahead', async () => {
    seed();
    await agentRun('one', toolUse('t1', 'write_file', { path: 'a.txt', content: 'a\n' }));
    const dir = fs.readdirSync(path.join(box.configDir, 'checkpoints'))[0]!;
    const index = path.join(box.configDir, 'checkpoints', dir, 'index.json');
    fs.writeFileSync(index, '{ not json');
    const list = await cli('checkpoints', 'list', '--project', box.project);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(`${index}: not JSON`);
    fake.enqueue(reply(toolUse('t2', 'write_file', { path: 'b.txt', content: 'b\n' })), reply(text('Done.')));
    const r = await cli('run', '--project', box.project, '--mode', 'bypassPermissions', 'two');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no checkpoint before this prompt');
    expect(read('b.txt')).toBe('b\n');
    expect(fs.readFileSync(index, 'utf8')).toBe('{ not json');
  });

  it('gatehouse rpc lists, diffs and restores checkpoints; a restore without a checkpoint or of an unknown one is a clear error', async () => {
    seed();
    const rpc = new RpcClient(['--project', box.project, '--mode', 'bypassPermissions'], box.env, box.home);
    try {
      await rpc.waitFor((e) => e.type === 'ready');
      fake.enqueue(
        reply(toolUse('t1', 'write_file', { path: 'src/app.ts', content: 'export const answer = 0;\n' })),
        reply(text('Done.')),
      );
      rpc.send({ type: 'prompt', id: 'p1', text: 'zero it' });
      await rpc.waitFor((e) => e.type === 'result' && e.promptId === 'p1');
      rpc.send({ type: 'checkpoints', id: 'c1', action: 'list' });
      const list = await rpc.waitFor((e) => e.type === 'checkpoints' && e.id === 'c1');
      const [entry] = list.list as Array<{ id: string; prompt: string }>;
      expect(entry!.prompt).toBe('zero it');
      rpc.send({ type: 'checkpoints', id: 'c2', action: 'diff', checkpoint: entry!.id });
      const diff = await rpc.waitFor((e) => e.type === 'checkpoints' && e.id === 'c2');
      expect((diff.diff as { files: unknown[] }).files).toEqual([
        { path: 'src/app.ts', action: 'restore', external: false },
      ]);
      rpc.send({ type: 'checkpoints', id: 'c3', action: 'restore' });
      expect(await rpc.waitFor((e) => e.type === 'error' && e.id === 'c3')).toMatchObject({ code: 'BAD_REQUEST' });
      rpc.send({ type: 'checkpoints', id: 'c4', action: 'restore', checkpoint: 'ffffffff' });
      expect(await rpc.waitFor((e) => e.type === 'error' && e.id === 'c4')).toMatchObject({ code: 'NOT_FOUND' });
      rpc.send({ type: 'checkpoints', id: 'c5', action: 'restore', checkpoint: entry!.id });
      const restored = await rpc.waitFor((e) => e.type === 'checkpoints' && e.id === 'c5');
      expect((restored.restore as { restored: Array<{ path: string }> }).restored.map((f) => f.path)).toEqual([
        'src/app.ts',
      ]);
      expect(read('src/app.ts')).toBe('export const answer = 41;\n');
    } finally {
      await rpc.close();
    }
  });

  it('the SDK: session.checkpoints lists and restores, as a program uses it', async () => {
    seed();
    const script = path.join(box.home, 'sdk-checkpoints.cjs');
    fs.writeFileSync(
      script,
      `const { createSession } = require(${JSON.stringify(path.resolve(__dirname, '../../out/main/sdk.js'))});
(async () => {
  const session = await createSession({ project: process.argv[2], mode: 'bypassPermissions' });
  await session.prompt('remove the readme');
  const [entry] = await session.checkpoints.list();
  const diff = await session.checkpoints.diff(entry.id);
  const result = await session.checkpoints.restore(entry.id);
  await session.close();
  process.stdout.write(JSON.stringify({ prompt: entry.prompt, files: diff.files, restored: result.restored.length, undo: result.undo !== null }));
})().catch((err) => { process.stderr.write(String((err && err.stack) || err)); process.exit(1); });
`,
    );
    fake.enqueue(reply(toolUse('t1', 'run_command', { command: 'rm README.md' })), reply(text('Done.')));
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [script, box.project], { cwd: box.home, env: box.env });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      prompt: 'remove the readme',
      files: [{ path: 'README.md', action: 'recreate', external: false }],
      restored: 1,
      undo: true,
    });
    expect(read('README.md')).toBe('# demo\n');
  });
});
