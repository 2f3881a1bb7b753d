/**
 * The `sandbox:` block of the settings: is run_command confined, which domains it may reach, which
 * secret-looking environment variables it keeps.
 *
 *   sandbox:
 *     enabled: true            # only the user's own settings may turn it off
 *     network:
 *       allowedDomains: [registry.npmjs.org, "*.example.com"]
 *     envAllowList: [NPM_TOKEN]
 *     allowUnixSockets: [/run/user/1000/ssh-agent.socket]   # user settings and managed policy only
 *
 * The user file (`<config dir>/settings.yaml`) counts as written. The project's `.gatehouse/settings.yaml` and
 * `.gatehouse/settings.local.yaml` add domains and env names only while the project is trusted ("granted with
 * trust"), and can never turn the sandbox off: a repository must not unlock its own confinement. Sockets are opened
 * by the person's file and the managed policy only (unix-socket-settings.ts). A file that does not parse is reported
 * and contributes nothing (fail safe: sandbox on, no network, no socket).
 */
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { isMissing, MAX_SETTINGS_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';
import { localSettingsFile, projectSettingsFile, userSettingsFile } from '../settings/settings-locations';
import {
  claudeFileListsSockets,
  claudeSettingsFiles,
  projectSocketsIgnored,
  socketPaths,
  socketsIn,
} from './unix-socket-settings';

const NameList = z.array(z.string().trim().min(1).max(300)).max(1000);
const SocketList = z.array(z.string().trim().min(1).max(4096)).max(100);

const SandboxBlockSchema = z.strictObject({
  enabled: z.boolean().optional(),
  network: z.strictObject({ allowedDomains: NameList.optional(), allowUnixSockets: SocketList.optional() }).nullish(),
  envAllowList: NameList.optional(),
  allowUnixSockets: SocketList.optional(),
});
type SandboxBlock = z.infer<typeof SandboxBlockSchema>;

const FileSchema = z.looseObject({ sandbox: SandboxBlockSchema.nullish() });

export interface SandboxSettings {
  enabled: boolean;
  allowedDomains: string[];
  envAllowList: string[];
  /** Sockets the person opened into the sandbox (absolute paths, from their own settings and the managed policy). */
  allowUnixSockets: string[];
  /** Files that could not be read or parsed, and settings that were ignored (for a warning, never fatal). */
  problems: string[];
}

export interface SandboxSettingsSources {
  configDir: string;
  projectRoot: string;
  /** Whether the project is trusted now: its domains and env names count only then. */
  projectTrusted: boolean;
  /** The managed policy file: it may open sockets too (its other sandbox settings are not read here). */
  policyFile?: string;
  /** The home: `~/` in a socket's path, and Claude Code's user file (reported when it lists sockets). */
  home?: string;
}

type Read = { ok: true; block: SandboxBlock | null } | { ok: false; problem: string };

/** The `sandbox:` block of one file; a missing file is an empty block. Never throws. */
async function readSandboxBlock(file: string): Promise<Read> {
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch (err) {
    if (isMissing(err)) return { ok: true, block: null };
    return { ok: false, problem: `${file}: ${readFailure(err)}` };
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) return { ok: false, problem: `${file}: ${yamlError.message.split('\n')[0] ?? 'invalid YAML'}` };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, problem: `${file}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (value === null || value === undefined) return { ok: true, block: null };
  const parsed = FileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
    return { ok: false, problem: `${file}: ${where}: ${issue?.message ?? 'invalid settings'}` };
  }
  return { ok: true, block: parsed.data.sandbox ?? null };
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/** The sandbox settings in effect for a project now. */
export async function loadSandboxSettings(sources: SandboxSettingsSources): Promise<SandboxSettings> {
  const problems: string[] = [];
  const domains: string[] = [];
  const envNames: string[] = [];
  const sockets: string[] = [];
  let enabled = true;
  const openSockets = (file: string, block: SandboxBlock | null): void => {
    const { paths, problems: bad } = socketPaths(file, socketsIn(block), sources.home);
    sockets.push(...paths);
    problems.push(...bad);
  };

  const userFile = userSettingsFile(sources.configDir);
  const projectFiles = [projectSettingsFile(sources.projectRoot), localSettingsFile(sources.projectRoot)];
  const [user, ...projectReads] = (await Promise.all(
    [userFile, ...projectFiles].map((file) => readSandboxBlock(file)),
  )) as [Read, ...Read[]];
  if (!user.ok) problems.push(`${user.problem} (sandbox settings ignored: the sandbox stays on)`);
  else if (user.block) {
    if (user.block.enabled === false) enabled = false;
    domains.push(...(user.block.network?.allowedDomains ?? []));
    envNames.push(...(user.block.envAllowList ?? []));
    openSockets(userFile, user.block);
  }
  if (sources.policyFile !== undefined) {
    const policy = await readSandboxBlock(sources.policyFile);
    if (!policy.ok) problems.push(`${policy.problem} (its sandbox.allowUnixSockets ignored)`);
    else openSockets(sources.policyFile, policy.block);
  }

  for (const [i, file] of projectFiles.entries()) {
    const project = projectReads[i]!;
    if (!project.ok) {
      problems.push(`${project.problem} (sandbox settings ignored)`);
      continue;
    }
    const block = project.block;
    if (!block) continue;
    if (block.enabled === false)
      problems.push(`${file}: sandbox.enabled: false is ignored: only your user settings can turn the sandbox off`);
    if (socketsIn(block).length > 0) problems.push(projectSocketsIgnored(file));
    const wantsMore = (block.network?.allowedDomains?.length ?? 0) + (block.envAllowList?.length ?? 0) > 0;
    if (!sources.projectTrusted) {
      if (wantsMore)
        problems.push(
          `${file}: sandbox.network.allowedDomains / sandbox.envAllowList are ignored until you trust this project`,
        );
      continue;
    }
    domains.push(...(block.network?.allowedDomains ?? []));
    envNames.push(...(block.envAllowList ?? []));
  }
  if (sources.home !== undefined) {
    const claude = claudeSettingsFiles(sources.projectRoot, sources.home);
    const listing = await Promise.all(claude.map((c) => claudeFileListsSockets(c.file)));
    for (const [i, c] of claude.entries()) if (listing[i]) problems.push(c.reason);
  }
  return {
    enabled,
    allowedDomains: unique(domains),
    envAllowList: unique(envNames),
    allowUnixSockets: unique(sockets),
    problems,
  };
}
