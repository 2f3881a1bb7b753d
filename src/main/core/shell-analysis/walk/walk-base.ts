import { respellHeredocDelimiters, respelledHeredocsHold } from '../parse/heredoc-delimiter';
import { parseShell } from '../parse/parser';
import { bindHeredoc, bindRedirect, sharedInput } from './descriptors';
import { fileRedirect, heredocLiteral, misreadHeredocBody, writesStdout } from './redirects';
import { lineJoinRepair, repairedSource } from '../parse/repair';
import { readReservedWords } from '../parse/reserved-words';
import { NO_STDIN, UNKNOWN_STDIN, type AnalysisState, type Stdin, type WalkerApi } from './state';
import { copyTree, TreeTooDeep, type SyntaxNode as Node } from '../parse/syntax-node';
import { checkArithmetic, checkExpansion, noteAssignment } from '../words/variables';
import { evaluateRaw, isDynamic, rawText, walkExpression, type WordHooks } from '../words/words';

/**
 * The part of the syntax-tree walk shared by every statement: nested sources (`bash -c`, `eval`, heredocs fed
 * to shells), substitutions, redirections with the standard input they give a command, and the scopes that
 * decide what a `cd` or an assignment means for the commands after it. The statement dispatch is in walker.ts.
 *
 * Scopes model bash: a subshell (`( )`, `$( )`, a pipeline element, `&`, a child shell) cannot change the
 * working directory or variables of what follows it; what a conditional part (after `&&`/`||`, in `if`, loops,
 * functions) changes may or may not have happened. Contract "Assurance: Working directory": a `cd` is followed
 * only at top level or at the top of a `( )`/`$( )` subshell (its own directory, forgotten after it), in a `&&` or
 * `;` sequence; inside anything else the directory becomes unknown.
 */
const MAX_NESTING = 12;

export type ScopeKind = 'subshell' | 'conditional' | 'block';

export abstract class WalkBase implements WalkerApi {
  private depth = 0;
  protected source = '';
  /** False inside a construct where a `cd` is not followed. */
  protected follow = true;
  /** The compound bodies of `coproc` in the source being walked: they run in the background, in a subshell. */
  protected coprocBodies = new Set<Node>();

  constructor(readonly state: AnalysisState) {}

  unreadable(reason: string): void {
    if (!this.state.reasons.includes(reason)) this.state.reasons.push(reason);
  }

  /** Runs `fn` in a scope; see the class comment. `follow`: whether a `cd` inside is still followed. */
  protected scoped<T>(kind: ScopeKind, follow: boolean, fn: () => T): T {
    const cwd = this.state.cwd;
    const integers = new Set(this.state.integers);
    const outer = this.follow;
    this.follow = outer && follow;
    try {
      return fn();
    } finally {
      this.follow = outer;
      if (kind === 'subshell') {
        this.state.cwd = cwd;
        this.state.integers = integers;
      } else if (kind === 'conditional') {
        if (this.state.cwd !== cwd) this.state.cwd = null;
        this.state.integers = new Set([...this.state.integers].filter((v) => integers.has(v)));
      }
    }
  }

  nestedSource(text: string, stdin: Stdin, where: 'child' | 'here'): void {
    if (this.depth >= MAX_NESTING) {
      this.unreadable('shell code nested too deeply');
      return;
    }
    const run = (): void => this.parseAndWalk(text, stdin);
    if (where === 'child') this.scoped('subshell', false, run);
    else run();
  }

  private parseAndWalk(text: string, stdin: Stdin): void {
    const outer = this.source;
    const outerBodies = this.coprocBodies;
    this.depth++;
    let tree = parseShell(text);
    let source = text;
    try {
      // `<<E"O"F`: bash's reading, respelled so the grammar shares it (not a repair: the command stays readable)
      const respelled = respellHeredocDelimiters(text);
      if (respelled !== null) {
        const retry = parseShell(respelled.text);
        if (!retry.rootNode.hasError && respelledHeredocsHold(copyTree(retry, respelled.text), respelled.starts)) {
          tree.delete();
          tree = retry;
          source = respelled.text;
        } else retry.delete();
      }
      let root: Node | null = null;
      let bodies = new Set<Node>();
      if (tree.rootNode.hasError) {
        // a reserved word before a compound command may be all the grammar misread (`coproc NAME ( … )`)
        const read = readReservedWords({ tree, source, root: copyTree(tree, source) }, (r) => this.unreadable(r));
        ({ tree, source, root, coprocBodies: bodies } = read);
      }
      if (tree.rootNode.hasError) {
        root = null;
        bodies = new Set();
        // Syntax bash accepts but the grammar does not (`{sudo,reboot}`, `1<>file`): analysed in a respelling the
        // grammar reads, so the deny list and rules still see it; never readable.
        const repaired = repairedSource(text);
        const retry = repaired === null ? null : parseShell(repaired);
        if (retry !== null && repaired !== null && !retry.rootNode.hasError) {
          tree.delete();
          tree = retry;
          source = repaired;
          this.unreadable('syntax the parser could only read respelled');
        } else {
          retry?.delete();
          this.unreadable('syntax error');
        }
      }
      root ??= copyTree(tree, source);
      const split = lineJoinRepair(root, source);
      if (split !== null) {
        // A line the grammar joined to the command before it (`a | b | c` NEWLINE `rm x < f`): read as bash does.
        const retry = parseShell(split);
        if (retry.rootNode.hasError) retry.delete();
        else {
          tree.delete();
          tree = retry;
          source = split;
          root = copyTree(tree, source);
        }
        this.unreadable('a line the parser joined to the command before it');
      }
      const read = readReservedWords({ tree, source, root }, (r) => this.unreadable(r), bodies);
      tree = read.tree;
      this.source = read.source;
      this.coprocBodies = read.coprocBodies;
      this.statement(read.root, stdin);
    } catch (err) {
      if (!(err instanceof TreeTooDeep)) throw err;
      this.unreadable(err.message);
    } finally {
      tree.delete();
      this.source = outer;
      this.coprocBodies = outerBodies;
      this.depth--;
    }
  }

