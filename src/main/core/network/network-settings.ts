/**
 * The `network:` block: which extra certificate authorities Gatehouse's own TLS connections trust.
 *
 *   network:
 *     caFile: /etc/ssl/certs/corp-proxy-root.pem   # one PEM file, one or more certificates; or ~/certs/proxy.pem
 *
 * Read from the person's own settings.yaml and the managed policy, both applying; never from a project's files,
 * trusted or not: a repository must not be able to make Gatehouse trust a certificate authority of its choosing (it
 * could then read the key and every message on the way to the model). A project file that sets it is reported by the
 * settings store (settings-store.ts), with the reason. The files named here are read by whoever installs them
 * (shared/node/trusted-cas.ts): an unreadable or malformed one stops the model from being contacted, named.
 */
import path from 'node:path';
import { z } from 'zod';
import { readCaFile, type NetworkTrust, type TrustedCaFile } from '../../../shared/node/trusted-cas';
import { CaFileSettingSchema } from '../../../shared/settings-contract';
import { homeDir } from '../fs/config-dir';
import { policyFile, userSettingsFile } from '../settings/settings-locations';
import { readSettingsYamlAsync, settingsBlock } from '../settings/user-settings-yaml';

const NetworkBlockSchema = z.strictObject({ caFile: CaFileSettingSchema.optional() });

export interface NetworkSettingsSources {
  configDir: string;
  /** HOME (`~/` in a path) and GATEHOUSE_POLICY (the managed policy file). */
  env: NodeJS.ProcessEnv;
}

/** One file's `network.caFile`: the CA file it names, or an error naming the settings file. Never throws. */
async function caFileOf(file: string, home: string): Promise<{ caFile: TrustedCaFile | null; error: string | null }> {
  const read = await readSettingsYamlAsync(file);
  // A settings file that cannot be read is reported where its rules are; here it names no CA file.
  if (read.problem) return { caFile: null, error: null };
  const block = settingsBlock(read.value, 'network');
  if (block === undefined || block === null) return { caFile: null, error: null };
  const parsed = NetworkBlockSchema.safeParse(block);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['network', ...(issue?.path ?? []).map(String)].join('.');
    return { caFile: null, error: `${file}: ${where}: ${issue?.message ?? 'invalid settings'}` };
  }
  const raw = parsed.data.caFile;
  if (raw === undefined) return { caFile: null, error: null };
  const expanded = raw === '~' || raw.startsWith('~/') ? path.join(home, raw.slice(1)) : raw;
  if (!path.isAbsolute(expanded))
    return {
      caFile: null,
      error: `${file}: network.caFile: "${raw}" is not an absolute path (write it in full, or from ~/)`,
    };
  return { caFile: { file: path.resolve(expanded), from: file }, error: null };
}

/** The CA files of the managed policy and of the person's settings (in that order), and what is wrong with them. */
export async function readNetworkSettings(sources: NetworkSettingsSources): Promise<NetworkTrust> {
  const home = homeDir(sources.env);
  const found = await Promise.all(
    [policyFile(sources.env), userSettingsFile(sources.configDir)].map((file) => caFileOf(file, home)),
  );
  const caFiles = found.flatMap((f) => (f.caFile ? [f.caFile] : []));
  const unique = caFiles.filter((f, i) => caFiles.findIndex((g) => g.file === f.file) === i);
  return { caFiles: unique, errors: found.flatMap((f) => (f.error ? [f.error] : [])) };
}

/** Everything wrong with the network settings now, each naming its file (the Settings page's warnings). */
export async function networkSettingsProblems(sources: NetworkSettingsSources): Promise<string[]> {
  const trust = await readNetworkSettings(sources);
  const read = await Promise.allSettled(trust.caFiles.map((f) => readCaFile(f.file)));
  const unreadable = read.flatMap((r, i) =>
    r.status === 'rejected' ? [`${(r.reason as Error).message} (set in ${trust.caFiles[i]!.from})`] : [],
  );
  return [...trust.errors, ...unreadable];
}
