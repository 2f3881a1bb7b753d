import { isMissing } from '../fs/read-regular-file';
import { userConfigDir } from '../paths';
import { SessionStore } from '../session/session-store';
import { exportTranscriptLines } from '../session/transcript-export';
import { parseCommandArgs, unknownChoice } from './args';
import type { CliCommand } from './command';
import { UsageError } from './command';

const USAGE = [
  'gatehouse sessions <action> ...',
  '  list [--project DIR] [--json]   saved sessions, newest first (resume one with `gatehouse run --resume ID`)',
  '  export ID                       print a session transcript (JSONL) with secrets redacted, to share it',
  '  delete ID                       delete a session transcript',
].join('\n');

function parseSessionArgs(args: string[]) {
  return parseCommandArgs(args, { json: { type: 'boolean' }, project: { type: 'string' } });
}

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  usage: USAGE,
  async run(args, io) {
    const [action, ...rest] = args;
    const parsed = parseSessionArgs(rest);
    const store = new SessionStore({ configDir: userConfigDir(io.env) });
    if (action === 'list') {
      if (parsed.positionals.length)
        throw new UsageError(`list takes no arguments, got "${parsed.positionals.join(' ')}"`);
      const project = parsed.values.project;
      const sessions = (await store.list()).filter((s) => !project || s.projectRoot === project);
      if (parsed.values.json) {
        io.out(JSON.stringify(sessions));
      } else if (sessions.length === 0) {
        io.out('no saved sessions');
      } else {
        for (const s of sessions) {
          const last = s.lastPrompt ? ` "${s.lastPrompt.slice(0, 60)}"` : '';
          io.out(`${s.id}  ${s.updatedAt}  ${s.prompts} prompt(s)  ${s.projectRoot}${last}`);
        }
      }
      return 0;
    }
    if (action === 'export') {
      const [id, ...extra] = parsed.positionals;
      if (!id || extra.length) throw new UsageError('export takes exactly one session id');
      let file: string;
      try {
        file = store.fileOf(id);
      } catch (err) {
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
      let lines: string[];
      try {
        lines = await exportTranscriptLines(file);
      } catch (err) {
        if (!isMissing(err)) throw err;
        io.err(`no session ${id}`);
        return 1;
      }
      for (const line of lines) io.out(line);
      return 0;
    }
    if (action === 'delete') {
      const [id, ...extra] = parsed.positionals;
      if (!id || extra.length) throw new UsageError('delete takes exactly one session id');
      let deleted: boolean;
      try {
        deleted = await store.delete(id);
      } catch (err) {
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
      if (!deleted) {
        io.err(`no session ${id}`);
        return 1;
      }
      io.out(`deleted session ${id}`);
      return 0;
    }
    throw unknownChoice('action', action, ['list', 'export', 'delete']);
  },
};
