import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { canReplaceDefaultCAs, NETWORK_TRUST_ENV, readCaFile, type TlsCaApi } from '../../../shared/node/trusted-cas';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { readNetworkSettings, type NetworkSettingsSources } from './network-settings';

/**
 * What main adds to the worker's environment at each (re)start so the worker trusts what the settings say: the CA
 * files and the settings' errors (`GATEHOUSE_NETWORK_TRUST`, read by the worker before its first connection).
 *
 * The worker runs on main's own runtime (Electron's Node in a utility process, `process.execPath` for a Node child),
 * so main's `tls` tells what the worker's can do. Where it cannot replace its default CAs (Node older than 22.19 and
 * 24.5), `NODE_EXTRA_CA_CERTS` does it, read by Node at the worker's start: it holds one file, so several (the
 * policy's and yours, or yours and a NODE_EXTRA_CA_CERTS of your own) are put together in one file of Gatehouse's
 * (`<config>/ca-bundles/`, which no command can write). Such a Node has no way to the system store that a variable
 * turns on (`NODE_USE_SYSTEM_CA` came with 22.19 and 24.6, as did the functions above): it keeps its bundled roots.
 */
export async function workerTrustEnv(sources: NetworkSettingsSources, api?: TlsCaApi): Promise<Record<string, string>> {
  const trust = await readNetworkSettings(sources);
  const out: Record<string, string> = {};
  if (!canReplaceDefaultCAs(api)) {
    const own = sources.env.NODE_EXTRA_CA_CERTS?.trim();
    const files = trust.caFiles.map((f) => f.file);
    const all = [...new Set([...(own ? [own] : []), ...files])];
    if (files.length > 0) {
      const file = await extraCertsFile(sources.configDir, all, trust.errors);
      if (file) out.NODE_EXTRA_CA_CERTS = file;
    }
  }
  if (trust.caFiles.length > 0 || trust.errors.length > 0) out[NETWORK_TRUST_ENV] = JSON.stringify(trust);
  return out;
}

/** The one file NODE_EXTRA_CA_CERTS can name: the only one, or several put together (a failure goes to `errors`). */
async function extraCertsFile(configDir: string, files: string[], errors: string[]): Promise<string | undefined> {
  if (files.length === 1) return files[0];
  try {
    return await caBundle(configDir, files);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    errors.push(`the CA files ${files.join(', ')} could not be put together for Node ${process.versions.node}: ${why}`);
    return undefined;
  }
}

/**
 * One PEM file holding the certificates of `files`, named by its content (a worker started with an older bundle keeps
 * reading its own). A file that cannot be read adds nothing here: the worker names a broken CA file of the settings
 * when it reads them; a broken NODE_EXTRA_CA_CERTS of your own is Node's to report, as it is without Gatehouse.
 */
async function caBundle(configDir: string, files: readonly string[]): Promise<string | undefined> {
  const read = await Promise.allSettled(files.map((f) => readCaFile(f)));
  const certs = [...new Set(read.flatMap((r) => (r.status === 'fulfilled' ? r.value : [])))];
  if (certs.length === 0) return undefined;
  const text = `${certs.join('\n')}\n`;
  const file = path.join(
    configDir,
    'ca-bundles',
    `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.pem`,
  );
  const existing = await fsp.readFile(file, 'utf8').catch(() => null);
  if (existing !== text) await writeFileAtomicAsync(file, text);
  return file;
}
