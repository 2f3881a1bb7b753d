import { HOST_PATHS, type PathSystem } from '../../../../shared/node/platform-path';
import type { PathViews, PatternAnchor } from './path-pattern';

/** What the index needs of a rule: its rank (lower wins), its pattern (or none for a bare rule). */
export interface IndexablePathRule {
  rank: number;
  kind: string;
  path: { anchor: PatternAnchor; test: (relative: string) => boolean; spec: string } | null;
}

interface SegmentTrie<R> {
  rules: R[];
  children: Map<string, SegmentTrie<R>>;
}

const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
const newTrie = <R>(): SegmentTrie<R> => ({ rules: [], children: new Map() });

/** The literal leading segments of a rule's glob, as seen from its anchor (names folded where the volume folds case). */
export function literalSegments(specifier: string, sys: PathSystem = HOST_PATHS): string[] {
  let spec = sys.canonicalRulePattern(specifier.trim());
  if (spec.startsWith('//')) spec = spec.slice(2);
  else if (spec.startsWith('~/')) spec = spec.slice(2);
  else if (spec.startsWith('./')) spec = spec.slice(2);
  else if (spec.startsWith('/')) spec = spec.slice(1);
  const out: string[] = [];
  for (const seg of spec.split('/')) {
    if (!seg || seg === '.' || seg === '..' || GLOB_CHARS.test(seg)) break;
    out.push(sys.nameKey(seg));
  }
  return out;
}

/**
 * Path rules of one tool and behaviour, indexed so a lookup touches only rules that can match: anchored rules by
 * their literal leading folders (a trie walked with the path's segments), name rules (`.env`) by that name.
 * A lookup returns the matching rule with the lowest rank.
 */
export class PathRuleIndex<R extends IndexablePathRule> {
  private readonly bare: R[] = [];
  private readonly tries = new Map<PatternAnchor, SegmentTrie<R>>();
  private readonly byName = new Map<string, R[]>();
  private readonly scanAnywhere: R[] = [];
  private readonly key: (s: string) => string;

  constructor(private readonly sys: PathSystem = HOST_PATHS) {
    this.key = (s) => sys.nameKey(s);
  }

  add(rule: R): void {
    const key = this.key;
    if (rule.kind === 'any' || !rule.path) {
      if (rule.kind === 'any') this.bare.push(rule);
      return;
    }
    const anchor = rule.path.anchor;
    if (anchor === 'anywhere') {
      const name = rule.path.spec.replace(/\/+$/, '');
      if (name && !GLOB_CHARS.test(name)) this.byName.set(key(name), [...(this.byName.get(key(name)) ?? []), rule]);
      else this.scanAnywhere.push(rule);
      return;
    }
    let node: SegmentTrie<R> | undefined = this.tries.get(anchor);
    if (!node) {
      node = newTrie<R>();
      this.tries.set(anchor, node);
    }
    for (const seg of literalSegments(rule.path.spec, this.sys)) {
      let next: SegmentTrie<R> | undefined = node.children.get(seg);
      if (!next) {
        next = newTrie<R>();
        node.children.set(seg, next);
      }
      node = next;
    }
    node.rules.push(rule);
  }

  get size(): number {
    return this.bare.length + this.scanAnywhere.length + this.byName.size + this.tries.size;
  }

  /** The winning rule among those matching any of the views, skipping rules `skip` rejects. */
  best(views: readonly PathViews[], skip: (rule: R) => boolean): R | null {
    const key = this.key;
    let winner: R | null = null;
    const consider = (r: R, view: string): void => {
      if ((winner === null || r.rank < winner.rank) && !skip(r) && r.path!.test(view)) winner = r;
    };
    for (const r of this.bare) if (!skip(r) && (winner === null || r.rank < winner.rank)) winner = r;
    for (const views1 of views) {
      for (const [anchor, trie] of this.tries) {
        const view = views1[anchor];
        if (view === null) continue;
        const segments = view.split('/');
        let node: SegmentTrie<R> | undefined = trie;
        for (let i = 0; node; i++) {
          for (const r of node.rules) consider(r, view);
          if (i >= segments.length) break;
          node = node.children.get(key(segments[i]!));
        }
      }
      const anywhere = views1.anywhere;
      if (anywhere !== null) {
        for (const seg of anywhere.split('/')) for (const r of this.byName.get(key(seg)) ?? []) consider(r, anywhere);
        for (const r of this.scanAnywhere) consider(r, anywhere);
      }
    }
    return winner;
  }
}
