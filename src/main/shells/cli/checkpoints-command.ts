import { NESTED_REPOSITORY_REASON } from '../../core/checkpoints/changed-files';
import { CheckpointStore, type ChangedFile } from '../../core/checkpoints/checkpoint-store';
import { restoreAudited } from '../../core/checkpoints/turn-checkpoints';
import { userConfigDir } from '../../core/fs/config-dir';
import { parseCommandArgs, unknownChoice } from './args';
import { JSON_OUTPUT, PROJECT } from './cli-options';
import type { CliCommand, CliIO, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { projectDir } from './project';

const OPTIONS = {
  project: PROJECT,
  session: { type: 'string', value: 'ID', help: 'list: only the checkpoints of this session' },
  yes: { type: 'boolean', help: 'restore: really restore (without it, restore only says what it would change)' },
  'overwrite-external': {
    type: 'boolean',
    help: 'restore: also put back files changed outside the agent (by you, an editor, another terminal)',
  },
  json: JSON_OUTPUT,
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    "Before each prompt that may change files, Gatehouse keeps a checkpoint of the project's files in a git " +
    "repository of its own (the project's .git is never touched). Restoring one first takes a checkpoint of the " +
    'present, so a restore can be undone.',
  forms: [
    { usage: 'list [--project DIR] [--session ID] [--json]', does: 'the checkpoints of the project, newest first' },
    { usage: 'diff ID [--project DIR] [--json]', does: 'what restoring ID would change (files, then the diff)' },
    {
      usage: 'restore ID --yes [--overwrite-external] [--project DIR] [--json]',
      does: 'put the files back as they were at ID; files changed outside the agent are kept unless --overwrite-external',
    },
  ],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse checkpoints list --project ~/code/app', does: "the app's checkpoints, newest first" },
    {
      command: 'gatehouse checkpoints diff 3f2a9c1b7d04 --project ~/code/app',
      does: 'what restoring 3f2a9c1b7d04 would change',
    },
    {
      command: 'gatehouse checkpoints restore 3f2a9c1b7d04 --yes --project ~/code/app',
      does: 'restore it (the output says how to undo)',
    },
  ],
};

const MARK: Record<ChangedFile['action'], string> = { restore: 'M', recreate: 'A', delete: 'D' };

function fileLine(f: ChangedFile): string {
  return `  ${MARK[f.action]} ${f.path}${f.external ? '   (changed outside the agent)' : ''}`;
}

function oneId(positionals: string[], action: string): string {
  const [id, ...extra] = positionals;
  if (!id || extra.length) throw new UsageError(`${action} takes exactly one checkpoint id`);
  return id;
}

async function failing<T>(io: CliIO, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    io.err(`gatehouse checkpoints: ${(err as Error).message}`);
    return null;
  }
}

export const checkpointsCommand: CliCommand = {
  name: 'checkpoints',
  help: HELP,
  async run(args, io) {
    const [action, ...rest] = args;
    const { values, positionals } = parseCommandArgs(rest, OPTIONS);
    const configDir = userConfigDir(io.env);
    const store = new CheckpointStore(configDir, projectDir(values.project, io.cwd));
    if (action === 'list') {
      if (positionals.length) throw new UsageError(`list takes no arguments, got "${positionals.join(' ')}"`);
      const entries = await failing(io, () => store.list());
      if (!entries) return 1;
      const shown = entries.filter((e) => !values.session || e.sessionId === values.session);
      if (values.json) io.out(JSON.stringify(shown));
      else if (shown.length === 0) io.out(`no checkpoints for ${store.projectRoot}`);
      else
        for (const e of shown) {
          const what = e.kind === 'before-restore' ? e.prompt : `"${e.prompt.slice(0, 60)}"`;
          const repos = e.skipped.filter((s) => s.reason === NESTED_REPOSITORY_REASON).length;
          const large = e.skipped.length - repos;
          const left = [
            large ? `${large} large file(s) left out` : '',
            repos ? `${repos} folder(s) with a .git of their own left out` : '',
          ].filter(Boolean);
          const note = e.error ? `  (not taken: ${e.error})` : left.length ? `  (${left.join('; ')})` : '';
          io.out(`${e.id}  ${e.createdAt}  session ${e.sessionId.slice(0, 8)}  ${what}${note}`);
        }
      return 0;
    }
    if (action === 'diff') {
      const diff = await failing(io, () => store.diff(oneId(positionals, 'diff')));
      if (!diff) return 1;
      if (values.json) {
        io.out(JSON.stringify(diff));
        return 0;
      }
      if (diff.files.length === 0) {
        io.out(`the files are as they were at ${diff.entry.id}: nothing to restore`);
        return 0;
      }
      io.out(`restoring ${diff.entry.id} would change ${diff.files.length} file(s):`);
      for (const f of diff.files) io.out(fileLine(f));
      io.out('');
      io.out(diff.patch.trimEnd());
      if (diff.patchTruncated) io.out('… (the diff is longer: cut here)');
      return 0;
    }
    if (action === 'restore') {
      const id = oneId(positionals, 'restore');
      if (!values.yes) {
        const diff = await failing(io, () => store.diff(id));
        if (!diff) return 1;
        io.err(`restoring ${diff.entry.id} would change ${diff.files.length} file(s):`);
        for (const f of diff.files) io.err(fileLine(f));
        io.err('nothing was changed: add --yes to restore (see the whole diff with `gatehouse checkpoints diff ID`)');
        return 1;
      }
      const sessionId = `cli-${io.pid ?? process.pid}`;
      const result = await failing(io, () =>
        restoreAudited(store, configDir, id, { overwriteExternal: values['overwrite-external'] === true, sessionId }),
      );
      if (!result) return 1;
      if (values.json) {
        io.out(JSON.stringify(result));
        return 0;
      }
      io.out(`restored ${result.restored.length} file(s) to checkpoint ${id}`);
      for (const f of result.restored) io.out(fileLine(f));
      if (result.kept.length) {
        io.out(
          `kept ${result.kept.length} file(s) changed outside the agent (--overwrite-external restores them too):`,
        );
        for (const f of result.kept) io.out(fileLine(f));
      }
      if (result.undo) io.out(`undo with: gatehouse checkpoints restore ${result.undo.id} --yes`);
      return 0;
    }
    throw unknownChoice('action', action, ['list', 'diff', 'restore']);
  },
};
