import { followBuiltin } from './builtins';
import { commandWords } from '../words/command-words';
import {
  analyseAssignedValue,
  judgeCommandEnvironment,
  judgeDeclaration,
  type AssignmentScope,
} from './environment-assignments';
import { findSelfCall } from '../deny-list/fork-bomb';
import { noteGlobReads } from '../programs/glob-reads';
import { followInvocation, literalOutput } from '../programs/invocations';
import { programName } from '../words/names';
import { bindRedirect, sharedInput } from './descriptors';
import { NO_STDIN, UNKNOWN_STDIN, type Stdin } from './state';
import type { SyntaxNode as Node } from '../parse/syntax-node';
import type { SimpleCommand } from '../types';
import { assignedBelow, checkArithmetic, checkSubscript, noteAssignment } from '../words/variables';
import { ExpressionWalk } from './walk-expressions';
import { evaluateRaw, groupAdjacent, isDynamic, rawText, walkExpression, type WordHooks } from '../words/words';
import { directoryAfter } from './working-directory';
import { runWrapped } from '../programs/wrapper-effects';
import { unwrap, type Unwrapped } from '../programs/wrappers';

/**
 * The syntax-tree walk. Every node type is handled explicitly; anything else makes the command unreadable
 * (fail closed). Statement handlers return the statement's stdout when it is known literal text (for
 * `echo '...' | sh`), else null.
 */

/** Separators bash rejects outside a `case` item (`ls ;; pwd`). */
const CASE_SEPARATORS = new Set([';;', ';&', ';;&']);
const LOOPS = new Set(['while_statement', 'for_statement', 'c_style_for_statement']);

export class ShellWalk extends ExpressionWalk {
  /** Statements in order; one followed by `&` runs in the background, in a subshell. */
  private sequence(node: Node, stdin: Stdin): void {
    const children = node.children;
    const statements = children.filter((c) => c.isNamed && c.type !== 'comment').length;
    const inner = sharedInput(stdin, statements);
    children.forEach((child, i) => {
      if (!child.isNamed) {
        if (CASE_SEPARATORS.has(child.type)) this.unreadable(`syntax error: ${child.type} outside a case`);
        return;
      }
      const background = children.slice(i + 1).find((c) => !c.isNamed || c.type !== 'comment')?.type === '&';
      if (background) this.scoped('subshell', false, () => this.statement(child, inner));
      else this.statement(child, inner);
    });
  }

  override statement(node: Node, stdin: Stdin): string | null {
    // `coproc { …; }`: the body runs in the background, in a subshell reading from a pipe
    if (this.coprocBodies.has(node)) {
      this.scoped('subshell', false, () => this.syntax(node, UNKNOWN_STDIN));
      return null;
    }
    return this.syntax(node, stdin);
  }

  private syntax(node: Node, stdin: Stdin): string | null {
    if (node.type === 'ERROR' || node.isMissing) {
      this.unreadable('syntax error');
      this.scoped('conditional', false, () => this.sequence(node, stdin));
      return null;
    }
    switch (node.type) {
      case 'program':
        this.sequence(node, stdin);
        return null;
      case 'comment':
        return null;
      case 'command':
        return this.command(node, stdin);
      case 'list':
        return this.walkList(node, stdin, (n, input) => this.statement(n, input));
      case 'pipeline':
        return this.walkPipeline(node.namedChildren, stdin, (n, input) => this.statement(n, input));
      case 'subshell':
        // `(cd DIR; ...)`: its own directory, followed like the top level's, forgotten after it
        this.scoped('subshell', true, () => this.sequence(node, stdin));
        return null;
      case 'negated_command':
      case 'do_group':
      case 'else_clause':
      case 'elif_clause':
        this.sequence(node, stdin);
        return null;
      case 'redirected_statement':
        return this.redirected(node, stdin);
      case 'compound_statement':
        if (node.child(0)?.type === '((') {
          walkExpression(node, this.immediate);
          checkArithmetic(this, node.namedChildren, node.text);
        } else this.scoped('block', false, () => this.sequence(node, stdin));
        return null;
      case 'test_command':
        this.testCommand(node);
        return null;
      case 'variable_assignment':
      case 'variable_assignments': {
        const nodes = node.type === 'variable_assignment' ? [node] : node.namedChildren;
        this.assignments(nodes, this.immediate, true);
        return null;
      }
      case 'declaration_command':
      case 'unset_command':
        this.declaration(node);
        return null;
      case 'function_definition':
        this.functionDefinition(node);
        return null;
      case 'if_statement':
      case 'case_statement':
      case 'while_statement':
      case 'for_statement':
      case 'c_style_for_statement':
        this.control(node, stdin);
        return null;
      default:
        this.unreadable(`unsupported shell syntax: ${node.type}`);
        return null;
    }
  }

