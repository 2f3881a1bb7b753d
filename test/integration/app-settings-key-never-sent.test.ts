import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchApi } from '../../src/main/services/app/api-dispatch';
import { AppCore } from '../../src/main/services/app/app-core';
import type { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import { API_CHANNELS } from '../../src/shared/api';
import type { ApiChannel, ApiEvent } from '../../src/shared/api';
import { makeAppDirs, startAppCore, TRUST_ALL } from './agent-helpers';
import { removeAfterWrites } from '../support/remove-after-writes';

// Attack: after a key is saved, call every API channel of the real AppCore (real worker, real settings files) with
// an empty payload and with the key itself as every kind of payload, and read every answer, error and event. The
// key must appear in none of them, not even when the settings file holding it is broken (parse errors are shown
// on the Rules page) or the key is echoed back in a request.

const KEY = 'sk-ant-sweep-0123456789abcdef-NEVER';
/** Channels that change or end things: called last, or not at all (they are covered elsewhere). */
const LAST: ApiChannel[] = ['removeApiKey'];
const SKIP: ApiChannel[] = ['openFolderDialog'];

let root: string;
let configDir: string;
let worker: WorkerSupervisor;
let core: AppCore;
let wire: string[];
let off: () => void;

beforeEach(async () => {
  const dirs = makeAppDirs('gh-key-sweep-', TRUST_ALL);
  ({ root, configDir } = dirs);
  // A closed loopback port as the model: nothing can leave the machine even if a channel started a run.
  ({ worker, core } = await startAppCore('browser', dirs, {
    PATH: process.env.PATH,
    HOME: root,
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  }));
  wire = [];
  off = core.onEvent((e: ApiEvent) => wire.push(JSON.stringify(e)));
});
afterEach(async () => {
  off();
  await core.close(); // as the shell quits: the chat session ends, the background writes (recent projects) finish
  await worker.stop();
  await removeAfterWrites(root);
});

async function record(channel: string, payload: unknown): Promise<void> {
  try {
    wire.push(JSON.stringify(await dispatchApi(core.handlers, channel, payload)));
  } catch (err) {
    wire.push(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
  }
}

async function sweep(): Promise<void> {
  const channels = API_CHANNELS.filter((c) => !SKIP.includes(c) && !LAST.includes(c));
  for (const channel of [...channels, ...LAST]) {
    await record(channel, {});
    // The key as a payload: refused or answered, it must not come back in the error text either.
    await record(channel, { apiKey: KEY, text: KEY, rule: KEY, path: KEY, name: KEY });
  }
}

describe('the saved key never leaves main', () => {
  it('no channel answer, error or event carries it, after saving it and with the file holding it broken', async () => {
    await record('saveApiKey', { apiKey: KEY });
    expect(fs.readFileSync(path.join(configDir, 'settings.yaml'), 'utf8')).toContain(KEY);
    expect((await dispatchApi(core.handlers, 'getChatState', {})) as { hasModelKey: boolean }).toMatchObject({
      hasModelKey: true,
    });
    await sweep();
    // The same file made unparseable right where the key is: every parse error shown anywhere stays key-free.
    fs.writeFileSync(
      path.join(configDir, 'settings.yaml'),
      `trust:\n  default: trust\nmodel:\n  apiKey: ${KEY}\n   bad: [${KEY}\n`,
    );
    await sweep();
    expect(wire.length).toBeGreaterThanOrEqual((API_CHANNELS.length - SKIP.length) * 4);
    expect(wire.some((w) => w.includes('settings.yaml'))).toBe(true); // the broken file was reported somewhere
    for (const w of wire) {
      expect(w).not.toContain(KEY);
      expect(w).not.toContain(KEY.slice(0, 20));
    }
  }, 60_000);
});
