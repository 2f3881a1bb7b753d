import { isLiteralIndex, subscriptText } from '../words/arithmetic';
import type { WalkerApi } from './state';
import type { SimpleCommand } from '../types';

/**
 * Builtins that assign variables named by their arguments (contract "Assurance": `read`, `printf -v`,
 * `mapfile`, `getopts`) or evaluate arithmetic (`let`, `test -v a[i]`). A name with a subscript evaluates the
 * subscript; a computed name is code from data; an assignment to PATH-like variables changes what later names run.
 */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/;

function checkName(cmd: SimpleCommand, index: number, w: WalkerApi, assigns: 'integer' | 'data' | null): void {
  const name = cmd.argv[index];
  if (name === undefined) return;
  if (cmd.argvDynamic?.[index] === true) {
    w.unreadable(`${cmd.name} uses a variable whose name is computed: bash would evaluate it as code`);
    return;
  }
  if (!NAME.test(name)) return; // bash refuses it: nothing is assigned
  const sub = subscriptText(name);
  const base = sub === null ? name : name.slice(0, name.indexOf('['));
  if (sub !== null && !isLiteralIndex(sub) && !w.state.associative.has(base))
    w.arithmeticText(sub, `${cmd.name} ${name}`);
  if (assigns !== null) w.assigned(name, assigns);
}

/**
 * Indexes of the names `read`/`mapfile` assign: the operands, and the value of `-a NAME` (read's array);
 * `valued` lists the options that take a value.
 */
function assignedIndexes(cmd: SimpleCommand, valued: string, arrayOption: boolean): number[] {
  const out: number[] = [];
  let i = 1;
  for (; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a.length < 2) break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k] as string;
      if (!valued.includes(c)) continue;
      const attached = k + 1 < a.length;
      if (!attached) i++;
      if (c === 'a' && arrayOption && !attached) out.push(i);
      break;
    }
  }
  for (; i < cmd.argv.length; i++) out.push(i);
  return out;
}

export function builtinAssignments(cmd: SimpleCommand, w: WalkerApi): void {
  switch (cmd.name) {
    case 'read':
      for (const i of assignedIndexes(cmd, 'adinNptu', true)) checkName(cmd, i, w, 'data');
      return;
    case 'mapfile':
    case 'readarray':
      for (const i of assignedIndexes(cmd, 'dnOsuCc', false)) checkName(cmd, i, w, 'data');
      return;
    case 'printf': {
      const v = cmd.argv.findIndex((a, i) => i > 0 && (a === '-v' || /^-v./.test(a)));
      if (v < 0) return;
      if (cmd.argv[v] === '-v') checkName(cmd, v + 1, w, 'data');
      else
        checkName(
          {
            ...cmd,
            argv: [cmd.argv[0] as string, (cmd.argv[v] as string).slice(2)],
            argvDynamic: [false, cmd.argvDynamic?.[v] === true],
          },
          1,
          w,
          'data',
        );
      return;
    }
    case 'getopts':
      checkName(cmd, 2, w, 'data');
      return;
    case 'let':
      cmd.argv.slice(1).forEach((expr, k) => {
        if (cmd.argvDynamic?.[k + 1] === true)
          w.unreadable('let of an expression that is not literal: bash evaluates it as code');
        else w.arithmeticText(expr, `let ${expr}`);
      });
      return;
    case 'test':
    case '[':
      cmd.argv.forEach((a, i) => {
        if (a === '-v') checkName(cmd, i + 1, w, null);
      });
      return;
    default:
      return;
  }
}