  /**
   * `if`, `case` and loops: their parts may run or not, loops more than once. A loop's body may change a variable
   * before its own condition runs again: what it assigns is not known to be an integer anywhere in the loop.
   */
  private control(node: Node, stdin: Stdin): void {
    if (node.type === 'c_style_for_statement') {
      // the initializer always runs once, before the loop
      const init = node.childrenForFieldName('initializer');
      for (const n of init) walkExpression(n, this.immediate);
      checkArithmetic(this, init, node.text);
    }
    if (LOOPS.has(node.type)) {
      for (const [name, kind] of assignedBelow(node)) if (kind === 'data') this.state.integers.delete(name);
    }
    this.scoped('conditional', false, () => {
      if (node.type === 'c_style_for_statement') this.cStyleFor(node, stdin);
      else if (node.type === 'for_statement') this.forIn(node, stdin);
      else if (node.type === 'case_statement') this.caseStatement(node, stdin);
      else this.sequence(node, stdin);
    });
  }

  private cStyleFor(node: Node, stdin: Stdin): void {
    node.children.forEach((child, i) => {
      const field = node.fieldNameForChild(i);
      if (field === 'initializer' || !child.isNamed) return;
      if (field === 'body') this.statement(child, stdin);
      else {
        walkExpression(child, this.immediate);
        checkArithmetic(this, [child], node.text);
      }
    });
  }

  private forIn(node: Node, stdin: Stdin): void {
    const variable = node.childForFieldName('variable');
    const values = node.childrenForFieldName('value');
    const words = values.map((v) => evaluateRaw([v], this.immediate));
    for (const w of words) if (isDynamic(w)) noteGlobReads(this.state, w, rawText(w));
    const integers = words.length > 0 && words.every((w) => !isDynamic(w) && /^-?\d+$/.test(rawText(w)));
    if (variable !== null) noteAssignment(this, variable.text, integers ? 'integer' : 'data');
    for (const child of node.namedChildren) {
      if (child.type === 'do_group' || child.type === 'compound_statement') this.statement(child, stdin);
    }
  }

  private caseStatement(node: Node, stdin: Stdin): void {
    for (const child of node.namedChildren) {
      if (child.type === 'case_item') this.caseItem(child, stdin);
      else if (child.type !== 'comment') evaluateRaw([child], this.immediate);
    }
  }

  private caseItem(item: Node, stdin: Stdin): void {
    item.children.forEach((child, i) => {
      if (!child.isNamed) return;
      if (item.fieldNameForChild(i) === 'value') evaluateRaw([child], this.immediate);
      else this.statement(child, stdin);
    });
  }

