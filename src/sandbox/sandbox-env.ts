/**
 * The environment a sandboxed command starts with: scrubbed, no variable that names a door out (door-env.ts), its
 * own /tmp, and the proxy when there is one.
 */
import { isDoorVariable, withoutDoorVariables } from './door-env';
import { scrubEnv } from './env-scrub';

const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'FTP_PROXY', 'NO_PROXY', 'GRPC_PROXY', 'RSYNC_PROXY'];

/**
 * `proxyPort`: where the proxy is reachable from inside (the bridge port under bubblewrap, the host port under
 * Seatbelt), or null for no network. `tmpDir`: the command's private temp dir as it sees it. `sockets`: the sockets
 * the person opened (as configured and as they really are), and the variables naming them from the person's own
 * environment (the worker's has none of them): those are kept or set.
 */
export function sandboxEnv(
  base: NodeJS.ProcessEnv,
  allowList: readonly string[],
  proxyPort: number | null,
  tmpDir = '/tmp',
  sockets: { opened: readonly string[]; env?: Readonly<Record<string, string>> } = { opened: [] },
): Record<string, string> {
  const env = withoutDoorVariables(scrubEnv(base, allowList), sockets.opened);
  for (const [name, value] of Object.entries(withoutDoorVariables(sockets.env ?? {}, sockets.opened)))
    if (isDoorVariable(name)) env[name] = value;
  // The host's proxy settings mean nothing inside (no route to them) and must not bypass ours.
  for (const name of Object.keys(env)) if (PROXY_VARS.includes(name.toUpperCase())) delete env[name];
  env.TMPDIR = tmpDir;
  // The home is read-only inside: caches go to the private temp dir (kept for the sandbox's life) instead of failing.
  env.XDG_CACHE_HOME = `${tmpDir}/.cache`;
  env.npm_config_cache = `${tmpDir}/.npm`;
  env.GATEHOUSE_SANDBOX = '1';
  // A `gatehouse` run inside cannot reach the person's decision helper (its folder is masked): it neither tries nor
  // starts one of its own.
  env.GATEHOUSE_DECISION_HELPER = '0';
  if (proxyPort !== null) {
    // One bridge port speaks both: HTTP(S) proxying, and SOCKS5 for any other TCP (names resolved on the host).
    const proxies: Record<string, string> = {
      HTTP_PROXY: `http://127.0.0.1:${proxyPort}`,
      HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`,
      ALL_PROXY: `socks5h://127.0.0.1:${proxyPort}`,
    };
    for (const [name, url] of Object.entries(proxies)) {
      env[name] = url;
      env[name.toLowerCase()] = url;
    }
    env.NODE_USE_ENV_PROXY = '1';
  }
  return env;
}
