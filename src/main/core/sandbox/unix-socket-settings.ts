/**
 * `sandbox.allowUnixSockets` (also under `sandbox.network.`, where Claude Code keeps it): unix sockets a person
 * opens into the sandbox on purpose, such as the SSH agent for `git push`. Every other socket of a service with more
 * authority than the sandbox is out of its reach (src/sandbox/socket-doors.ts), so opening one is the
 * person's decision: it is read from their own settings file and from the managed policy, never from a project's
 * files, trusted or not (a repository must not open a door out of its own confinement). A project file that names
 * one is reported with the reason; so is Claude Code's user file (Gatehouse reads sandbox settings from its own).
 */
import path from 'node:path';
import { MAX_SETTINGS_BYTES, readRegularFile } from '../fs/read-regular-file';

/** The part of a `sandbox:` block that opens sockets. */
export interface UnixSocketBlock {
  allowUnixSockets?: string[] | undefined;
  network?: { allowUnixSockets?: string[] | undefined } | null | undefined;
}

/** Both spellings of one file's list. */
export function socketsIn(block: UnixSocketBlock | null): string[] {
  if (!block) return [];
  return [...(block.allowUnixSockets ?? []), ...(block.network?.allowUnixSockets ?? [])];
}

/**
 * The sockets of a file the person controls, as absolute normalised paths (`~/` is the home); anything else is a
 * problem naming the file and is left out.
 */
export function socketPaths(
  file: string,
  listed: readonly string[],
  home: string | undefined,
): { paths: string[]; problems: string[] } {
  const paths: string[] = [];
  const problems: string[] = [];
  for (const raw of listed) {
    const expanded = home !== undefined && (raw === '~' || raw.startsWith('~/')) ? path.join(home, raw.slice(1)) : raw;
    if (!path.isAbsolute(expanded)) {
      problems.push(`${file}: sandbox.allowUnixSockets: "${raw}" is not an absolute path (ignored)`);
      continue;
    }
    paths.push(path.resolve(expanded));
  }
  return { paths, problems };
}

/** Why a project's file cannot open a socket (the same words whether the project is trusted or not). */
export function projectSocketsIgnored(file: string): string {
  return `${file}: sandbox.allowUnixSockets is ignored: only your user settings and the managed policy can open a socket into the sandbox`;
}

/** Claude Code's settings files whose socket lists Gatehouse reports as not applied, each with its reason. */
export function claudeSettingsFiles(projectRoot: string, home: string): { file: string; reason: string }[] {
  const user = path.join(home, '.claude', 'settings.json');
  return [
    ...['settings.json', 'settings.local.json'].map((name) => {
      const file = path.join(projectRoot, '.claude', name);
      return { file, reason: projectSocketsIgnored(file) };
    }),
    {
      file: user,
      reason: `${user}: sandbox.network.allowUnixSockets is not applied: Gatehouse reads sandbox settings from its own settings.yaml (put the socket in sandbox.allowUnixSockets there)`,
    },
  ];
}

/** Whether a JSON settings file lists sockets to open (a file that is missing or does not parse lists none). */
export async function claudeFileListsSockets(file: string): Promise<boolean> {
  let value: unknown;
  try {
    value = JSON.parse(await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' }));
  } catch {
    return false; // missing; a broken Claude Code file is reported where its rules are read
  }
  const sandbox = (value as { sandbox?: unknown } | null)?.sandbox;
  if (typeof sandbox !== 'object' || sandbox === null) return false;
  const block = sandbox as { allowUnixSockets?: unknown; network?: { allowUnixSockets?: unknown } | null };
  const lists = [block.allowUnixSockets, block.network?.allowUnixSockets];
  return lists.some((l) => Array.isArray(l) && l.length > 0);
}