  private assignments(
    nodes: Node[],
    hooks: WordHooks,
    record: boolean,
    later?: [string, 'integer' | 'data'][],
    scope: AssignmentScope = record ? 'shell' : 'command',
  ): string[] {
    const texts: string[] = [];
    for (const a of nodes) {
      if (a.type !== 'variable_assignment') {
        this.unreadable(`unsupported assignment syntax: ${a.type}`);
        continue;
      }
      const name = a.childForFieldName('name');
      const value = a.childForFieldName('value');
      if (name?.type === 'subscript') checkSubscript(this, name);
      if (name !== null) walkExpression(name, hooks); // `a[$(cmd)]=1`
      const op = a.children.find((c) => !c.isNamed)?.text ?? '=';
      const valueNodes = groupAdjacent(a.childrenForFieldName('value'), this.source).flat();
      const raw = value === null ? null : evaluateRaw(valueNodes, hooks);
      const valueText = raw === null ? '' : rawText(raw);
      const base = name?.type === 'subscript' ? (name.childForFieldName('name')?.text ?? '') : (name?.text ?? '');
      const integer =
        op === '=' &&
        raw !== null &&
        ((!isDynamic(raw) && /^-?\d+$/.test(valueText)) ||
          (value?.type === 'arithmetic_expansion' && valueNodes.length === 1));
      const target = name?.type === 'subscript' ? `${base}[0]` : base;
      analyseAssignedValue(this, base, valueText, scope);
      if (record) noteAssignment(this, target, integer ? 'integer' : 'data');
      later?.push([target, integer ? 'integer' : 'data']);
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
    let flags = '';
    const assigned: [string, 'integer' | 'data'][] = [];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') {
        const scope = keyword === 'export' || /x/.test(flags) ? 'exported' : 'shell';
        words.push(...this.assignments([child], hooks, false, keyword === 'unset' ? undefined : assigned, scope));
        dynamic.push(false);
        continue;
      }
      const raw = evaluateRaw([child], hooks);
      const text = rawText(raw);
      words.push(text);
      dynamic.push(isDynamic(raw));
      const element = /^[A-Za-z_]\w*\[[^\]]*\]/.exec(text);
      // `declare 'a[$i]=1'`: bash reads the operand as an assignment, its subscript as arithmetic
      if (element !== null && keyword !== 'unset' && !isDynamic(raw))
        this.subscriptName(element[0], `${keyword} ${text}`);
      if (/^[-+][a-zA-Z]+$/.test(text)) flags += text.slice(1);
      else if (keyword === 'unset') {
        this.state.integers.delete(text);
        if (!isDynamic(raw)) this.subscriptName(text, `unset ${text}`); // `unset 'a[$i]'` evaluates $i
      } else if (/^[A-Za-z_]\w*$/.test(text) && flags.includes('A')) this.state.associative.add(text);
      else if (/^[A-Za-z_]\w*$/.test(text) && keyword === 'local') noteAssignment(this, text, 'data');
    }
    // integer and reference attributes make later assignments arithmetic, or names of other variables
    if (/[in]/.test(flags) && keyword !== 'unset' && keyword !== 'export') {
      this.unreadable(`${keyword} -${flags.replace(/[^in]/g, '')} makes a variable's value evaluate as code`);
    }
    const cmd: SimpleCommand = {
      text: node.text,
      argv: words,
      name: keyword,
      words,
      assignments: [],
      argvDynamic: dynamic,
    };
    this.push(cmd);
    judgeDeclaration(cmd, this);
    for (const [target, kind] of assigned) noteAssignment(this, target, kind);
    for (const n of nested) this.substitution(n);
  }

  private functionDefinition(node: Node): void {
    this.state.positionalSet = true; // its calls set $1, $@
    const name = node.childForFieldName('name');
    const body = node.childForFieldName('body');
    if (name !== null && body !== null && this.state.forkBomb === null) {
      const fname = rawText(evaluateRaw([name], this.immediate));
      if (findSelfCall(body, fname)) {
        this.state.forkBomb = `function ${fname} calls itself in a pipeline or in the background`;
      }
    }
    // a call can come at any later point: what the body assigns is never known from here on
    if (body !== null) for (const v of assignedBelow(body).keys()) this.state.volatile.add(v);
    if (body !== null) this.scoped('conditional', false, () => this.statement(body, NO_STDIN));
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
        if (child.type === 'herestring_redirect') input = bindRedirect(input, child, this.herestring(child));
        else {
          input = bindRedirect(input, child);
          this.redirect(child);
        }
      } else if (child.isNamed) this.unreadable(`unsupported command syntax: ${child.type}`);
    });
    // `X=1 cmd`: the assignment is for cmd's environment only (not recorded as the shell's)
    const assignments = this.assignments(assignmentNodes, hooks, wordNodes.length === 0);
    const { words, dynamic, computedName, misplacedBlank, expanding } = commandWords(wordNodes, this.source, hooks);
    for (const e of expanding) noteGlobReads(this.state, e.raw, e.word);
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
    const u = unwrap(words, dynamic, stdin);
    if (u.problem !== null) this.unreadable(u.problem);
    if (u.changesDirectory) this.state.changesDirectory = true;
    if (u.dynamic[0] === true) {
      this.unreadable(`the command name is computed: ${u.argv[0] ?? ''}`);
      return null;
    }
    // `hash -p PATH NAME` earlier: NAME runs PATH (argv[0] stays NAME)
    const hashed = u.argv[0]?.includes('/') === false ? this.state.hashed.get(u.argv[0]) : undefined;
    const argv = hashed === undefined ? u.argv : [hashed, ...u.argv.slice(1)];
    const cmd: SimpleCommand = {
      text,
      argv,
      name: programName(argv[0] ?? ''),
      words,
      assignments: [...assignments, ...u.envAssignments],
      argvDynamic: u.dynamic,
      ...(u.runner === null ? {} : { runner: u.runner }),
    };
    judgeCommandEnvironment(cmd, u.envUnset, this);
    for (const a of u.envAssignments)
      analyseAssignedValue(this, a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1), 'command');
    return runWrapped(u, cmd, stdin, this, () => this.emitWrapped(cmd, u, stdin));
  }

  /** The program the wrappers run, in the directory they give it (wrapper-effects.ts). */
  private emitWrapped(cmd: SimpleCommand, u: Unwrapped, stdin: Stdin): string | null {
    if (u.viaXargs) {
      cmd.argsFromInput = true;
      // `echo ~ | xargs rm -rf`: literal words piped into xargs are its arguments (for the deny list and paths)
      if (u.xargsInput !== null) return this.emitXargs(cmd, u.xargsInput, u.xargsReplace);
    }
    this.push(cmd);
    if (cmd.name === 'set' && cmd.argv.length > 1) this.state.positionalSet = true;
    // `coproc CMD`: CMD reads what the shell writes to it later, not the command's input
    const input = u.viaXargs ? NO_STDIN : cmd.words[0] === 'coproc' ? UNKNOWN_STDIN : stdin;
    followBuiltin(cmd, this);
    followInvocation(cmd, u.dynamic, input, this);
    return literalOutput(cmd, u.dynamic, input);
  }

  /** One command per input item with `-I`, else one with every item appended. */
  private emitXargs(cmd: SimpleCommand, items: string[], replace: string | null): null {
    const runs =
      replace === null
        ? [[...cmd.argv, ...items]]
        : items.map((item) => cmd.argv.map((w) => w.split(replace).join(item)));
    for (const argv of runs) {
      const run: SimpleCommand = {
        ...cmd,
        argv,
        argvDynamic: argv.map((_, i) => cmd.argvDynamic?.[i] === true),
        inputArgsKnown: true,
      };
      this.push(run);
      followInvocation(run, run.argvDynamic ?? [], NO_STDIN, this);
    }
    return null;
  }

  private push(cmd: SimpleCommand): void {
    if (this.state.environmentAltered) cmd.environmentAltered = true;
    if (this.state.environmentSet || cmd.environmentAltered === true) cmd.environmentSet = true;
    if (this.state.cwd !== '') cmd.cwd = this.state.cwd;
    const cdpath = this.state.cdpathSet || cmd.assignments.some((a) => /^CDPATH\+?=/.test(a));
    this.state.cwd = directoryAfter(this.state.cwd, cmd, { follow: this.follow, cdpath });
    this.state.commands.push(cmd);
  }
}
