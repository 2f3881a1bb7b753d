import { toRpcError } from '../../../shared/errors';
import type { SandboxRunConfig, SandboxStatus } from '../../../shared/worker-protocol';
import type { PermissionEngine } from '../permission/engine';
import type { WorkerHost } from '../worker-host-types';
import { sandboxReadDeny } from './read-deny-mask';
import { sandboxRunConfig } from './run-config';

export interface SandboxCheckInput {
  configDir: string;
  env: NodeJS.ProcessEnv;
  projectRoot: string;
  projectTrusted: boolean;
  /** The project's engine: its Read deny rules become the sandbox's read mask. */
  engine: PermissionEngine;
  /** Writable besides the project (already resolved). */
  additionalDirectories: string[];
  host: Pick<WorkerHost, 'request'>;
}

export interface SandboxCheck {
  config: SandboxRunConfig;
  status: SandboxStatus;
  /** Problems in the sandbox settings (shown beside the status). */
  problems: string[];
}

/**
 * The sandbox a project's commands run in, and whether it works: the settings, the Read-deny mask from the engine,
 * then `sandbox.status` on the worker. Fail safe: a worker that cannot answer means "unavailable", never "fine".
 */
export async function checkProjectSandbox(input: SandboxCheckInput): Promise<SandboxCheck> {
  const { projectRoot, additionalDirectories } = input;
  const readDeny = await sandboxReadDeny(input.engine, additionalDirectories);
  const { config, problems } = await sandboxRunConfig({
    configDir: input.configDir,
    projectRoot,
    projectTrusted: input.projectTrusted,
    env: input.env,
    readDeny,
  });
  let status: SandboxStatus;
  try {
    status = await input.host.request(
      'sandbox.status',
      { projectRoot, additionalDirectories, sandbox: config },
      { timeoutMs: 30_000 },
    );
  } catch (err) {
    status = {
      enabled: config.enabled,
      available: false,
      reason: `the worker could not check the sandbox: ${toRpcError(err).message}`,
    };
  }
  return { config, status, problems };
}
