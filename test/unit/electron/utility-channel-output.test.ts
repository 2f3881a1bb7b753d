import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { channelFromUtilityProcess, type UtilityProcessLike } from '../../../src/main/shells/electron/utility-channel';

// The worker's own output, when no log sink is given: on stderr, prefixed and redacted like every other log line.

const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv';

class FakeUtilityProcess extends EventEmitter {
  readonly pid = 4242;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  postMessage(): void {}
  kill(): boolean {
    return true;
  }
}

afterEach(() => vi.restoreAllMocks());

describe('the utility process channel without an output sink', () => {
  it('writes the worker output to stderr with the key redacted', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const child = new FakeUtilityProcess();
    channelFromUtilityProcess(child as unknown as UtilityProcessLike);
    child.stderr.write(`crash: request failed with key ${KEY}\n`);
    await vi.waitFor(() => expect(written.join('')).toContain('[worker] crash: request failed'));
    expect(written.join('')).not.toContain(KEY);
  });
});
