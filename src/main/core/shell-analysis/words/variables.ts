import { arithmeticFacts, INTEGER_SPECIALS, subscriptText } from './arithmetic';
import { judgeAssignment } from '../walk/environment-assignments';
import type { AnalysisState } from '../walk/state';
import type { SyntaxNode as Node } from '../parse/syntax-node';

/**
 * What the script does with variables, as far as it decides what runs (contract "Assurance"): assignments to
 * PATH-like variables change which program a name runs; values that reach an arithmetic context, `${!x}` or
 * `${x@P}` are run as code unless they are known to be plain integers.
 */
export interface Reporter {
  readonly state: AnalysisState;
  unreadable(reason: string): void;
}

function knownInteger(state: AnalysisState, name: string): boolean {
  return INTEGER_SPECIALS.has(name) || (state.integers.has(name) && !state.volatile.has(name));
}

/** An assignment to `target` (a name, or `name[subscript]`) of an integer or of arbitrary data. */
export function noteAssignment(r: Reporter, target: string, value: 'integer' | 'data'): void {
  const sub = subscriptText(target);
  const name = sub === null ? target : target.slice(0, target.indexOf('['));
  judgeAssignment(r, name, 'shell');
  if (name === 'CDPATH') r.state.cdpathSet = true;
  if (name === 'PWD') r.state.pwdAssigned = true;
  if (value === 'data') r.state.dataVariables.add(name);
  if (value === 'integer' && sub === null) r.state.integers.add(name);
  else r.state.integers.delete(name);
}

/** Checks the nodes of one arithmetic expression: every variable it evaluates must be a known integer. */
export function checkArithmetic(r: Reporter, nodes: Node[], what: string): void {
  const facts = arithmeticFacts(nodes);
  for (const name of new Set(facts.reads)) {
    if (!knownInteger(r.state, name))
      r.unreadable(`${what} evaluates the value of ${name} as code, and that value is not known`);
  }
  for (const op of new Set(facts.opaque)) r.unreadable(`${what} evaluates ${op} as code`);
  for (const name of facts.assigns) noteAssignment(r, name, 'integer');
}

/** `a[i]` in an expansion or an assignment: an indexed array's subscript is an arithmetic expression. */
export function checkSubscript(r: Reporter, node: Node): void {
  const name = node.childForFieldName('name')?.text ?? '';
  const index = node.childForFieldName('index');
  if (index === null || r.state.associative.has(name)) return;
  if (index.type === 'word' && /^[@*]$/.test(index.text)) return;
  checkArithmetic(r, [index], `the subscript of ${node.text}`);
}

/**
 * A `${..}` expansion: indirection (`${!x}`) and prompt expansion (`${x@P}`) run data as code; substring offsets
 * (`${s:off:len}`) and subscripts are arithmetic; `${x:=v}` assigns.
 */
export function checkExpansion(r: Reporter, node: Node): void {
  const parts = node.children.filter((c) => c.type !== '${' && c.type !== '}');
  const [first, second, third] = parts;
  if (first?.type === '!') {
    const names =
      second?.type === 'variable_name' && (third?.type === '*' || third?.type === '@') && parts.length === 3;
    const keys =
      second?.type === 'subscript' &&
      /^[@*]$/.test(second.childForFieldName('index')?.text ?? '') &&
      parts.length === 2;
    if (!names && !keys)
      r.unreadable(`${node.text} uses a variable's value as the name of another: bash would evaluate it as code`);
  }
  parts.forEach((p, i) => {
    if (p.type === '@' && parts[i + 1]?.type === 'P')
      r.unreadable(`${node.text} expands a value as a prompt, running the command substitutions in it`);
    if (p.type === 'subscript') checkSubscript(r, p);
    if (p.type === ':') {
      const operands: Node[] = [];
      for (let j = i + 1; j < parts.length && parts[j]?.type !== ':'; j++) operands.push(parts[j] as Node);
      checkArithmetic(r, operands, `the offset in ${node.text}`);
    }
    if ((p.type === ':=' || p.type === '=') && first?.type === 'variable_name') {
      const value = parts.slice(i + 1);
      const integer = value.length === 1 && value[0]?.type === 'number' && value[0].namedChildCount === 0;
      noteAssignment(r, first.text, integer ? 'integer' : 'data');
    }
  });
}

/** Names assigned anywhere below `node` (and whether every such assignment is an integer): for loops and functions. */
export function assignedBelow(
  node: Node,
  out: Map<string, 'integer' | 'data'> = new Map(),
): Map<string, 'integer' | 'data'> {
  const mark = (name: string, kind: 'integer' | 'data'): void => {
    if (out.get(name) !== 'data') out.set(name, kind);
  };
  if (node.type === 'variable_assignment') {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    const base = name?.type === 'subscript' ? (name.childForFieldName('name')?.text ?? '') : (name?.text ?? '');
    const integer =
      value !== null &&
      ((value.type === 'number' && value.namedChildCount === 0) || value.type === 'arithmetic_expansion');
    if (base) mark(base, integer ? 'integer' : 'data');
  } else if (node.type === 'for_statement') {
    const v = node.childForFieldName('variable');
    if (v !== null) mark(v.text, 'data');
  } else if (node.type === 'command') {
    // builtins that assign their operands (`read x`, `printf -v x`, `mapfile x`, `getopts o x`): any word may be a name
    const name = node.childForFieldName('name')?.text ?? '';
    if (/^(read|printf|mapfile|readarray|getopts|declare|typeset|local|export|readonly|unset)$/.test(name)) {
      for (const arg of node.childrenForFieldName('argument'))
        if (/^[A-Za-z_]\w*/.test(arg.text)) mark(/^[A-Za-z_]\w*/.exec(arg.text)?.[0] as string, 'data');
    }
  } else if (
    node.type === 'binary_expression' ||
    node.type === 'postfix_expression' ||
    node.type === 'unary_expression'
  ) {
    for (const a of arithmeticFacts([node]).assigns) mark(a, 'integer');
  }
  for (const child of node.namedChildren) assignedBelow(child, out);
  return out;
}
