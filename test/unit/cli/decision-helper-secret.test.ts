import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { secretMatches, secretOf, writeHelperSecret } from '../../../src/main/shells/cli/decision-helper-secret';
import { readHelperSecret } from '../../../src/main/shells/cli/decision-helper-socket';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-helper-secret-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the decision helper's secret", () => {
  it('is 32 random bytes (hex), written 0600, new at every start, and read back by the client as written', () => {
    const file = path.join(dir, 'build.secret');
    const first = writeHelperSecret(file);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readHelperSecret(file)).toBe(first);
    const second = writeHelperSecret(file);
    expect(second).not.toBe(first);
    expect(readHelperSecret(file)).toBe(second);
    expect(fs.readdirSync(dir)).toEqual(['build.secret']); // no temporary file left
    expect(readHelperSecret(path.join(dir, 'missing.secret'))).toBeNull();
  });

  it('matches only itself: a missing, empty, shorter, longer, one-off or non-string secret is refused', () => {
    const secret = writeHelperSecret(path.join(dir, 's'));
    expect(secretMatches(secret, secret)).toBe(true);
    const oneOff = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
    for (const bad of [
      undefined,
      null,
      42,
      '',
      oneOff,
      secret.slice(0, 63),
      `${secret}0`,
      secret.toUpperCase(),
      [secret],
    ])
      expect(secretMatches(secret, bad), String(bad)).toBe(false);
    // a helper without a secret yet accepts nothing, not even an empty one
    expect(secretMatches('', '')).toBe(false);
  });

  it('is compared in constant time (crypto.timingSafeEqual), whatever the first differing byte', () => {
    const spy = vi.spyOn(crypto, 'timingSafeEqual');
    const secret = writeHelperSecret(path.join(dir, 's'));
    secretMatches(secret, `x${secret.slice(1)}`);
    secretMatches(secret, `${secret.slice(0, -1)}x`);
    secretMatches(secret, secret);
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it('is looked for in the first frame, before its shape is checked', () => {
    expect(secretOf({ type: 'request', secret: 'abc' })).toBe('abc');
    expect(secretOf({ type: 'nonsense' })).toBeUndefined();
    expect(secretOf(null)).toBeUndefined();
    expect(secretOf('secret')).toBeUndefined();
  });
});
