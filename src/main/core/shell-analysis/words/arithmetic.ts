import type { SyntaxNode as Node } from '../parse/syntax-node';

/**
 * Arithmetic contexts (contract "Assurance: Code from data"). Bash evaluates a variable's *value* as an arithmetic
 * expression in `$(( ))`, `(( ))`, `for (( ))`, `let`, `[[ a -eq b ]]`, array subscripts and `${s:offset}`, and
 * an expression may hold `a[$(cmd)]`: so `x='a[$(curl … | sh)]'; echo $((x))` runs curl. This module lists what an
 * arithmetic expression reads and assigns; the walker decides which variables are known to hold plain integers.
 */
export interface ArithmeticFacts {
  /** Variables whose value the expression evaluates (`x` in `x+1`, `$x`, `${x}`, `a` in `a[1]`, `x` in `x+=1`). */
  reads: string[];
  /** Variables the expression assigns an integer to (`x=1`, `x+=2`, `x++`). */
  assigns: string[];
  /** Operands whose value is data that bash would evaluate and we cannot name (`$(cmd)`, `$1`, `"${x:-y}"`). */
  opaque: string[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^(?:0[xX][0-9a-fA-F]+|[0-9]+#[0-9a-zA-Z@_]+|[0-9]+)$/;
/** Special parameters and shell variables that always hold an integer. */
export const INTEGER_SPECIALS = new Set([
  '#',
  '?',
  '$',
  '!',
  'RANDOM',
  'SRANDOM',
  'LINENO',
  'SECONDS',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'EPOCHSECONDS',
]);
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|=']);

function expansionName(node: Node): string | null {
  // `$x`, `$#`: the child after `$`
  const named = node.namedChildren;
  if (named.length !== 1) return null;
  const child = named[0] as Node;
  return child.type === 'variable_name' || child.type === 'special_variable_name' ? child.text : null;
}

function collect(node: Node, out: ArithmeticFacts): void {
  switch (node.type) {
    case 'number':
      if (node.namedChildCount > 0) for (const c of node.namedChildren) collect(c, out);
      return;
    case 'variable_name':
      out.reads.push(node.text);
      return;
    case 'word':
      if (IDENTIFIER.test(node.text)) out.reads.push(node.text);
      else if (!INTEGER.test(node.text) && !/^[@*]$/.test(node.text)) out.opaque.push(node.text);
      return;
    case 'simple_expansion': {
      const name = expansionName(node);
      if (name !== null && (IDENTIFIER.test(name) || INTEGER_SPECIALS.has(name))) out.reads.push(name);
      else out.opaque.push(node.text);
      return;
    }
    case 'expansion': {
      const parts = node.children.filter((c) => c.type !== '${' && c.type !== '}');
      const [first, second] = parts;
      if (parts.length === 2 && first?.type === '#' && second?.type === 'variable_name') return; // ${#x}: a length
      if (parts.length === 1 && first?.type === 'variable_name') out.reads.push(first.text);
      else if (parts.length === 1 && first?.type === 'subscript') collect(first, out);
      else out.opaque.push(node.text);
      return;
    }
    case 'subscript': {
      const name = node.childForFieldName('name');
      const index = node.childForFieldName('index');
      if (name !== null) out.reads.push(name.text);
      if (index !== null) collect(index, out);
      return;
    }
    case 'command_substitution':
    case 'process_substitution':
      // its output is evaluated as an expression: data from a program, run as code
      out.opaque.push(node.text);
      return;
    case 'binary_expression': {
      const left = node.childForFieldName('left');
      const op = node.childForFieldName('operator')?.text ?? '';
      const right = node.childForFieldName('right');
      if (
        ASSIGN_OPS.has(op) &&
        left !== null &&
        (left.type === 'variable_name' || (left.type === 'word' && IDENTIFIER.test(left.text)))
      ) {
        if (op !== '=') out.reads.push(left.text);
        if (right !== null) collect(right, out);
        out.assigns.push(left.text);
        return;
      }
      break;
    }
    case 'postfix_expression':
    case 'unary_expression': {
      const op = node.children.find((c) => c.type === '++' || c.type === '--');
      const target = node.namedChildren.find(
        (c) => c.type === 'variable_name' || (c.type === 'word' && IDENTIFIER.test(c.text)),
      );
      if (op !== undefined && target !== undefined) {
        out.reads.push(target.text);
        out.assigns.push(target.text);
        return;
      }
      break;
    }
    case 'variable_assignment': {
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      if (value !== null) collect(value, out);
      if (name?.type === 'variable_name') out.assigns.push(name.text);
      else if (name !== null) collect(name, out);
      return;
    }
    default:
      break;
  }
  for (const child of node.namedChildren) collect(child, out);
}

/** What an arithmetic expression node (or the nodes of one) reads and assigns. */
export function arithmeticFacts(nodes: Node[]): ArithmeticFacts {
  const out: ArithmeticFacts = { reads: [], assigns: [], opaque: [] };
  for (const n of nodes) collect(n, out);
  return out;
}

/** `a[i+1]` as a variable name (`printf -v`, `read`, `test -v`): its subscript, if any, else null. */
export function subscriptText(name: string): string | null {
  const open = name.indexOf('[');
  if (open < 0 || !name.endsWith(']')) return null;
  return name.slice(open + 1, -1);
}

/** True for a subscript bash reads as a plain integer (no evaluation of data). */
export function isLiteralIndex(index: string): boolean {
  return INTEGER.test(index.trim()) || /^[@*]$/.test(index.trim());
}
