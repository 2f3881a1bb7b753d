import type { AnalysisState } from '../walk/state';
import { hasGlob, type RawWord } from '../words/words';

/**
 * Pathname expansion reads folders (contract "Assurance"): bash lists the folders an unquoted glob walks before
 * the program runs, whatever the program does with the names, so `echo ../*` or `echo ~/.ssh/*` show names
 * outside the project. Each globbed word is recorded as a read of what it can match (the engine expands it and
 * judges every match, and the word itself when nothing matches). An unquoted expansion is globbed too: when its
 * value may hold glob characters the script chose (a variable the script assigned, a command's output), where it
 * reads cannot be known, and it is recorded as a read of an unknown place.
 */
export function noteGlobReads(state: AnalysisState, raw: RawWord, word: string): void {
  const cwd = state.cwd === '' ? {} : { cwd: state.cwd };
  if (hasGlob(raw) && !raw.expands) state.reads.push({ path: word, via: 'glob', ...cwd });
  else if (raw.expands && (hasGlob(raw) || unquotedValueMayGlob(state, raw)))
    state.reads.push({ path: word, via: 'glob', dynamic: true, ...cwd });
}

/** An unquoted expansion whose value the script chose: a variable it assigned (not a plain integer), or a substitution. */
function unquotedValueMayGlob(state: AnalysisState, raw: RawWord): boolean {
  for (const text of raw.unquoted ?? []) {
    // an arithmetic result or a length is a number; a process substitution is a /dev/fd path
    if (text.startsWith('$((') || text.startsWith('${#') || text.startsWith('<(') || text.startsWith('>(')) continue;
    if (text.startsWith('$(') || text.startsWith('`')) return true; // a command's output
    if (/^\$\{?[#?$!-]\}?$/.test(text)) continue; // counts, statuses, process ids, option letters
    const m = /^\$\{?[#!]?([A-Za-z_]\w*|[@*\d])/.exec(text);
    const name = m?.[1];
    if (name === undefined || name === '_') return true; // `$_` is the last word of the command before: any text
    if (/^[@*\d]$/.test(name) ? state.positionalSet : state.dataVariables.has(name)) return true;
  }
  return false;
}
