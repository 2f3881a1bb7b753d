/** The environment a sandboxed command starts with: scrubbed, its own /tmp, and the proxy when there is one. */
import { SANDBOX_PROXY_PORT } from './bwrap-args';
import { scrubEnv } from './env-scrub';

const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'FTP_PROXY', 'NO_PROXY', 'GRPC_PROXY', 'RSYNC_PROXY'];

export function sandboxEnv(base: NodeJS.ProcessEnv, allowList: readonly string[], withProxy: boolean): Record<string, string> {
  const env = scrubEnv(base, allowList);
  // The host's proxy settings mean nothing inside (no route to them) and must not bypass ours.
  for (const name of Object.keys(env)) if (PROXY_VARS.includes(name.toUpperCase())) delete env[name];
  env.TMPDIR = '/tmp';
  // The home is read-only inside: caches go to the private /tmp (kept for the sandbox's life) instead of failing.
  env.XDG_CACHE_HOME = '/tmp/.cache';
  env.npm_config_cache = '/tmp/.npm';
  env.GATEHOUSE_SANDBOX = '1';
  if (withProxy) {
    // One bridge port speaks both: HTTP(S) proxying, and SOCKS5 for any other TCP (names resolved on the host).
    const proxies: Record<string, string> = {
      HTTP_PROXY: `http://127.0.0.1:${SANDBOX_PROXY_PORT}`,
      HTTPS_PROXY: `http://127.0.0.1:${SANDBOX_PROXY_PORT}`,
      ALL_PROXY: `socks5h://127.0.0.1:${SANDBOX_PROXY_PORT}`,
    };
    for (const [name, url] of Object.entries(proxies)) {
      env[name] = url;
      env[name.toLowerCase()] = url;
    }
    env.NODE_USE_ENV_PROXY = '1';
  }
  return env;
}
