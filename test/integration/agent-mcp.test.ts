import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { stdioEntry } from '../support/mcp-servers';
import { runGatehouse, sentToolResults, withTrustedProject, type Sandbox } from './agent-helpers';
import { noBwrapReason } from '../unit/sandbox/support';

// MCP servers in a real agent session: `gatehouse run` as a real process, the SDK-built test server over stdio
// inside bubblewrap, the loopback Messages API as the model.

let fake: FakeAnthropic;
let box: Sandbox;
withTrustedProject('gh-mcp-', (f, b) => {
  fake = f;
  box = b;
});

function userSettings(settings: Record<string, unknown>): void {
  fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), JSON.stringify(settings));
}

function run(prompt: string, ...flags: string[]) {
  return runGatehouse(['run', '--project', box.project, ...flags, prompt], box.env, box.home);
}

/** Every process whose command line holds `tag` (a server left behind would be one). */
async function processesWith(tag: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fsp.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fsp.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(tag)) pids.push(Number(entry));
  }
  return pids;
}

function toolNames(request = 0): string[] {
  return (fake.requests[request]!.body.tools ?? []).map((t) => t.name);
}

describe.skipIf(noBwrapReason !== null)(
  `MCP tools in the agent loop${noBwrapReason ? ` (skipped: ${noBwrapReason})` : ''}`,
  // Each test runs several real CLI processes (and sandboxed servers): minutes on a loaded machine, seconds alone.
  { timeout: 120_000 },
  () => {
    it('a tool of your server runs when a rule allows it, asks (denied without a person) otherwise, and a read-only one is allowed', async () => {
      const tag = `--tag=${randomUUID()}`;
      userSettings({ mcpServers: { tst: stdioEntry({ args: [stdioEntry().args![0]!, tag] }) } });
      const marker = path.join(box.project, 'marker.txt');
      fake.enqueue(
        reply(toolUse('t1', 'mcp__tst__write_marker', { path: marker })),
        reply(toolUse('t2', 'mcp__tst__peek', {})),
        reply(toolUse('t3', 'mcp__tst__huge', {})),
        reply(text('Done.')),
      );
      const r = await run('use the tools', '--allow', 'mcp__tst__write_marker');
      expect(r.code, r.stderr).toBe(0);
      expect(toolNames()).toEqual(expect.arrayContaining(['read_file', 'mcp__tst__write_marker', 'mcp__tst__peek']));
      expect(toolNames()).not.toContain('mcp__tst__not_object');
      expect(fs.readFileSync(marker, 'utf8')).toBe('marker\n');
      expect(sentToolResults(fake.requests[1]!.body)[0]).toMatchObject({ content: `wrote ${marker}` });
      // peek: readOnlyHint on a server of your own settings: a read, allowed in the default mode.
      expect(sentToolResults(fake.requests[2]!.body)[0]).toMatchObject({ content: 'peeked' });
      // huge: exec, no rule: asks; nobody can answer here, so it is denied and never run.
      const huge = sentToolResults(fake.requests[3]!.body)[0]!;
      expect(huge.is_error).toBe(true);
      expect(String(huge.content)).toContain('approval required');
      // The server is gone once the run ended.
      expect(await processesWith(tag)).toEqual([]);
    });

    it('deny mcp__srv blocks every tool of that server, read-only ones too', async () => {
      userSettings({ mcpServers: { tst: stdioEntry() } });
      fake.enqueue(reply(toolUse('t1', 'mcp__tst__peek', {})), reply(text('ok')));
      const r = await run('peek', '--deny', 'mcp__tst', '--allow', 'mcp__tst__*');
      expect(r.code, r.stderr).toBe(0);
      const [result] = sentToolResults(fake.requests[1]!.body);
      expect(result!.is_error).toBe(true);
      expect(String(result!.content)).toContain('mcp__tst');
      expect(String(result!.content)).toMatch(/denied/);
    });

    it('a PreToolUse hook matching mcp__tst__.* runs for MCP calls and can block one', async () => {
      const marker = path.join(box.project, 'blocked.txt');
      userSettings({
        mcpServers: { tst: stdioEntry() },
        hooks: {
          PreToolUse: [
            {
              matcher: 'mcp__tst__.*',
              hooks: [{ type: 'command', command: "echo 'no MCP writes today' >&2; exit 2" }],
            },
          ],
        },
      });
      fake.enqueue(reply(toolUse('t1', 'mcp__tst__write_marker', { path: marker })), reply(text('ok')));
      const r = await run('write', '--allow', 'mcp__tst__write_marker');
      expect(r.code, r.stderr).toBe(0);
      const [result] = sentToolResults(fake.requests[1]!.body);
      expect(result!.is_error).toBe(true);
      expect(String(result!.content)).toContain('no MCP writes today');
      expect(fs.existsSync(marker)).toBe(false);
    });

    it('a crashed server: the call fails with a clear error, the next call reaches the restarted server', async () => {
      userSettings({ mcpServers: { tst: stdioEntry() } });
      fake.enqueue(
        reply(toolUse('t1', 'mcp__tst__crash', {})),
        reply(toolUse('t2', 'mcp__tst__peek', {})),
        reply(text('ok')),
      );
      const r = await run('crash it', '--allow', 'mcp__tst__crash');
      expect(r.code, r.stderr).toBe(0);
      expect(sentToolResults(fake.requests[1]!.body)[0]).toMatchObject({
        is_error: true,
        content: 'MCP server tst exited (code 3); restarting',
      });
      expect(sentToolResults(fake.requests[2]!.body)[0]).toMatchObject({ content: 'peeked' });
    });

    it("a project's .mcp.json server starts only in a trusted project, after you approved it; its readOnlyHint stays exec", async () => {
      const started = path.join(box.project, 'proj-started');
      const entry = stdioEntry({ args: [stdioEntry().args![0]!, `--start-marker=${started}`] });
      fs.writeFileSync(path.join(box.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: entry } }));
      // Not approved yet: it does not start, and the model is not offered its tools.
      fake.enqueue(reply(text('nothing')));
      let r = await run('hello');
      expect(r.code, r.stderr).toBe(0);
      expect(toolNames().filter((n) => n.startsWith('mcp__'))).toEqual([]);
      expect(fs.existsSync(started)).toBe(false);
      // Untrusted (the trust revoked): approved or not, it never starts.
      const approve = await runGatehouse(['mcp', 'approve', 'proj', '--project', box.project], box.env, box.home);
      expect(approve.code, approve.stderr).toBe(0);
      const revoke = await runGatehouse(['trust', 'revoke', box.project], box.env, box.home);
      expect(revoke.code, revoke.stderr).toBe(0);
      fake.enqueue(reply(text('nothing')));
      r = await run('hello');
      expect(r.code, r.stderr).toBe(0);
      expect(toolNames(1).filter((n) => n.startsWith('mcp__'))).toEqual([]);
      expect(fs.existsSync(started)).toBe(false);
      // Trusted and approved: it starts; its peek claims readOnlyHint, but a project's hint never counts: it asks.
      const trust = await runGatehouse(['trust', 'set', box.project, '--scope', 'directory'], box.env, box.home);
      expect(trust.code, trust.stderr).toBe(0);
      fake.enqueue(reply(toolUse('t1', 'mcp__proj__peek', {})), reply(text('ok')));
      r = await run('peek');
      expect(r.code, r.stderr).toBe(0);
      expect(fs.existsSync(started)).toBe(true);
      expect(toolNames(2)).toContain('mcp__proj__peek');
      const [result] = sentToolResults(fake.requests[3]!.body);
      expect(result!.is_error).toBe(true);
      expect(String(result!.content)).toContain('approval required');
    });
  },
);
