import type { z } from 'zod';
import type { CheckpointSettingsChannels, CheckpointSettingsView } from '../../../shared/checkpoint-settings-contract';
import { GatehouseError } from '../../../shared/errors';
import { readCheckpointSettings, saveCheckpointSettings } from '../../core/checkpoints/checkpoint-settings';
import { checkpointUsage, deleteProjectCheckpoints } from '../../core/checkpoints/project-checkpoints';
import { userSettingsFile } from '../../core/settings/settings-locations';

type Channels = typeof CheckpointSettingsChannels;
export type CheckpointSettingsHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface CheckpointSettingsSources {
  configDir: string;
  currentProject(): string | null;
  /** Something was saved: tell every page (the event carries no value). */
  changed(): void;
}

/**
 * Settings › Checkpoints: the `checkpoints:` block of the user's settings.yaml (what `gatehouse run` and the chat
 * read before each prompt), and the open project's checkpoints on disk (the same ones `gatehouse checkpoints` lists).
 */
export function createCheckpointSettingsHandlers(sources: CheckpointSettingsSources): CheckpointSettingsHandlers {
  const view = async (): Promise<CheckpointSettingsView> => {
    const project = sources.currentProject();
    const [read, usage] = await Promise.all([
      readCheckpointSettings(sources.configDir),
      project ? checkpointUsage(sources.configDir, project) : null,
    ]);
    const { problem, ...settings } = read;
    return { settings, problem, settingsFile: userSettingsFile(sources.configDir), project, usage };
  };
  return {
    getCheckpointSettings: view,
    saveCheckpointSettings: async (values) => {
      await saveCheckpointSettings(sources.configDir, values);
      sources.changed();
      return view();
    },
    deleteProjectCheckpoints: async () => {
      const project = sources.currentProject();
      if (!project)
        throw new GatehouseError('BAD_REQUEST', 'no project is open: open a folder to delete its checkpoints');
      const deleted = await deleteProjectCheckpoints(sources.configDir, project);
      sources.changed();
      return { deleted, view: await view() };
    },
  };
}
