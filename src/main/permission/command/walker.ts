import { commandWords } from './command-words';
import { altersLaterEnvironment, altersOwnEnvironment, isProgramVariable } from './environment';
import { findSelfCall } from './fork-bomb';
import { followInvocation, literalOutput } from './invocations';
import { programName } from './names';
import { isStdinRedirect } from './redirects';
import { NO_STDIN, UNKNOWN_STDIN, type Stdin } from './state';
import type { SyntaxNode as Node } from './syntax-node';
import type { SimpleCommand } from './types';
import { WalkBase } from './walk-base';
import { evaluateRaw, groupAdjacent, isDynamic, rawText, walkExpression, type WordHooks } from './words';
import { directoryAfter } from './working-directory';
import { unwrap } from './wrappers';

/**
 * The syntax-tree walk. Every node type is handled explicitly; anything else makes the command unreadable
 * (fail closed). Statement handlers return the statement's stdout when it is known literal text (for
 * `echo '...' | sh`), else null.
 */

/** Node types whose named children are all statements. */
const STATEMENT_CONTAINERS = new Set([
  'program',
  'list',
  'subshell',
  'do_group',
  'else_clause',
  'elif_clause',
  'if_statement',
  'while_statement',
  'negated_command',
]);

export class ShellWalk extends WalkBase {
  private statements(nodes: Node[], stdin: Stdin): void {
    const inner = stdin.kind === 'none' ? stdin : UNKNOWN_STDIN;
    for (const n of nodes) this.statement(n, inner);
  }

  override statement(node: Node, stdin: Stdin): string | null {
    if (node.type === 'ERROR' || node.isMissing) {
      this.unreadable('syntax error');
      this.statements(node.namedChildren, stdin);
      return null;
    }
    if (STATEMENT_CONTAINERS.has(node.type)) {
      this.statements(node.namedChildren, stdin);
      return null;
    }
    switch (node.type) {
      case 'comment':
        return null;
      case 'command':
        return this.command(node, stdin);
      case 'pipeline':
        this.pipeline(node.namedChildren, stdin);
        return null;
      case 'redirected_statement':
        return this.redirected(node, stdin);
      case 'compound_statement':
        if (node.child(0)?.type === '((') walkExpression(node, this.immediate);
        else this.statements(node.namedChildren, stdin);
        return null;
      case 'test_command':
        walkExpression(node, this.immediate);
        return null;
      case 'variable_assignment':
      case 'variable_assignments': {
        const nodes = node.type === 'variable_assignment' ? [node] : node.namedChildren;
        const texts = this.assignments(nodes, this.immediate);
        if (texts.some(isProgramVariable)) this.state.environmentAltered = true;
        return null;
      }
      case 'declaration_command':
      case 'unset_command':
        this.declaration(node);
        return null;
      case 'function_definition':
        this.functionDefinition(node);
        return null;
      case 'for_statement':
      case 'c_style_for_statement':
      case 'case_statement':
        this.loopOrCase(node, stdin);
        return null;
      default:
        this.unreadable(`unsupported shell syntax: ${node.type}`);
        return null;
    }
  }

  private pipeline(elements: Node[], stdin: Stdin): void {
    let input = stdin;
    for (const el of elements) {
      const out = this.statement(el, input);
      input = out === null ? UNKNOWN_STDIN : { kind: 'literal', text: out };
    }
  }

  private loopOrCase(node: Node, stdin: Stdin): void {
    for (const child of node.children) {
      if (!child.isNamed) continue;
      if (child.type === 'do_group' || child.type === 'compound_statement') this.statement(child, stdin);
      else if (child.type === 'case_item') this.caseItem(child, stdin);
      else if (node.type === 'c_style_for_statement') walkExpression(child, this.immediate);
      else if (child.type === 'variable_name' || child.type === 'comment') continue;
      else evaluateRaw([child], this.immediate);
    }
  }

  private caseItem(item: Node, stdin: Stdin): void {
    item.children.forEach((child, i) => {
      if (!child.isNamed) return;
      if (item.fieldNameForChild(i) === 'value') evaluateRaw([child], this.immediate);
      else this.statement(child, stdin);
    });
  }