  /** Analyses a whole command line (the entry point). */
  analyse(command: string): void {
    this.depth = -1;
    this.nestedSource(command, NO_STDIN, 'here');
  }

  abstract statement(node: Node, stdin: Stdin): string | null;

  assigned(name: string, value: 'integer' | 'data'): void {
    noteAssignment(this, name, value);
  }

  protected hooks(nested: Node[]): WordHooks {
    return {
      code: (n) => nested.push(n),
      codeText: (t) => this.nestedSource(t, NO_STDIN, 'child'),
      unreadable: (r) => this.unreadable(r),
      expansion: (n) => this.expansion(n, (c) => nested.push(c)),
      arithmetic: (n) => this.arithmetic(n, (c) => nested.push(c)),
      pwdIsCwd: () => !this.state.pwdAssigned,
    };
  }

  /** Hooks that analyse substitutions at once. */
  protected readonly immediate: WordHooks = {
    code: (n) => this.substitution(n),
    codeText: (t) => this.nestedSource(t, NO_STDIN, 'child'),
    unreadable: (r) => this.unreadable(r),
    expansion: (n) => this.expansion(n, (c) => this.substitution(c)),
    arithmetic: (n) => this.arithmetic(n, (c) => this.substitution(c)),
    pwdIsCwd: () => !this.state.pwdAssigned,
  };

  private expansion(node: Node, code: (n: Node) => void): void {
    checkExpansion(this, node);
    walkExpression(node, { code, unreadable: (r) => this.unreadable(r) });
  }

  protected arithmetic(node: Node, code: (n: Node) => void): void {
    walkExpression(node, { code, unreadable: (r) => this.unreadable(r) });
    checkArithmetic(this, node.namedChildren, node.text);
  }

  /** A `$(..)`, backtick or process substitution: its statements run in a subshell, `cd`s followed inside it. */
  protected substitution(node: Node): void {
    this.scoped('subshell', true, () => {
      for (const child of node.namedChildren) {
        if (child.type === 'file_redirect') fileRedirect(child, this.source, this.state, this.immediate);
        else this.statement(child, NO_STDIN);
      }
    });
  }

  protected redirect(r: Node): void {
    if (r.type === 'file_redirect') fileRedirect(r, this.source, this.state, this.immediate);
    else if (r.type === 'herestring_redirect') walkExpression(r, this.immediate);
    else if (r.type !== 'heredoc_redirect') this.unreadable(`unsupported redirection: ${r.type}`);
  }

  protected redirected(node: Node, stdin: Stdin): string | null {
    const body = node.childForFieldName('body');
    return this.withRedirects(
      body,
      node.namedChildren.filter((c) => c !== body),
      stdin,
    );
  }

  /** `a && b || c` as its parts and operators, left to right. */
  protected flattenList(node: Node): { items: Node[]; ops: string[] } {
    const items: Node[] = [];
    const ops: string[] = [];
    const visit = (n: Node): void => {
      if (n.type !== 'list') {
        items.push(n);
        return;
      }
      for (const child of n.children) {
        if (child.isNamed) visit(child);
        else if (child.type === '&&' || child.type === '||') ops.push(child.type);
      }
    };
    visit(node);
    return { items, ops };
  }

