import type { Language, Tree } from 'web-tree-sitter';

/**
 * A plain-JavaScript copy of a tree-sitter syntax tree. Reading node properties through web-tree-sitter crosses
 * into WebAssembly on every access; copying the tree once with a cursor and walking plain objects keeps the
 * analysis cheap. The method names mirror web-tree-sitter's `Node`.
 */
export class SyntaxNode {
  readonly children: SyntaxNode[] = [];
  private named: SyntaxNode[] | null = null;

  constructor(
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    /** The field name this node has in its parent (`name`, `argument`, `redirect`...). */
    readonly field: string | null,
    readonly startIndex: number,
    readonly endIndex: number,
    private readonly source: string,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): SyntaxNode[] {
    if (this.named === null) this.named = this.children.filter((c) => c.isNamed);
    return this.named;
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  child(i: number): SyntaxNode | null {
    return this.children[i] ?? null;
  }

  childForFieldName(field: string): SyntaxNode | null {
    return this.children.find((c) => c.field === field) ?? null;
  }

  childrenForFieldName(field: string): SyntaxNode[] {
    return this.children.filter((c) => c.field === field);
  }

  fieldNameForChild(i: number): string | null {
    return this.children[i]?.field ?? null;
  }
}

/** Deeper than this, the command is not analysed (and is unreadable). */
const MAX_TREE_DEPTH = 400;

export class TreeTooDeep extends Error {}

interface LanguageTables {
  types: string[];
  named: boolean[];
  fields: (string | null)[];
}

const tables = new WeakMap<Language, LanguageTables>();

function tablesFor(language: Language): LanguageTables {
  let t = tables.get(language);
  if (t === undefined) {
    const types: string[] = [];
    const named: boolean[] = [];
    for (let id = 0; id < language.nodeTypeCount; id++) {
      types.push(language.nodeTypeForId(id) ?? 'ERROR');
      named.push(language.nodeTypeIsNamed(id));
    }
    t = { types, named, fields: language.fields };
    tables.set(language, t);
  }
  return t;
}

/**
 * Copies `tree` (parsed from `source`) into plain objects. Throws TreeTooDeep past MAX_TREE_DEPTH. Missing
 * nodes are not marked individually: the caller checks `tree.rootNode.hasError`, which covers them.
 */
export function copyTree(tree: Tree, source: string): SyntaxNode {
  const { types, named, fields } = tablesFor(tree.language);
  const cursor = tree.walk();
  try {
    const build = (field: string | null, depth: number): SyntaxNode => {
      if (depth > MAX_TREE_DEPTH) throw new TreeTooDeep('shell code nested too deeply');
      const id = cursor.nodeTypeId;
      // offsets are read for every node: a parent does not always span exactly its children (heredoc bodies)
      const node = new SyntaxNode(
        types[id] ?? 'ERROR',
        named[id] ?? true,
        false,
        field,
        cursor.startIndex,
        cursor.endIndex,
        source,
      );
      if (cursor.gotoFirstChild()) {
        do node.children.push(build(fields[cursor.currentFieldId] ?? null, depth + 1));
        while (cursor.gotoNextSibling());
        cursor.gotoParent();
      }
      return node;
    };
    return build(null, 0);
  } finally {
    cursor.delete();
  }
}
