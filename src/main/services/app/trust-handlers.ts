import type { TrustChannels } from '../../../shared/trust-contract';
import type { z } from 'zod';
import { GatehouseError } from '../../../shared/errors';
import type { TrustStore } from '../../core/trust/trust-store';
import { trustPreview } from '../../core/trust/trust-preview';

type Channels = typeof TrustChannels;
export type TrustHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

/**
 * The renderer's trust channels. The renderer holds no authority, so granting trust (session, directory, parent)
 * is accepted only for the project that is open in this window: a compromised page cannot trust an arbitrary
 * folder. Restricting (`never`, revoke) is accepted for any folder.
 */
export function createTrustHandlers(
  core: { currentProject(): string | null },
  store: TrustStore,
  onChanged: (path: string) => unknown = () => {},
): TrustHandlers {
  const requireOpenProject = async (dir: string): Promise<string> => {
    const project = core.currentProject();
    const real = await store.resolve(dir);
    if (!project || (await store.resolve(project)) !== real) {
      throw new GatehouseError(
        'FORBIDDEN',
        `trust can only be granted to the open project${project ? ` (${project})` : ''}, not ${real}`,
      );
    }
    return real;
  };
  return {
    getTrust: async ({ path: requested }) => {
      const project = core.currentProject();
      const dir = requested ?? project;
      if (!dir) return { project, status: null, parent: null, preview: null };
      const status = await store.check(dir);
      const parent = await store.parentToTrust(status.path);
      // What a folder would load is shown for the open project only: the page has no business reading others.
      const isOpen = project !== null && (await store.resolve(project)) === status.path;
      return { project, status, parent, preview: isOpen ? await trustPreview(status.path) : null };
    },
    setTrust: async ({ path: dir, scope, extensions }) => {
      const real = scope === 'never' ? await store.resolve(dir) : await requireOpenProject(dir);
      await store.set(real, scope, scope === 'never' ? undefined : extensions);
      // Granted from the open project, in the app: that is an opening too (the trusted-folders page shows it).
      if (scope !== 'never') await store.touch(real);
      const status = await store.check(real);
      await onChanged(status.path);
      return { status };
    },
    setTrustExtensions: async ({ path: dir, extensions }) => {
      // Switching an extension on loosens, like granting trust: the open project only. Off: any folder.
      const enables = Object.values(extensions).some((on) => on === true);
      const real = enables ? await requireOpenProject(dir) : await store.resolve(dir);
      const status = await store.setExtensions(real, extensions);
      await onChanged(status.path);
      return { status };
    },
    revokeTrust: async ({ path: dir }) => {
      const removed = await store.revoke(dir);
      const status = await store.check(dir);
      await onChanged(status.path);
      return { removed, status };
    },
    listTrust: async () => {
      const [entries, trustDefault, error] = await Promise.all([store.list(), store.trustDefault(), store.lastError()]);
      return { entries, default: trustDefault, error };
    },
  };
}