  /**
   * The parts of a list: in a `&&` chain the first part always runs and each later one only after the previous
   * succeeded (a `cd` is followed; what changed is unknown after the chain); with `||` nothing is followed.
   * `last` walks the final part (it may carry the list's trailing redirections).
   */
  protected walkList(node: Node, stdin: Stdin, last: (n: Node, stdin: Stdin) => string | null): string | null {
    const { items, ops } = this.flattenList(node);
    const inner = sharedInput(stdin, items.length);
    const walk = (n: Node, i: number): string | null =>
      i === items.length - 1 ? last(n, inner) : this.statement(n, inner);
    if (ops.every((op) => op === '&&')) {
      const first = items[0];
      if (first === undefined) return null;
      const out = walk(first, 0);
      if (items.length === 1) return out;
      return this.scoped('conditional', true, () => {
        let result: string | null = null;
        items.slice(1).forEach((n, k) => (result = walk(n, k + 1)));
        return result;
      });
    }
    return this.scoped('conditional', false, () => {
      let result: string | null = null;
      items.forEach((n, k) => (result = walk(n, k)));
      return result;
    });
  }

  /** Each element of a pipeline runs in its own subshell, fed the previous one's output. */
  protected walkPipeline(
    elements: Node[],
    stdin: Stdin,
    last: (n: Node, stdin: Stdin) => string | null,
  ): string | null {
    const head = elements[0];
    const body = head?.type === 'redirected_statement' ? head.childForFieldName('body') : null;
    if (head !== undefined && body?.type === 'list' && elements.length > 1) {
      // The grammar reads `a && b > f | c` as `(a && b > f) | c`; bash pipes only b (with its redirection) into c.
      const redirects = head.namedChildren.filter((c) => c !== body);
      return this.walkList(body, stdin, (item, input) =>
        this.pipelineOf(
          [(i) => this.withRedirects(item, redirects, i), ...this.elementWalkers(elements.slice(1), last)],
          input,
        ),
      );
    }
    return this.pipelineOf(this.elementWalkers(elements, last), stdin);
  }

  private elementWalkers(
    elements: Node[],
    last: (n: Node, stdin: Stdin) => string | null,
  ): ((stdin: Stdin) => string | null)[] {
    return elements.map(
      (el, i) => (input: Stdin) => (i === elements.length - 1 ? last(el, input) : this.statement(el, input)),
    );
  }

  private pipelineOf(elements: ((stdin: Stdin) => string | null)[], stdin: Stdin): string | null {
    let input = stdin;
    let out: string | null = null;
    for (const walk of elements) {
      out = this.scoped('subshell', false, () => walk(input));
      input = out === null ? UNKNOWN_STDIN : { kind: 'literal', text: out, piped: true };
    }
    return out;
  }

  /**
   * The grammar hangs trailing redirections on a whole list or pipeline (`a && b <<EOF`), but bash binds them
   * to the last command: we do the same.
   */
  protected withRedirects(body: Node | null, redirects: Node[], stdin: Stdin): string | null {
    const last = (n: Node, input: Stdin): string | null => this.withRedirects(n, redirects, input);
    if (body !== null && body.type === 'list') return this.walkList(body, stdin, last);
    if (body !== null && body.type === 'pipeline') return this.walkPipeline(body.namedChildren, stdin, last);
    let bodyStdin = stdin;
    const nested: Node[] = [];
    for (const r of redirects) {
      if (r.type === 'heredoc_redirect')
        bodyStdin = bindHeredoc(bodyStdin, r, heredocLiteral(r, this.source, this.hooks(nested)));
      else if (r.type === 'herestring_redirect') bodyStdin = bindRedirect(bodyStdin, r, this.herestring(r));
      else bodyStdin = bindRedirect(bodyStdin, r);
    }
    let out = body === null ? null : this.statement(body, bodyStdin);
    for (const n of nested) this.substitution(n);
    for (const r of redirects) {
      if (r.type === 'heredoc_redirect') this.heredocRest(r, out);
      else if (r.type !== 'herestring_redirect') this.redirect(r);
      if (r.type === 'file_redirect' && writesStdout(r)) out = null;
    }
    return out;
  }

  protected herestring(r: Node): Stdin {
    const words = r.namedChildren;
    const raw = evaluateRaw(words, this.immediate);
    return isDynamic(raw) ? UNKNOWN_STDIN : { kind: 'literal', text: rawText(raw) + '\n', written: 'herestring' };
  }

  /** The parts of a heredoc redirect after its start: more redirects, the rest of a pipeline or a list. */
  private heredocRest(r: Node, out: string | null): void {
    const misread = misreadHeredocBody(r, this.source) !== null;
    r.children.forEach((child, i) => {
      const field = r.fieldNameForChild(i);
      if (field === 'redirect') this.redirect(child);
      else if (field === 'argument' && !misread) this.unreadable('arguments after a heredoc are not supported');
      else if (field === 'right') this.scoped('conditional', false, () => this.statement(child, NO_STDIN));
      else if (child.type === 'pipeline') {
        const first: Stdin = out === null ? UNKNOWN_STDIN : { kind: 'literal', text: out, piped: true };
        this.walkPipeline(child.namedChildren, first, (n, input) => this.statement(n, input));
      } else if (child.type === 'ERROR') this.unreadable('syntax error');
    });
  }

  abstract emitArgv(words: string[], dynamic: boolean[], text: string, stdin: Stdin): void;

  abstract arithmeticText(text: string, what: string): void;
}
