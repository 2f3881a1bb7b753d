/** The unix sockets bound on this machine, as Linux lists them in /proc/net/unix (for socket-doors.ts). */
import * as fsp from 'node:fs/promises';

export interface BoundSocketNames {
  /** Names bound in the file system, as the binding process gave them (absolute, or relative to its folder then). */
  paths: string[];
  /** Abstract names (without the leading NUL; NULs inside shown as `@`, as the kernel prints them). */
  abstract: string[];
}

// `Num: RefCount Protocol Flags Type St Inode [Path]`: the path is the rest of the line, spaces included.
const ENTRY = /^[0-9a-fA-F]+: [0-9a-fA-F]+ [0-9a-fA-F]+ [0-9a-fA-F]+ [0-9a-fA-F]+ [0-9a-fA-F]+ +\d+ (.+)$/;

/**
 * The names in /proc/net/unix's text: one entry a line, unnamed sockets skipped. The kernel prints a name as bound
 * (after a rename the old name is still the one listed, which is why socket-doors.ts also looks beside it).
 */
export function parseProcNetUnix(text: string): BoundSocketNames {
  const paths = new Set<string>();
  const abstract = new Set<string>();
  for (const line of text.split('\n')) {
    const name = ENTRY.exec(line)?.[1];
    if (name === undefined) continue;
    if (name.startsWith('@')) abstract.add(name.slice(1));
    else paths.add(name);
  }
  return { paths: [...paths], abstract: [...abstract] };
}

/** The sockets bound now in this process's network namespace; none where there is no /proc/net/unix (macOS). */
export async function boundSocketNames(file = '/proc/net/unix'): Promise<BoundSocketNames> {
  try {
    return parseProcNetUnix(await fsp.readFile(file, 'utf8'));
  } catch {
    return { paths: [], abstract: [] };
  }
}
