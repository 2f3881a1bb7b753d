/**
 * For `gatehouse doctor`: the sandbox a project's commands would run in, as the worker would set it up now (the same
 * settings, the same library, a real probe), and the doors it keeps shut (src/sandbox/socket-doors.ts).
 */
import * as fsp from 'node:fs/promises';
import { socketDoors, runtimeDirsOf } from '../../../sandbox/socket-doors';
import { sandboxRunConfig } from './run-config';

interface OpenedSocket {
  path: string;
  /** It is a socket now (else nothing is opened until it is). */
  present: boolean;
}

export interface SandboxDoctorReport {
  enabled: boolean;
  available: boolean;
  mechanism: string | null;
  /** Why it is unavailable or off. */
  reason: string | null;
  /** Without a working sandbox every command asks a person first (not when the person turned it off). */
  everyCommandAsks: boolean;
  doors: {
    /** Linux: what each command's bubblewrap masks; macOS: Seatbelt denies every socket but the opened ones. */
    rule: 'masked' | 'denied' | 'none';
    folders: string[];
    sockets: string[];
  };
  opened: OpenedSocket[];
  /** The variables of the person's environment that name an opened socket, kept inside (SSH_AUTH_SOCK). */
  keptVariables: string[];
  /** Settings not applied (a project naming a socket, a file that does not parse...). */
  problems: string[];
}

async function isSocket(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isSocket();
  } catch {
    return false;
  }
}

export async function sandboxDoctor(sources: {
  configDir: string;
  projectRoot: string;
  projectTrusted: boolean;
  env: NodeJS.ProcessEnv;
  /** Whose sandbox to look for (tests ask for Windows'); absent: this machine's. */
  platform?: NodeJS.Platform;
}): Promise<SandboxDoctorReport> {
  const { config, problems } = await sandboxRunConfig(sources);
  const allowUnixSockets = config.allowUnixSockets ?? [];
  const opened = await Promise.all(allowUnixSockets.map(async (p) => ({ path: p, present: await isSocket(p) })));
  const base = { opened, keptVariables: Object.keys(config.openSocketEnv ?? {}), problems };
  if (!config.enabled)
    return {
      ...base,
      enabled: false,
      available: false,
      mechanism: null,
      reason: 'turned off in your user settings (sandbox.enabled: false): commands run unconfined',
      everyCommandAsks: false,
      doors: { rule: 'none', folders: [], sockets: [] },
    };
  const sandboxConfig = {
    projectRoot: sources.projectRoot,
    additionalDirectories: [],
    userConfigDir: config.userConfigDir,
    home: config.home,
    allowedDomains: config.allowedDomains,
    envAllowList: config.envAllowList,
    allowUnixSockets,
    ...(config.runtimeDir ? { runtimeDir: config.runtimeDir } : {}),
    ...(config.bwrapPath !== undefined ? { bwrapPath: config.bwrapPath } : {}),
    baseEnv: sources.env,
  };
  const { createCommandSandbox } = await import('../../../sandbox/command-sandbox');
  const sandbox = await createCommandSandbox(sandboxConfig, sources.platform);
  if (sandbox.kind === 'unavailable')
    return {
      ...base,
      enabled: true,
      available: false,
      mechanism: null,
      reason: sandbox.reason,
      everyCommandAsks: true,
      doors: { rule: 'none', folders: [], sockets: [] },
    };
  await sandbox.dispose();
  if (sandbox.mechanism === 'seatbelt')
    return {
      ...base,
      enabled: true,
      available: true,
      mechanism: sandbox.mechanism,
      reason: null,
      everyCommandAsks: false,
      doors: { rule: 'denied', folders: [], sockets: [] },
    };
  // The doors a command's plan masks now, computed as the sandbox computes them for every command (here on their
  // own: inside the sandbox some of them are also covered by the secrets' folders, ~/.gnupg for one).
  const projectRoot = await fsp.realpath(sources.projectRoot);
  const doors = await socketDoors({
    home: config.home,
    writableRoots: [projectRoot],
    runtimeDirs: runtimeDirsOf(sandboxConfig),
    masked: [],
    allowUnixSockets,
  });
  return {
    ...base,
    enabled: true,
    available: true,
    mechanism: sandbox.mechanism,
    reason: null,
    everyCommandAsks: false,
    doors: {
      rule: 'masked',
      folders: doors.masks.filter((m) => m.isDirectory).map((m) => m.path),
      sockets: doors.masks.filter((m) => !m.isDirectory).map((m) => m.path),
    },
  };
}
