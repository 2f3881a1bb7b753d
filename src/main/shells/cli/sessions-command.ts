import fs from 'node:fs';
import path from 'node:path';
import { isMissing } from '../../core/fs/read-regular-file';
import { userConfigDir } from '../../core/fs/config-dir';
import { SessionStore } from '../../core/session/session-store';
import { exportTranscriptLines } from '../../core/session/transcript-export';
import { parseCommandArgs, unknownChoice } from './args';
import { JSON_OUTPUT } from './cli-options';
import type { CliCommand, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';

const OPTIONS = {
  project: { type: 'string', value: 'DIR', help: 'list: only the sessions of this project folder' },
  json: { ...JSON_OUTPUT, help: 'list: print JSON instead of text' },
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    "Every agent session (the app's, `gatehouse run`'s and `gatehouse rpc`'s) is saved as a transcript in your " +
    'config folder. Resume one with `gatehouse run --resume ID`; export one to share it (secrets redacted).',
  forms: [
    { usage: 'list [--project DIR] [--json]', does: 'saved sessions, newest first' },
    { usage: 'export ID', does: 'print a session transcript (JSONL) with secrets redacted, to share it' },
    { usage: 'delete ID', does: 'delete a session transcript (and its checkpoints)' },
  ],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse sessions list --project .', does: "the current folder's sessions" },
    {
      command: 'gatehouse sessions export 0b6a8c3e-5f2d-4e91-9a7b-1c2d3e4f5a6b > session.jsonl',
      does: 'a redacted copy to attach to a bug report',
    },
  ],
};

/** The folder as sessions record it (its real path), also for a folder that is gone. */
function projectFilter(project: string | undefined, cwd: string): string | undefined {
  if (project === undefined) return undefined;
  const dir = path.resolve(cwd, project);
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return dir;
  }
}

function parseSessionArgs(args: string[]) {
  return parseCommandArgs(args, OPTIONS);
}

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  help: HELP,
  async run(args, io) {
    const [action, ...rest] = args;
    const parsed = parseSessionArgs(rest);
    const store = new SessionStore({ configDir: userConfigDir(io.env) });
    if (action === 'list') {
      if (parsed.positionals.length)
        throw new UsageError(`list takes no arguments, got "${parsed.positionals.join(' ')}"`);
      const project = projectFilter(parsed.values.project, io.cwd);
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
