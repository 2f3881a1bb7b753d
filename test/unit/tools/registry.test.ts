import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_NAMES, TOOLS, type ToolName } from '../../../src/shared/tools';
import { createToolRegistry } from '../../../src/worker/tools/tool-set';
import { Registry } from '../../../src/worker/tools/registry';
import type { RegisteredTool } from '../../../src/worker/tools/tool';
import { DO, makeSandbox, PLAN, type Sandbox } from './helpers';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

describe('definitions', () => {
  it('shows every tool in do/chat mode and only read-only tools in plan mode', () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    expect(reg.definitions('do').map((d) => d.name)).toEqual(TOOL_NAMES);
    expect(reg.definitions('chat').map((d) => d.name)).toEqual(TOOL_NAMES);
    const plan = reg.definitions('plan').map((d) => d.name);
    expect(plan).toEqual(['read_file', 'find_files', 'search_code']);
    for (const name of plan) expect(TOOLS[name as ToolName].safety).toBe('readOnly');
  });

  it('converts the contract schemas to JSON schema for the model', () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    const edit = reg.definitions('do').find((d) => d.name === 'edit_file');
    expect(edit?.input_schema).toMatchObject({
      type: 'object',
      required: ['path', 'old_string', 'new_string'],
      properties: { replace_all: { type: 'boolean' }, old_string: { type: 'string', minLength: 1 } },
    });
    expect(edit?.input_schema).not.toHaveProperty('$schema');
    expect(edit?.description.length).toBeGreaterThan(20);
  });

  it('hands out copies: a caller mutating a definition does not change the registry', () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    const first = reg.definitions('do')[0];
    if (first === undefined) throw new Error('no definitions');
    first.input_schema.type = 'string';
    expect(reg.definitions('do')[0]?.input_schema.type).toBe('object');
  });

  it('reports safety from the contract, null for unknown tools', () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    expect(reg.safety('write_file')).toBe('write');
    expect(reg.safety('run_command')).toBe('exec');
    expect(reg.safety('read_file')).toBe('readOnly');
    expect(reg.safety('rm_rf')).toBeNull();
  });
});

