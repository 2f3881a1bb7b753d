import { AutoModeState } from '../../core/auto/auto-mode';
import { readAutoSettings } from '../../core/auto/auto-settings';
import { classify, type ClassifierProvider } from '../../core/auto/classifier';

export interface SessionAutoOptions {
  configDir: string;
  projectRoot: string;
  /** The provider the agent uses now (key and base URL). */
  provider: () => ClassifierProvider;
  /** The person's own messages of the session, oldest first (never tool output or file content). */
  personMessages: () => readonly string[];
  onFallback: (reason: string, counts: { consecutive: number; total: number }) => void;
}

/**
 * A session's auto mode: the classifier asked through the agent's provider with the model of the user's `auto:`
 * settings (re-read for each call, so a change in Settings applies to the next one).
 */
export function sessionAuto(options: SessionAutoOptions): AutoModeState {
  return new AutoModeState({
    classify: async (call, signal) => {
      const settings = await readAutoSettings(options.configDir);
      return classify(
        { provider: options.provider(), model: settings.classifierModel, timeoutMs: settings.timeoutMs },
        options.personMessages(),
        { ...call, cwd: options.projectRoot },
        signal,
      );
    },
    onFallback: options.onFallback,
  });
}

/** The person's messages recorded in a transcript (its `prompt` entries), oldest first. */
export function promptTexts(entries: readonly { type: string; text?: unknown }[]): string[] {
  return entries.flatMap((e) => (e.type === 'prompt' && typeof e.text === 'string' ? [e.text] : []));
}
