import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../../../shared/node/path-containment';

/** The project settings files whose allow-rules and hooks only load in a trusted project. */
export const PROJECT_SETTINGS_FILES = [
  '.gatehouse/settings.yaml',
  '.gatehouse/settings.json',
  '.gatehouse/settings.local.yaml',
  '.gatehouse/settings.local.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
] as const;

/** Project instruction files that would be added to the model's prompt: only in a trusted project. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.gatehouse/instructions.md'] as const;

/** The most of one project file that is read (instructions and settings are small; a huge one is refused). */
const MAX_PROJECT_FILE_BYTES = 256 * 1024;

export type ProjectFileRead =
  | { kind: 'missing' }
  | { kind: 'ok'; path: string; content: string; bytes: number }
  | { kind: 'refused'; path: string; reason: string };

/**
 * Reads a file of the project by its relative name, judged by where it really lands: a symlink pointing outside
 * the project (an `AGENTS.md` -> `~/.aws/credentials` would send a secret to the model) is refused, as are
 * folders, special files and files over the size limit. Asynchronous: the trust dialog's preview and each prompt's
 * instructions are read on the Electron main thread.
 */
export async function readProjectFile(projectRoot: string, relative: string): Promise<ProjectFileRead> {
  const root = await fs.promises.realpath(projectRoot);
  const full = path.join(root, relative);
  let real: string;
  try {
    real = await fs.promises.realpath(full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      if (await isDanglingLink(full))
        return { kind: 'refused', path: full, reason: 'a symbolic link to a missing file' };
      return { kind: 'missing' };
    }
    return { kind: 'refused', path: full, reason: `cannot resolve: ${(err as Error).message}` };
  }
  if (!isInside(real, root))
    return { kind: 'refused', path: full, reason: `points outside the project (${real}); not read` };
  let handle: fs.promises.FileHandle;
  try {
    // O_NOFOLLOW: a link swapped in after the check is not followed; O_NONBLOCK: a FIFO cannot hang the read.
    handle = await fs.promises.open(
      real,
      fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
    );
  } catch (err) {
    return { kind: 'refused', path: full, reason: `cannot open: ${(err as Error).message}` };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { kind: 'refused', path: full, reason: 'not a regular file' };
    if (st.size > MAX_PROJECT_FILE_BYTES)
      return { kind: 'refused', path: full, reason: `too large (${st.size} bytes, limit ${MAX_PROJECT_FILE_BYTES})` };
    const content = await handle.readFile('utf8');
    return { kind: 'ok', path: full, content, bytes: Buffer.byteLength(content) };
  } catch (err) {
    return { kind: 'refused', path: full, reason: `cannot read: ${(err as Error).message}` };
  } finally {
    await handle.close();
  }
}

async function isDanglingLink(file: string): Promise<boolean> {
  try {
    return (await fs.promises.lstat(file)).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The instruction files to add to the model's prompt: nothing at all unless the project is trusted; then each file
 * that exists, lies inside the project and is within the size limit.
 */
export async function loadInstructionFiles(
  projectRoot: string,
  trusted: boolean,
): Promise<{ path: string; content: string }[]> {
  if (!trusted) return [];
  const reads = await Promise.all(INSTRUCTION_FILES.map((name) => readProjectFile(projectRoot, name)));
  return reads.flatMap((read) => (read.kind === 'ok' ? [{ path: read.path, content: read.content }] : []));
}
