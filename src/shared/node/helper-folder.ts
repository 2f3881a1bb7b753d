import os from 'node:os';
import path from 'node:path';

/**
 * Where the CLI's decision helper keeps its socket and its secret (`<runtime dir>/gatehouse-<uid>/`, the runtime dir
 * being $XDG_RUNTIME_DIR or the temp folder): the CLI makes and uses the folder (src/main/cli/decision-helper-socket.ts),
 * the command sandbox hides it (socket-doors.ts, seatbelt-sandbox.ts), so both name it by this one rule. Node builtins
 * only: the `gatehouse` entry loads it for every call.
 */

export function helperFolderName(uid: number): string {
  return `gatehouse-${uid}`;
}

/**
 * Every folder a helper of this user may use, whichever environment its clients have: under each runtime folder
 * named, and under the temp folder.
 */
export function helperFolderCandidates(runtimeDirs: readonly string[], uid: number, tmpDir = os.tmpdir()): string[] {
  const bases = [...runtimeDirs.filter((d) => path.isAbsolute(d)), tmpDir];
  return [...new Set(bases.map((b) => path.join(path.resolve(b), helperFolderName(uid))))];
}
