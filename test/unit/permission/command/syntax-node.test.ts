import type { Node } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { parseShell } from '../../../../src/main/core/shell-analysis/parse/parser';
import { copyTree, type SyntaxNode } from '../../../../src/main/core/shell-analysis/parse/syntax-node';

beforeAll(async () => {
  await initShellParser();
});

const COMMANDS = [
  'a && b',
  'cat <<EOF | bash\nx $(id)\nEOF\necho',
  'f() { :|:& }; :',
  'echo "a $(b) c" ${x:-$(y)} >f 2>&1',
  'if [[ -f x ]]; then y; fi # c',
  'x=(1 2) a[$(i)]=3 cmd',
  'echo $(',
  'ls |',
  "bash <<'E'\n\\rm\nE",
  'for ((i=0;i<3;i++)); do :; done',
  'case a in x) y;; esac',
  '  ls  ',
  '\n\nls\n',
  'echo é 😀 "ü $(id)" | grep ü',
];

function compare(original: Node, copy: SyntaxNode, source: string): number {
  expect([copy.type, copy.startIndex, copy.endIndex, copy.isNamed, copy.text], source).toEqual([
    original.type,
    original.startIndex,
    original.endIndex,
    original.isNamed,
    original.text,
  ]);
  expect(copy.children.length, source).toBe(original.childCount);
  let n = 1;
  original.children.forEach((child, i) => {
    expect(copy.children[i]?.field, source).toBe(original.fieldNameForChild(i));
    n += compare(child, copy.children[i] as SyntaxNode, source);
  });
  return n;
}

describe('copyTree', () => {
  it('mirrors the web-tree-sitter tree: types, offsets, text, fields (also with non-ASCII text)', () => {
    let nodes = 0;
    for (const c of COMMANDS) {
      const tree = parseShell(c);
      try {
        nodes += compare(tree.rootNode, copyTree(tree, c), c);
      } finally {
        tree.delete();
      }
    }
    expect(nodes).toBeGreaterThan(150);
  });
});
