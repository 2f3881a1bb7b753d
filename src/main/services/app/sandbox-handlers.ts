import type { z } from 'zod';
import type { SandboxChannels, SandboxStatusView } from '../../../shared/sandbox-contract';
import type { SandboxStatus } from '../../../shared/worker-protocol';
import { createPermissionEngine } from '../../core/permission/create-engine';
import { failSafe, trustedOrFalse, type TrustOracle } from '../../core/permission/trust-oracle';
import { checkProjectSandbox } from '../../core/sandbox/check-sandbox';
import { writableDirectories } from '../../core/sandbox/writable-directories';
import type { WorkerHost } from '../../core/worker-host-types';

type Channels = typeof SandboxChannels;
export type SandboxHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface SandboxHandlerSources {
  host: Pick<WorkerHost, 'request'>;
  configDir: string;
  env: NodeJS.ProcessEnv;
  project: () => string | null;
  trust: TrustOracle;
}

/**
 * The renderer's sandbox channel: the same check an agent session makes before every prompt (the settings from
 * `src/main/core/sandbox/`, the writable additional directories and the Read-deny mask from the project's engine, then
 * `sandbox.status` on the worker, which then shares the session's sandbox), fail safe: a worker that cannot answer
 * means "unavailable", never "fine".
 */
export function createSandboxHandlers(sources: SandboxHandlerSources): SandboxHandlers {
  return {
    getSandboxStatus: async () => {
      const projectRoot = sources.project();
      if (projectRoot === null) return { enabled: true, available: false, reason: 'no project is open', warnings: [] };
      const projectTrusted = await trustedOrFalse(sources.trust, projectRoot);
      const engine = await createPermissionEngine({
        projectRoot,
        configDir: sources.configDir,
        env: sources.env,
        trust: failSafe(sources.trust),
        audit: null,
      });
      const { status, problems } = await checkProjectSandbox({
        configDir: sources.configDir,
        env: sources.env,
        projectRoot,
        projectTrusted,
        engine,
        additionalDirectories: await writableDirectories(engine),
        host: sources.host,
      });
      return toView(status, problems);
    },
  };
}

function toView(status: SandboxStatus, problems: string[]): SandboxStatusView {
  const missing = status.enabled && !status.available;
  return {
    enabled: status.enabled,
    available: status.available,
    reason: missing ? (status.reason ?? 'unknown reason') : null,
    warnings: problems,
  };
}
