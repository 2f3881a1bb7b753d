/**
 * Which certificate authorities a TLS connection of Gatehouse's own trusts (the model API, an MCP server over HTTP,
 * auto mode's classifier): Node's bundled roots, the system's certificate store, and the PEM files of the
 * `network.caFile` setting (your own settings and the managed policy only; main reads them, network-settings.ts).
 *
 * Where Node can replace its default CA list (`tls.setDefaultCACertificates`, Node 22.19+ and 24.5+, so Electron's
 * Node in the desktop app), the process trusts all three from then on, whatever client connects. Older Node (the CLI
 * on Node 20) cannot: main then hands the worker the CA files as `NODE_EXTRA_CA_CERTS` when it starts it
 * (src/main/core/network/worker-trust-env.ts), which Node reads at start, and the system store stays out. A CA file that
 * cannot be read or is not PEM is an error naming the file, never skipped quietly: it only ever adds trust, so
 * nothing is trusted in its place.
 */
import fsp from 'node:fs/promises';
import fs from 'node:fs';
import tls from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';

/** The variable main starts the worker with: the CA files to trust and the errors main found in the settings. */
export const NETWORK_TRUST_ENV = 'GATEHOUSE_NETWORK_TRUST';

export const NetworkTrustSchema = z.strictObject({
  /** Each CA file (absolute) and the settings file that named it. */
  caFiles: z.array(z.strictObject({ file: z.string().min(1), from: z.string() })),
  /** Problems of the settings themselves (a relative path, a malformed block): the model is not contacted. */
  errors: z.array(z.string()),
});
export type NetworkTrust = z.infer<typeof NetworkTrustSchema>;
export type TrustedCaFile = NetworkTrust['caFiles'][number];

/** The part of `node:tls` this module uses; absent functions are an older Node (injected by the tests). */
export interface TlsCaApi {
  getCACertificates?: (type?: 'default' | 'system' | 'bundled' | 'extra') => string[];
  setDefaultCACertificates?: (certs: string[]) => void;
}

/** A CA bundle bigger than this is not a CA bundle (the whole Mozilla store is about 220 KB). */
const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;
const BEGIN = '-----BEGIN CERTIFICATE-----';
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** A CA file that cannot be used: its message names the file and the reason. */
class CaFileError extends Error {
  constructor(file: string, reason: string) {
    super(`network.caFile ${file}: ${reason}`);
    this.name = 'CaFileError';
  }
}

function caFileError(file: string, reason: string): CaFileError {
  return new CaFileError(file, reason);
}

/**
 * The certificates of a PEM file, each checked by parsing it as X.509. Text outside the blocks (a bundle's comments)
 * is allowed; a file without a block, a block cut short or one that does not parse is an error naming the file.
 */
export function pemCertificates(text: string, file: string): string[] {
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) {
    const binary = text.includes('\u0000') || text.includes('\ufffd');
    throw caFileError(
      file,
      `not a PEM certificate file (no "${BEGIN}" line)${binary ? '; a DER file converts with `openssl x509 -inform der -in FILE -out FILE.pem`' : ''}`,
    );
  }
  const begun = text.split(BEGIN).length - 1;
  if (begun !== blocks.length)
    throw caFileError(file, `certificate ${blocks.length + 1} is cut short (no "-----END CERTIFICATE-----" line)`);
  blocks.forEach((block, i) => {
    try {
      new X509Certificate(block);
    } catch (err) {
      throw caFileError(
        file,
        `certificate ${i + 1} of ${blocks.length} does not parse (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  });
  return blocks;
}

function readProblem(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
  if (e.code === 'ENXIO') return 'a socket or a device, not a regular file';
  return `cannot read it (${e.code ?? (err instanceof Error ? err.message : String(err))})`;
}

/**
 * Reads a CA file without hanging or reading without bound (O_NONBLOCK: a FIFO is refused at once; only a regular
 * file of at most 4 MiB) and returns its certificates. Throws an error naming the file.
 */
export async function readCaFile(file: string): Promise<string[]> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw caFileError(file, readProblem(err));
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw caFileError(file, st.isDirectory() ? 'a folder, not a file' : 'not a regular file');
    if (st.size > MAX_CA_FILE_BYTES)
      throw caFileError(file, `too large for a CA file (${st.size} bytes, at most 4 MiB)`);
    const buffer = Buffer.alloc(st.size + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > st.size) throw caFileError(file, 'it grew while it was read');
    return pemCertificates(buffer.subarray(0, bytesRead).toString('utf8'), file);
  } catch (err) {
    if (err instanceof CaFileError) throw err;
    throw caFileError(file, readProblem(err));
  } finally {
    await handle.close();
  }
}

export type TrustInstall =
  /** The process's default CA list is now Node's defaults, the system store and the extra certificates. */
  | { mode: 'default-store'; systemCertificates: number; extraCertificates: number; systemProblem: string | null }
  /** This Node cannot change its default CA list (older than 22.19 / 24.5). */
  | { mode: 'unsupported' };

// @types/node 20 does not know these functions (the CLI supports Node 20): they are looked for at run time.
const NODE_TLS = tls as unknown as TlsCaApi;

/** Whether this Node can replace its default CA list (else main falls back to the worker's environment). */
export function canReplaceDefaultCAs(api: TlsCaApi = NODE_TLS): boolean {
  return typeof api.getCACertificates === 'function' && typeof api.setDefaultCACertificates === 'function';
}

/**
 * Makes the system store and `extra` part of this process's default CAs, where Node can (`tls.getCACertificates` and
 * `tls.setDefaultCACertificates`); call it once, before any TLS connection (a pooled connection keeps what it
 * verified with). A system store that cannot be read leaves Node's defaults and `extra`, and says why.
 */
export function installTrustedCAs(extra: readonly string[], api: TlsCaApi = NODE_TLS): TrustInstall {
  const { getCACertificates: get, setDefaultCACertificates: set } = api;
  if (!canReplaceDefaultCAs(api) || !get || !set) return { mode: 'unsupported' };
  // `default` is Node's bundled roots plus NODE_EXTRA_CA_CERTS (and the system store under --use-system-ca).
  const defaults = get.call(api, 'default');
  let system: string[] = [];
  let systemProblem: string | null = null;
  try {
    system = get.call(api, 'system');
  } catch (err) {
    systemProblem = `the system certificate store could not be read (${err instanceof Error ? err.message : String(err)})`;
  }
  set.call(api, [...new Set([...defaults, ...system, ...extra])]);
  return { mode: 'default-store', systemCertificates: system.length, extraCertificates: extra.length, systemProblem };
}

export interface TrustState {
  install: TrustInstall;
  /** How many CA files the settings name. */
  caFiles: number;
  /** Why the model must not be contacted (a CA file or the settings naming it is broken); null when all is well. */
  error: string | null;
}

/** Reads every CA file of `trust` and installs what could be read; every problem is in `error`. */
export async function applyNetworkTrust(trust: NetworkTrust, api: TlsCaApi = NODE_TLS): Promise<TrustState> {
  const errors = [...trust.errors];
  const extra: string[] = [];
  const read = await Promise.allSettled(trust.caFiles.map((f) => readCaFile(f.file)));
  read.forEach((r, i) => {
    if (r.status === 'fulfilled') extra.push(...r.value);
    else errors.push(`${(r.reason as Error).message} (set in ${trust.caFiles[i]!.from})`);
  });
  return {
    install: installTrustedCAs(extra, api),
    caFiles: trust.caFiles.length,
    error: errors.length > 0 ? errors.join('; ') : null,
  };
}
