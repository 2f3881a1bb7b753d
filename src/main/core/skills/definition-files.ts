import fs from 'node:fs';
import path from 'node:path';
import { readFailure, readRegularFile } from '../fs/read-regular-file';
import { readProjectFile } from '../fs/project-files';
import type { DefinitionSource } from '../../../shared/skills-contract';

/** The most files one folder of skills or agents may offer (the rest are reported). */
const MAX_DEFINITIONS = 200;
const MAX_DEFINITION_BYTES = 256 * 1024;

/** A definition file found in a folder: its path and text, or why it could not be read. */
export type DefinitionRead =
  | { kind: 'ok'; path: string; text: string; source: DefinitionSource }
  | { kind: 'problem'; path: string; reason: string };

/** One folder to look in: the person's own (read as is), or the project's (each file judged by where it lands). */
export interface DefinitionFolder {
  source: DefinitionSource;
  /** Absolute for `user`; relative to the project root for `project`. */
  dir: string;
}

/**
 * The definition files of `folder`: `<dir>/<name>/SKILL.md` for skills (`layout: 'skill'`), `<dir>/*.md` for agents.
 * A missing folder is no problem; a file that cannot be read (a link out of the project, too large) is one.
 */
export async function readDefinitionFolder(
  folder: DefinitionFolder,
  layout: 'skill' | 'agent',
  projectRoot: string | null,
): Promise<DefinitionRead[]> {
  const absolute = folder.source === 'user' || projectRoot === null ? folder.dir : path.join(projectRoot, folder.dir);
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(absolute, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    return [{ kind: 'problem', path: absolute, reason: `cannot list the folder: ${(err as Error).message}` }];
  }
  const names = entries
    .filter((e) => (layout === 'skill' ? e.isDirectory() || e.isSymbolicLink() : e.name.endsWith('.md')))
    .map((e) => e.name)
    .sort();
  const reads: DefinitionRead[] = [];
  if (names.length > MAX_DEFINITIONS)
    reads.push({
      kind: 'problem',
      path: absolute,
      reason: `${names.length} definitions; only the first ${MAX_DEFINITIONS} (by name) are read`,
    });
  const files = names.slice(0, MAX_DEFINITIONS).map((n) => (layout === 'skill' ? path.join(n, 'SKILL.md') : n));
  reads.push(
    ...(await Promise.all(files.map((relative) => readOne(folder, absolute, relative, projectRoot)))).filter(
      (r): r is DefinitionRead => r !== null,
    ),
  );
  return reads;
}

async function readOne(
  folder: DefinitionFolder,
  absolute: string,
  relative: string,
  projectRoot: string | null,
): Promise<DefinitionRead | null> {
  const file = path.join(absolute, relative);
  if (folder.source === 'project' && projectRoot !== null) {
    const read = await readProjectFile(projectRoot, path.join(folder.dir, relative));
    if (read.kind === 'missing') return null;
    if (read.kind === 'refused') return { kind: 'problem', path: read.path, reason: read.reason };
    return { kind: 'ok', path: read.path, text: read.content, source: 'project' };
  }
  try {
    const text = await readRegularFile(file, { maxBytes: MAX_DEFINITION_BYTES, what: 'skill and agent files' });
    return { kind: 'ok', path: file, text, source: 'user' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { kind: 'problem', path: file, reason: readFailure(err) };
  }
}
