import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { directCommand, unsandboxedWrapper } from '../../../src/sandbox/direct-command';
import { looksSecret, scrubEnv } from '../../../src/sandbox/env-scrub';
import { sandboxEnv } from '../../../src/sandbox/sandbox-env';

describe('scrubEnv', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    ANTHROPIC_API_KEY: 'sk-ant',
    anthropic_base_url: 'http://x',
    OPENAI_API_KEY: 'sk-o',
    GITHUB_TOKEN: 'ghp',
    npm_config__auth_token: 'n',
    AWS_SECRET: 's',
    DB_PASSWORD: 'p',
    MYSQL_PASSWORD_FILE: '/run/p',
    password: 'lower',
    KEYBOARD_LAYOUT: 'us',
    TOKENIZER: 'x',
    SSH_AUTH_SOCK_KEY_X: 'k',
    EDITOR: 'vim',
    UNSET: undefined,
  };

  it('drops *_KEY, *_TOKEN, *_SECRET, *PASSWORD* and ANTHROPIC_*, whatever the case', () => {
    expect(scrubEnv(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      KEYBOARD_LAYOUT: 'us',
      TOKENIZER: 'x',
      SSH_AUTH_SOCK_KEY_X: 'k',
      EDITOR: 'vim',
    });
  });

  it('keeps allow-listed names (case-insensitively) and nothing else extra', () => {
    const out = scrubEnv(env, ['github_token', 'DB_PASSWORD']);
    expect(out.GITHUB_TOKEN).toBe('ghp');
    expect(out.DB_PASSWORD).toBe('p');
    expect(out.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('never lets a secret-looking name through without an allow-list (property)', () => {
    const secretName = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_]{0,12}$/).map((s) => `${s}_key`),
      fc.stringMatching(/^[A-Za-z0-9_]{0,12}$/).map((s) => `${s}_ToKeN`),
      fc.stringMatching(/^[A-Za-z0-9_]{0,12}$/).map((s) => `${s}_SECRET`),
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9_]{0,6}$/), fc.stringMatching(/^[A-Za-z0-9_]{0,6}$/))
        .map(([a, b]) => `${a}PassWord${b}`),
      fc.stringMatching(/^[A-Za-z0-9_]{0,12}$/).map((s) => `anthropic_${s}`),
    );
    fc.assert(
      fc.property(secretName, fc.string(), (name, value) => {
        expect(looksSecret(name)).toBe(true);
        expect(Object.keys(scrubEnv({ [name]: value }))).toEqual([]);
      }),
    );
  });

  it('directCommand (no sandbox) still scrubs the environment', async () => {
    const d = directCommand('ls', '/p', ['GITHUB_TOKEN'], { PATH: '/bin', ANTHROPIC_API_KEY: 'k', GITHUB_TOKEN: 'g' });
    expect(d).toEqual({ file: 'bash', args: ['-c', 'ls'], env: { PATH: '/bin', GITHUB_TOKEN: 'g' }, cwd: '/p' });
    expect((await unsandboxedWrapper('/p', [], { PATH: '/bin', MY_SECRET: 's' }).wrap('ls')).env).toEqual({
      PATH: '/bin',
    });
  });

  it('sandboxEnv replaces the host proxy settings and points at the bridge only when there is a proxy', () => {
    const host = { PATH: '/bin', http_proxy: 'http://corp:8080', NO_PROXY: '*', ANTHROPIC_API_KEY: 'k' };
    const none = sandboxEnv(host, [], null);
    expect(none).toEqual({
      PATH: '/bin',
      TMPDIR: '/tmp',
      XDG_CACHE_HOME: '/tmp/.cache',
      npm_config_cache: '/tmp/.npm',
      GATEHOUSE_SANDBOX: '1',
      GATEHOUSE_DECISION_HELPER: '0',
    });
    const withProxy = sandboxEnv(host, [], 3128);
    expect(withProxy.http_proxy).toBe('http://127.0.0.1:3128');
    expect(withProxy.HTTPS_PROXY).toBe('http://127.0.0.1:3128');
    expect(withProxy.ALL_PROXY).toBe('socks5h://127.0.0.1:3128');
    expect(withProxy.all_proxy).toBe('socks5h://127.0.0.1:3128');
    expect(withProxy.NO_PROXY).toBeUndefined();
    // Seatbelt: the host port of the proxy, and the private temp dir by its real path
    const seatbelt = sandboxEnv(host, [], 51234, '/private/var/folders/x/T/gh-tmp');
    expect(seatbelt).toMatchObject({
      HTTP_PROXY: 'http://127.0.0.1:51234',
      ALL_PROXY: 'socks5h://127.0.0.1:51234',
      TMPDIR: '/private/var/folders/x/T/gh-tmp',
    });
    expect(seatbelt.XDG_CACHE_HOME).toBe('/private/var/folders/x/T/gh-tmp/.cache');
  });
});
