import type { SyntaxNode as Node } from '../parse/syntax-node';

/**
 * A fork bomb is a function that calls itself in a pipeline or in the background (`:(){ :|:& };:` and every
 * renamed variant): each call starts two more. We look for a command named like the function inside its body,
 * under a pipeline or followed by `&`; nested function definitions are their own scope.
 */
function commandName(cmd: Node): string | null {
  const name = cmd.childForFieldName('name');
  if (name === null) return null;
  // quotes and escapes do not change which function is called
  return name.text.replace(/\\(.)/g, '$1').replace(/['"]/g, '');
}

function visit(node: Node, fname: string, spawned: boolean): boolean {
  if (node.type === 'function_definition') return false;
  if (node.type === 'command' && spawned && commandName(node) === fname) return true;
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as Node;
    const background = children[i + 1]?.type === '&';
    if (visit(child, fname, spawned || node.type === 'pipeline' || background)) return true;
  }
  return false;
}

export function findSelfCall(body: Node, fname: string): boolean {
  return fname.length > 0 && visit(body, fname, false);
}
