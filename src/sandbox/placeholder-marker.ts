/** The marker files that say a folder is a sandbox placeholder in use (placeholders.ts), and by which process. */
export const MARKER_PREFIX = '.gatehouse-sandbox-placeholder-';
const MARKER = /^\.gatehouse-sandbox-placeholder-(\d+)-\d+$/;

/** The process id a marker file's name carries, or null for any other name. */
export function markerPid(name: string): number | null {
  const m = MARKER.exec(name);
  return m?.[1] === undefined ? null : Number(m[1]);
}

/** Whether a folder's entries are those of a placeholder: one or more markers and nothing else. */
export function onlyMarkerNames(names: readonly string[]): boolean {
  return names.length > 0 && names.every((n) => markerPid(n) !== null);
}
