import { parseShell } from './parser';
import { fileRedirect, heredocLiteral, isStdinRedirect, misreadHeredocBody, writesStdout } from './redirects';
import { NO_STDIN, UNKNOWN_STDIN, type AnalysisState, type Stdin, type WalkerApi } from './state';
import { copyTree, TreeTooDeep, type SyntaxNode as Node } from './syntax-node';
import { evaluateRaw, isDynamic, rawText, walkExpression, type WordHooks } from './words';

/**
 * The part of the syntax-tree walk shared by every statement: nested sources (`bash -c`, `eval`, heredocs fed
 * to shells), substitutions, and redirections with the standard input they give a command. The statement
 * dispatch itself is in walker.ts.
 */
const MAX_NESTING = 12;

export abstract class WalkBase implements WalkerApi {
  private depth = 0;
  protected source = '';

  constructor(readonly state: AnalysisState) {}

  unreadable(reason: string): void {
    if (!this.state.reasons.includes(reason)) this.state.reasons.push(reason);
  }

  nestedSource(text: string, stdin: Stdin): void {
    if (this.depth >= MAX_NESTING) {
      this.unreadable('shell code nested too deeply');
      return;
    }
    const outer = this.source;
    this.depth++;
    this.source = text;
    const tree = parseShell(text);
    try {
      if (tree.rootNode.hasError) this.unreadable('syntax error');
      this.statement(copyTree(tree, text), stdin);
    } catch (err) {
      if (!(err instanceof TreeTooDeep)) throw err;
      this.unreadable(err.message);
    } finally {
      tree.delete();
      this.source = outer;
      this.depth--;
    }
  }

  /** Analyses a whole command line (the entry point). */
  analyse(command: string): void {
    this.depth = -1;
    this.nestedSource(command, NO_STDIN);
  }

  abstract statement(node: Node, stdin: Stdin): string | null;

  protected hooks(nested: Node[]): WordHooks {
    return { code: (n) => nested.push(n), unreadable: (r) => this.unreadable(r) };
  }

  /** Hooks that analyse substitutions at once. */
  protected readonly immediate: WordHooks = {
    code: (n) => this.substitution(n),
    unreadable: (r) => this.unreadable(r),
  };

  protected substitution(node: Node): void {
    for (const child of node.namedChildren) {
      if (child.type === 'file_redirect') fileRedirect(child, this.source, this.state, this.immediate);
      else this.statement(child, NO_STDIN);
    }
  }

  protected redirect(r: Node): void {
    if (r.type === 'file_redirect') fileRedirect(r, this.source, this.state, this.immediate);
    else if (r.type === 'herestring_redirect') walkExpression(r, this.immediate);
    else if (r.type !== 'heredoc_redirect') this.unreadable(`unsupported redirection: ${r.type}`);
  }

  protected redirected(node: Node, stdin: Stdin): string | null {
    const body = node.childForFieldName('body');
    return this.withRedirects(body, node.namedChildren.filter((c) => c !== body), stdin);
  }

  /**
   * The grammar hangs trailing redirections on a whole list or pipeline (`a && b <<EOF`), but bash binds them
   * to the last command: we do the same.
   */
  private withRedirects(body: Node | null, redirects: Node[], stdin: Stdin): string | null {
    if (body !== null && (body.type === 'list' || body.type === 'pipeline')) {
      const parts = body.namedChildren;
      const last = parts[parts.length - 1] ?? null;
      let input = stdin;
      for (const part of parts.slice(0, -1)) {
        if (body.type === 'pipeline') {
          const out = this.statement(part, input);
          input = out === null ? UNKNOWN_STDIN : { kind: 'literal', text: out };
        } else {
          this.statement(part, stdin.kind === 'none' ? stdin : UNKNOWN_STDIN);
        }
      }
      return this.withRedirects(last, redirects, input);
    }
    let bodyStdin = stdin;
    const nested: Node[] = [];
    for (const r of redirects) {
      if (r.type === 'heredoc_redirect') bodyStdin = heredocLiteral(r, this.source, this.hooks(nested));
      else if (r.type === 'herestring_redirect') bodyStdin = this.herestring(r);
      else if (r.type === 'file_redirect' && isStdinRedirect(r)) bodyStdin = { kind: 'file' };
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
    return isDynamic(raw) ? UNKNOWN_STDIN : { kind: 'literal', text: rawText(raw) + '\n' };
  }

  /** The parts of a heredoc redirect after its start: more redirects, the rest of a pipeline or a list. */
  private heredocRest(r: Node, out: string | null): void {
    const misread = misreadHeredocBody(r, this.source) !== null;
    r.children.forEach((child, i) => {
      const field = r.fieldNameForChild(i);
      if (field === 'redirect') this.redirect(child);
      else if (field === 'argument' && !misread) this.unreadable('arguments after a heredoc are not supported');
      else if (field === 'right') this.statement(child, NO_STDIN);
      else if (child.type === 'pipeline') {
        const first: Stdin = out === null ? UNKNOWN_STDIN : { kind: 'literal', text: out };
        let input = first;
        for (const el of child.namedChildren) {
          const o = this.statement(el, input);
          input = o === null ? UNKNOWN_STDIN : { kind: 'literal', text: o };
        }
      } else if (child.type === 'ERROR') this.unreadable('syntax error');
    });
  }

  abstract emitArgv(words: string[], dynamic: boolean[], text: string, stdin: Stdin): void;
}
