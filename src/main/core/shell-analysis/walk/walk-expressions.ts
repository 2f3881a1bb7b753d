import { isLiteralIndex, subscriptText } from '../words/arithmetic';
import { parseShell } from '../parse/parser';
import { copyTree, type SyntaxNode as Node } from '../parse/syntax-node';
import { checkArithmetic } from '../words/variables';
import { WalkBase } from './walk-base';
import { evaluateRaw, isDynamic, rawText, walkExpression } from '../words/words';

/** Comparison operators of `[[ ]]` whose operands bash evaluates as arithmetic. */
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/**
 * The part of the walk that judges expressions bash evaluates as arithmetic (contract "Assurance: Code from data"):
 * test commands, a name's subscript given as data, arithmetic given as text.
 */
export abstract class ExpressionWalk extends WalkBase {
  /** `[[ ]]` and `[ ]`: substitutions run; `-eq`-style operands are arithmetic; `-v a[i]` evaluates its subscript. */
  protected testCommand(node: Node): void {
    walkExpression(node, this.immediate);
    const double = node.child(0)?.type === '[[';
    const visit = (n: Node): void => {
      if (n.type === 'binary_expression' && double) {
        const op = n.childForFieldName('operator');
        if (op !== null && ARITHMETIC_TESTS.has(op.text)) {
          const operands = n.namedChildren.filter((c) => c !== op);
          checkArithmetic(this, operands, n.text);
        }
      }
      if (n.type === 'unary_expression' && n.children.some((c) => c.text === '-v')) {
        const operand = n.namedChildren.filter((c) => c.type !== 'test_operator');
        const raw = evaluateRaw(operand, this.immediate);
        if (isDynamic(raw)) this.unreadable(`${n.text}: -v of a computed name evaluates it as code`);
        else this.subscriptName(rawText(raw), n.text);
      }
      for (const c of n.namedChildren) visit(c);
    };
    visit(node);
  }

  /** A variable name given as data (`printf -v NAME`, `read NAME`, `test -v NAME`): its subscript is arithmetic. */
  protected subscriptName(name: string, what: string): void {
    const sub = subscriptText(name);
    const base = sub === null ? name : name.slice(0, name.indexOf('['));
    if (sub === null || isLiteralIndex(sub) || this.state.associative.has(base)) return;
    this.arithmeticText(sub, what);
  }

  override arithmeticText(text: string, what: string): void {
    const tree = parseShell(`(( ${text} ))`);
    try {
      const root = copyTree(tree, `(( ${text} ))`);
      const only = root.namedChildren;
      if (
        tree.rootNode.hasError ||
        only.length !== 1 ||
        only[0]?.type !== 'compound_statement' ||
        only[0].child(0)?.type !== '(('
      ) {
        this.unreadable(`${what}: ${text} is not an arithmetic expression bash would read safely`);
        return;
      }
      checkArithmetic(this, only[0].namedChildren, what);
    } finally {
      tree.delete();
    }
  }
}
