import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { RpcClient, withTrustedProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// A cancel that comes while a prompt is still being prepared (its checkpoint, the sandbox check, a UserPromptSubmit
// hook): the run never starts, the model is never asked, and the prompt ends as cancelled.

let fake: FakeAnthropic;
let box: Sandbox;
withTrustedProject('gh-cancel-early-', (f, b) => {
  fake = f;
  box = b;
});

describe('cancel before the run starts', () => {
  it('a cancel during a slow UserPromptSubmit hook ends the prompt as cancelled; the model is never asked', async () => {
    const started = path.join(box.home, 'hook-started');
    const go = path.join(box.home, 'hook-go');
    const hook = path.join(box.home, 'slow-hook.mjs');
    fs.writeFileSync(
      hook,
      `import fs from 'node:fs';
process.stdin.resume();
process.stdin.on('end', () => {
  fs.writeFileSync(${JSON.stringify(started)}, 'x');
  const wait = () => (fs.existsSync(${JSON.stringify(go)}) ? process.exit(0) : setTimeout(wait, 20));
  wait();
});
`,
    );
    fs.writeFileSync(
      path.join(box.configDir, 'settings.yaml'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `node ${hook}` }] }] } }),
    );
    fake.enqueue(reply(text('This answer must never be asked for.')));
    const rpc = new RpcClient(['--project', box.project], box.env, box.home);
    try {
      await rpc.waitFor((e) => e.type === 'ready');
      rpc.send({ type: 'prompt', id: 'p1', text: 'start, then stop' });
      await expect.poll(() => fs.existsSync(started), { timeout: 20_000, interval: 50 }).toBe(true);
      rpc.send({ type: 'cancel' });
      const ack = await rpc.waitFor((e) => e.type === 'ack' && e.command === 'cancel');
      expect(ack.promptId).toBe('p1');
      fs.writeFileSync(go, 'go');
      const result = await rpc.waitFor((e) => e.type === 'result' && e.promptId === 'p1');
      expect(result.status).toBe('cancelled');
      expect(result.error).toBeUndefined();
      expect(fake.requests).toHaveLength(0);
    } finally {
      fs.writeFileSync(go, 'go');
      await rpc.close();
    }
  });
});
