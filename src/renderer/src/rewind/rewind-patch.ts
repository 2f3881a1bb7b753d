import type { ChangedFile } from '../../../shared/checkpoint-contract';

/**
 * A checkpoint's patch (one `git diff`, every file) cut into one diff per changed file. Git writes the files in the
 * order it lists them: the n-th `diff --git` section belongs to the n-th file when both agree on the name; a file
 * whose section is missing (the patch was cut at its size limit) has none.
 */
export function patchByFile(patch: string, files: readonly ChangedFile[]): Map<string, string> {
  const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  const out = new Map<string, string>();
  const unclaimed = [...sections];
  for (const file of files) {
    const at = unclaimed.findIndex((s) => names(s, file.path));
    if (at < 0) continue;
    out.set(file.path, unclaimed[at]!);
    unclaimed.splice(at, 1);
  }
  return out;
}

/** Whether a section's header names `file` (git quotes unusual names: those are matched on their `+++`/`---` line). */
function names(section: string, file: string): boolean {
  const header = section.slice(0, section.indexOf('\n') + 1 || section.length);
  if (header === `diff --git a/${file} b/${file}\n`) return true;
  const quoted = JSON.stringify(`a/${file}`);
  return header.includes(quoted) || section.includes(`\n--- a/${file}\n`) || section.includes(`\n+++ b/${file}\n`);
}