describe('execution gate', () => {
  it('refuses a forged write_file in plan mode and writes nothing', async () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    const res = await reg.execute('write_file', { path: 'pwned.txt', content: 'x' }, sb.ctx(), PLAN);
    expect(res.isError).toBe(true);
    expect(res.content).toMatch(/^tool_not_allowed: write_file is not available in plan mode/);
    expect(fs.existsSync(path.join(sb.root, 'pwned.txt'))).toBe(false);
  });

  it('refuses run_command and edit_file in plan mode even with invalid input (mode is checked first)', async () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    const cmd = await reg.execute('run_command', { command: 'touch ran' }, sb.ctx(), PLAN);
    expect(cmd.content).toMatch(/^tool_not_allowed: run_command/);
    const edit = await reg.execute('edit_file', { nonsense: true }, sb.ctx(), PLAN);
    expect(edit.content).toMatch(/^tool_not_allowed: edit_file/);
    expect(fs.existsSync(path.join(sb.root, 'ran'))).toBe(false);
  });

  it('lets read-only tools run in plan mode', async () => {
    sb.write('a.txt', 'hello\n');
    const reg = createToolRegistry({ ripgrepPath: null });
    const res = await reg.execute('read_file', { path: 'a.txt' }, sb.ctx(), PLAN);
    expect(res).toEqual({ content: '     1\thello', isError: false });
  });

  it('enforces the name allow-list', async () => {
    sb.write('a.txt', 'hello\n');
    const reg = createToolRegistry({ ripgrepPath: null });
    const denied = await reg.execute('read_file', { path: 'a.txt' }, sb.ctx(), {
      agentMode: 'do',
      allowList: ['find_files'],
    });
    expect(denied.isError).toBe(true);
    expect(denied.content).toBe(
      "tool_not_allowed: read_file is not in this agent's allowed tools (allowed: find_files)",
    );
    const none = await reg.execute('read_file', { path: 'a.txt' }, sb.ctx(), { agentMode: 'do', allowList: [] });
    expect(none.content).toMatch(/^tool_not_allowed: .*allowed: none/);
    const allowed = await reg.execute('read_file', { path: 'a.txt' }, sb.ctx(), {
      agentMode: 'do',
      allowList: ['read_file'],
    });
    expect(allowed.isError).toBe(false);
  });

  it('answers unknown tools with an error result, including prototype names', async () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    for (const name of ['delete_everything', '__proto__', 'constructor', 'toString', '']) {
      const res = await reg.execute(name, {}, sb.ctx(), DO);
      expect(res.isError).toBe(true);
      expect(res.content).toMatch(/^unknown_tool: /);
    }
  });

  it('rejects schema-invalid input with the message per field', async () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    const res = await reg.execute('read_file', { path: '', offset: 'ten', limit: 0 }, sb.ctx(), DO);
    expect(res.isError).toBe(true);
    expect(res.content).toContain('invalid_input: read_file: ');
    expect(res.content).toContain('path: path must not be empty');
    expect(res.content).toMatch(/offset: Invalid input: expected number/);
    expect(res.content).toMatch(/limit: Too small/);
    for (const bad of [null, 'x', 42, [], { command: 7 }]) {
      const r = await reg.execute('run_command', bad, sb.ctx(), DO);
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/^invalid_input: run_command: /);
    }
  });

  it('turns tool failures into error results', async () => {
    fs.mkdirSync(path.join(sb.root, 'dir'));
    const reg = createToolRegistry({ ripgrepPath: null });
    expect(await reg.execute('read_file', { path: 'dir' }, sb.ctx(), DO)).toEqual({
      content: 'dir is a directory, not a file',
      isError: true,
    });
    expect(await reg.execute('read_file', { path: 'nope.txt' }, sb.ctx(), DO)).toEqual({
      content: 'file not found: nope.txt',
      isError: true,
    });
  });

  it('does not run anything once the context is already cancelled', async () => {
    const reg = createToolRegistry({ ripgrepPath: null });
    const ac = new AbortController();
    ac.abort();
    const res = await reg.execute('write_file', { path: 'x.txt', content: 'x' }, sb.ctx({ signal: ac.signal }), DO);
    expect(res.content).toMatch(/^cancelled: /);
    expect(fs.existsSync(path.join(sb.root, 'x.txt'))).toBe(false);
  });

  it('cuts long results head and tail with a visible note', async () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i + 1}`);
    sb.write('big.txt', lines.join('\n') + '\n');
    const reg = createToolRegistry({ ripgrepPath: null, maxOutputChars: 2_000 });
    const res = await reg.execute('read_file', { path: 'big.txt' }, sb.ctx(), DO);
    expect(res.content.length).toBeLessThanOrEqual(2_000);
    expect(res.content).toMatch(/\[\.\.\. [\d,]+ characters omitted \.\.\.\]/);
    expect(res.content.startsWith('     1\tline 1\n')).toBe(true);
    expect(res.content.endsWith('  5000\tline 5000')).toBe(true);
  });
});

/** Hand-made tools to drive the registry's timeout and exception paths. */
function fakeTool(run: (signal: AbortSignal) => Promise<never>, timeoutMs: number): RegisteredTool {
  return {
    name: 'read_file',
    description: 'fake',
    safety: 'readOnly',
    inputSchema: z.object({}),
    prepare: () => ({ ok: true, timeoutMs, run: (ctx) => run(ctx.signal), preview: async () => undefined }),
  };
}

describe('timeouts and exceptions', () => {
  it('gives a timeout error when a tool overruns, and passes the abort to the tool', async () => {
    let sawAbort = false;
    const reg = new Registry(
      [
        fakeTool(
          (signal) =>
            new Promise((_, reject) =>
              signal.addEventListener('abort', () => {
                sawAbort = true;
                reject(new Error('aborted'));
              }),
            ),
          50,
        ),
      ],
      30_000,
    );
    const res = await reg.execute('read_file', {}, sb.ctx(), DO);
    expect(sawAbort).toBe(true);
    expect(res.isError).toBe(true);
    expect(res.content).toBe('timeout: read_file did not finish within 50 ms');
  });

  it('answers for a tool that ignores the abort after a wind-down period', async () => {
    // The tool never settles: without the wind-down answer, execute would never return (the test's limit catches it).
    const reg = new Registry([fakeTool(() => new Promise<never>(() => undefined), 20)], 30_000, 100);
    const res = await reg.execute('read_file', {}, sb.ctx(), DO);
    expect(res).toEqual({ content: 'timeout: read_file did not finish within 20 ms', isError: true });
  });

  it('reports a cancel from the caller as cancelled', async () => {
    const ac = new AbortController();
    const reg = new Registry(
      [
        fakeTool(
          (signal) =>
            new Promise((_, reject) => {
              signal.addEventListener('abort', () => reject(new Error('stop')));
              queueMicrotask(() => ac.abort()); // the caller cancels once the tool runs
            }),
          10_000,
        ),
      ],
      30_000,
    );
    const res = await reg.execute('read_file', {}, sb.ctx({ signal: ac.signal }), DO);
    expect(res).toEqual({ content: 'cancelled: read_file was cancelled', isError: true });
  });

  it('never throws out of execute, whatever a tool throws', async () => {
    for (const thrown of [new Error('boom'), 'a string', undefined, { weird: true }]) {
      const reg = new Registry([fakeTool(() => Promise.reject(thrown), 1_000)], 30_000);
      const res = await reg.execute('read_file', {}, sb.ctx(), DO);
      expect(res.isError).toBe(true);
      expect(res.content).toMatch(/^tool_error: /);
    }
    const syncThrow: RegisteredTool = {
      ...fakeTool(() => Promise.reject(new Error('x')), 1_000),
      prepare: () => {
        throw new Error('sync boom');
      },
    };
    const res = await new Registry([syncThrow], 30_000).execute('read_file', {}, sb.ctx(), DO);
    expect(res).toEqual({ content: 'tool_error: sync boom', isError: true });
  });
});
