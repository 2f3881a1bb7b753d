import { UNKNOWN_STDIN, type Stdin, type WalkerApi } from '../walk/state';

/**
 * Analyses `text`, a command a program runs with `sh -c` or splits into words itself (contract "Assurance:
 * Options that take a command"): the deny list and the rules judge it like any other. A value that is not literal
 * cannot be seen: the command is unreadable.
 */
export function runsCommand(
  w: WalkerApi,
  what: string,
  text: string,
  dynamic: boolean,
  stdin: Stdin = UNKNOWN_STDIN,
): void {
  if (dynamic) w.unreadable(`${what} runs a command that is not literal`);
  else if (text.trim() !== '') w.nestedSource(text, stdin, 'child');
}
