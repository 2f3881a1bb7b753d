/** A program path reduced to its name, the way rules and the deny list see it (`/bin/rm` -> `rm`). */
export function programName(word: string): string {
  const trimmed = word.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return slash >= 0 ? trimmed.slice(slash + 1) : trimmed;
}

/** Shells whose `-c` string, script on stdin or heredoc we parse with the bash grammar. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash']);

/** Shells with another syntax: their code is parsed as bash to find denied commands, but is never readable. */
export const FOREIGN_SHELLS = new Set(['fish', 'csh', 'tcsh', 'xonsh', 'nu', 'elvish']);

/** Words that change the working directory for the commands after them. */
export const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);