  private assignments(nodes: Node[], hooks: WordHooks): string[] {
    const texts: string[] = [];
    for (const a of nodes) {
      if (a.type !== 'variable_assignment') {
        this.unreadable(`unsupported assignment syntax: ${a.type}`);
        continue;
      }
      const name = a.childForFieldName('name');
      const value = a.childForFieldName('value');
      if (name !== null) walkExpression(name, hooks); // `a[$(cmd)]=1`
      const op = a.children.find((c) => !c.isNamed)?.text ?? '=';
      const valueNodes = groupAdjacent(a.childrenForFieldName('value'), this.source).flat();
      const valueText = value === null ? '' : rawText(evaluateRaw(valueNodes, hooks));
      texts.push(`${name?.text ?? ''}${op}${valueText}`);
    }
    return texts;
  }

  private declaration(node: Node): void {
    const nested: Node[] = [];
    const hooks = this.hooks(nested);
    const keyword = node.child(0)?.text ?? node.type;
    const words = [keyword];
    const dynamic = [false];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') {
        words.push(...this.assignments([child], hooks));
        dynamic.push(false);
      } else {
        const raw = evaluateRaw([child], hooks);
        words.push(rawText(raw));
        dynamic.push(isDynamic(raw));
      }
    }
    this.push({ text: node.text, argv: words, name: keyword, words, assignments: [], argvDynamic: dynamic });
    for (const n of nested) this.substitution(n);
  }

  private functionDefinition(node: Node): void {
    const name = node.childForFieldName('name');
    const body = node.childForFieldName('body');
    if (name !== null && body !== null && this.state.forkBomb === null) {
      const fname = rawText(evaluateRaw([name], this.immediate));
      if (findSelfCall(body, fname)) {
        this.state.forkBomb = `function ${fname} calls itself in a pipeline or in the background`;
      }
    }
    if (body !== null) this.statement(body, NO_STDIN);
    for (const r of node.childrenForFieldName('redirect')) this.redirect(r);
  }

  private command(node: Node, stdin: Stdin): string | null {
    const nested: Node[] = [];
    const hooks = this.hooks(nested);
    const assignmentNodes: Node[] = [];
    const wordNodes: Node[] = [];
    let input = stdin;
    node.children.forEach((child, i) => {
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') assignmentNodes.push(child);
      else if (field === 'name' || field === 'argument') wordNodes.push(child);
      else if (field === 'redirect') {
        if (child.type === 'herestring_redirect') input = this.herestring(child);
        else {
          if (child.type === 'file_redirect' && isStdinRedirect(child)) input = { kind: 'file' };
          this.redirect(child);
        }
      } else if (child.isNamed) this.unreadable(`unsupported command syntax: ${child.type}`);
    });
    const assignments = this.assignments(assignmentNodes, hooks);
    const { words, dynamic, computedName, misplacedBlank } = commandWords(wordNodes, this.source, hooks);
    if (computedName !== null) this.unreadable(`the command name is computed: ${computedName}`);
    if (misplacedBlank) this.unreadable('an escaped blank outside any word');
    let out: string | null = null;
    if (words.length > 0 && dynamic[0] !== true) out = this.emit(words, dynamic, node.text, assignments, input);
    for (const n of nested) this.substitution(n);
    return out;
  }

  override emitArgv(words: string[], dynamic: boolean[], text: string, stdin: Stdin): void {
    if (dynamic[0] === true) {
      this.unreadable(`the command name is computed: ${words[0] ?? ''}`);
      return;
    }
    this.emit(words, dynamic, text, [], stdin);
  }

  private emit(words: string[], dynamic: boolean[], text: string, assignments: string[], stdin: Stdin): string | null {
    const u = unwrap(words, dynamic);
    if (u.problem !== null) this.unreadable(u.problem);
    if (u.changesDirectory) this.state.changesDirectory = true;
    if (u.dynamic[0] === true) {
      this.unreadable(`the command name is computed: ${u.argv[0] ?? ''}`);
      return null;
    }
    const cmd: SimpleCommand = {
      text,
      argv: u.argv,
      name: programName(u.argv[0] ?? ''),
      words,
      assignments,
      argvDynamic: u.dynamic,
    };
    if (u.viaXargs) cmd.argsFromInput = true;
    this.push(cmd);
    const input = u.viaXargs ? NO_STDIN : stdin;
    followInvocation(cmd, u.dynamic, input, this);
    return literalOutput(cmd, u.dynamic, input);
  }

  private push(cmd: SimpleCommand): void {
    if (this.state.environmentAltered || altersOwnEnvironment(cmd)) cmd.environmentAltered = true;
    if (altersLaterEnvironment(cmd)) this.state.environmentAltered = true;
    if (this.state.cwd !== '') cmd.cwd = this.state.cwd;
    this.state.cwd = directoryAfter(this.state.cwd, cmd);
    this.state.commands.push(cmd);
  }
}
