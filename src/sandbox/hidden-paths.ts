/**
 * The files and folders main found denied by a `Read(...)` deny rule: masked inside the sandbox like the secrets'
 * folders (an empty read-only tmpfs over a folder, `/dev/null` over a file; Seatbelt denies them). Re-checked at
 * every wrap: a path that is gone needs no mask (and must not get a mount point made for it).
 */
import { existingMaskTargets, type MaskTarget } from './protected-paths';
import { isInside } from '../shared/node/path-containment';

export interface HiddenPath {
  /** Absolute real path. */
  path: string;
  /** The rule that denies it (`Read(./secrets/**)`), for the violation text. */
  rule: string;
}

/**
 * Under bubblewrap the command's `/tmp` is a private folder: a host path below `/tmp` is not there at all unless a
 * writable root (bound at its own path) contains it, or it contains one. Masking the others would only make stray
 * mount points in the private folder.
 */
export function visibleUnderBwrap(p: string, writableRoots: readonly string[]): boolean {
  if (!isInside(p, '/tmp') || p === '/tmp') return true;
  return writableRoots.some((r) => isInside(p, r) || isInside(r, p));
}

/**
 * The masks for the hidden paths that exist now, minus those already inside another masked folder (`protected`:
 * the secrets' folders): an empty read-only tmpfs has no place to mount a file on, and it hides that file anyway.
 */
export async function hiddenMaskTargets(
  hidden: readonly HiddenPath[],
  writableRoots: readonly string[],
  masked: readonly MaskTarget[] = [],
): Promise<MaskTarget[]> {
  if (hidden.length === 0) return [];
  const folders = masked.filter((m) => m.isDirectory).map((m) => m.path);
  return (await existingMaskTargets(hidden.map((h) => h.path))).filter(
    (m) => visibleUnderBwrap(m.path, writableRoots) && !folders.some((f) => isInside(m.path, f)),
  );
}

/** The rule hiding `p` (a hidden path or something inside a hidden folder), or null. */
export function hidingRule(p: string, hidden: readonly HiddenPath[]): HiddenPath | null {
  return hidden.find((h) => isInside(p, h.path)) ?? null;
}
