import type { CommandAnalysis } from '../shell-analysis/types';

/** The most command lines kept, and the most of their text. */
const MAX_ENTRIES = 256;
const MAX_CHARS = 1024 * 1024;

/**
 * The analyses of the command lines an engine judged last, most recently used kept. An analysis depends on the text
 * alone (the disk is looked at later, per decision), and one call is judged several times on its way (the engine
 * before and after its hooks, an approval judged again, the rounds of an asynchronous evaluation), as are the
 * commands an agent repeats.
 */
export class AnalysisCache {
  private readonly entries = new Map<string, CommandAnalysis>();
  private chars = 0;

  get(command: string): CommandAnalysis | undefined {
    const analysis = this.entries.get(command);
    if (analysis !== undefined) {
      this.entries.delete(command);
      this.entries.set(command, analysis);
    }
    return analysis;
  }

  set(command: string, analysis: CommandAnalysis): void {
    if (command.length > MAX_CHARS || this.entries.has(command)) return;
    this.entries.set(command, analysis);
    this.chars += command.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES && this.chars <= MAX_CHARS) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}
