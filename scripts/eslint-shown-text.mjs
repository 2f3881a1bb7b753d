// ESLint rule `gatehouse/shown-text`: in the renderer's views, text that the code did not write itself (a call's
// command, a path, a rule, a hook, a reason, a message) reaches the screen only through the display module
// (src/renderer/src/display: <Shown>, shownText(), shownNodes()), which shows hidden characters as markers.
//
// What the rule allows as a JSX child: literals, JSX, `children`, the app's UPPER_CASE constants and lookups in them
// (`MODE_LABELS[mode]`), numbers that are obviously numbers (`x.length`,
// arithmetic, `.toLocaleString()`), conditionals and `&&` / `||` / `??` / `.map()` whose results are allowed, and a
// call of shownText() / shownNodes(). Anything else (a variable, a field, a template string, another call) is
// reported. A `title` attribute (a tooltip is text on screen) takes a literal or shownText(). `dangerouslySetInnerHTML`
// is never allowed.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const SHOWN_CALLS = new Set(['shownText', 'shownNodes']);
const NUMERIC_METHODS = new Set(['toLocaleString', 'toFixed', 'toPrecision']);
const NUMERIC_OPERATORS = new Set(['-', '*', '/', '%', '**']);
/** Attributes whose value a person reads on screen. */
const TEXT_ATTRIBUTES = new Set(['title', 'placeholder', 'alt', 'label', 'children']);

function calleeName(node) {
  if (node.callee.type === 'Identifier') return node.callee.name;
  if (node.callee.type === 'MemberExpression' && !node.callee.computed && node.callee.property.type === 'Identifier')
    return node.callee.property.name;
  return null;
}

/** UPPER_CASE names are the app's own constants (labels, messages), never data. */
function isConstantName(name) {
  return /^[A-Z][A-Z0-9_]*$/.test(name) && name.length > 1;
}

/** The expressions a function returns: its expression body, or every `return x` of its block body. */
function returnedExpressions(fn) {
  if (fn.body.type !== 'BlockStatement') return [fn.body];
  const found = [];
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (node.type === 'ReturnStatement') {
      if (node.argument) found.push(node.argument);
      return;
    }
    if (
      node.type === 'FunctionExpression' ||
      node.type === 'ArrowFunctionExpression' ||
      node.type === 'FunctionDeclaration'
    )
      return;
    for (const key of Object.keys(node)) {
      if (key === 'parent') continue;
      const value = node[key];
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value.type === 'string') visit(value);
    }
  };
  visit(fn.body);
  return found;
}

/** Whether rendering `node` as a JSX child can only show text the code wrote, or text the display module marked. */
function isAllowed(node) {
  switch (node.type) {
    case 'JSXEmptyExpression':
    case 'JSXElement':
    case 'JSXFragment':
      return true;
    case 'Literal':
      return true;
    case 'TemplateLiteral':
      return node.expressions.every(isNumeric);
    case 'Identifier':
      return node.name === 'children' || node.name === 'undefined' || isConstantName(node.name);
    case 'MemberExpression':
      // A lookup in an UPPER_CASE table the app wrote (`MODE_LABELS[mode]`), or a number.
      return (node.object.type === 'Identifier' && isConstantName(node.object.name)) || isNumeric(node);
    case 'ConditionalExpression':
      return isAllowed(node.consequent) && isAllowed(node.alternate);
    case 'LogicalExpression':
      return node.operator === '&&' ? isAllowed(node.right) : isAllowed(node.left) && isAllowed(node.right);
    case 'CallExpression': {
      const name = calleeName(node);
      if (name && SHOWN_CALLS.has(name)) return true;
      if (name === 'map' || name === 'flatMap') {
        const fn = node.arguments[0];
        return Boolean(
          fn &&
          (fn.type === 'ArrowFunctionExpression' || fn.type === 'FunctionExpression') &&
          returnedExpressions(fn).every(isAllowed),
        );
      }
      return isNumeric(node);
    }
    default:
      return isNumeric(node);
  }
}

/** Expressions that can only be numbers (or their formatting). */
function isNumeric(node) {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'number';
    case 'MemberExpression':
      return (
        !node.computed &&
        node.property.type === 'Identifier' &&
        (node.property.name === 'length' || node.property.name === 'size')
      );
    case 'BinaryExpression':
      return (
        NUMERIC_OPERATORS.has(node.operator) || (node.operator === '+' && isNumeric(node.left) && isNumeric(node.right))
      );
    case 'UnaryExpression':
      return node.operator === '-' || node.operator === '+';
    case 'CallExpression': {
      const name = calleeName(node);
      if (name && NUMERIC_METHODS.has(name)) return true;
      return (
        node.callee.type === 'MemberExpression' &&
        node.callee.object.type === 'Identifier' &&
        node.callee.object.name === 'Math'
      );
    }
    default:
      return false;
  }
}

const shownText = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Untrusted text reaches the screen only through the display module (<Shown>, shownText, shownNodes).',
    },
    messages: {
      child:
        'Render this through <Shown text={…}> (src/renderer/src/display): text the code did not write must show its hidden characters.',
      attribute:
        'The {{name}} attribute is text on screen: give it a literal or shownText(…) (src/renderer/src/display).',
      html: 'dangerouslySetInnerHTML is never used: the page requires Trusted Types, and untrusted text goes through <Shown>.',
    },
    schema: [],
  },
  create(context) {
    return {
      JSXExpressionContainer(node) {
        const parent = node.parent;
        if (parent.type === 'JSXElement' || parent.type === 'JSXFragment') {
          if (!isAllowed(node.expression)) context.report({ node, messageId: 'child' });
          return;
        }
        if (parent.type === 'JSXAttribute' && parent.name.type === 'JSXIdentifier') {
          const name = parent.name.name;
          if (name === 'dangerouslySetInnerHTML') context.report({ node: parent, messageId: 'html' });
          else if (TEXT_ATTRIBUTES.has(name) && !isAllowed(node.expression))
            context.report({ node, messageId: 'attribute', data: { name } });
        }
      },
    };
  },
};

// ESLint's cache (`npm run lint:eslint` keeps one in node_modules/.cache) knows a plugin by its meta name and version
// only: the version is this file's own hash, so a change to the rule lints every file again.
const version = createHash('sha256')
  .update(readFileSync(new URL(import.meta.url)))
  .digest('hex')
  .slice(0, 16);

export default { meta: { name: 'eslint-plugin-gatehouse', version }, rules: { 'shown-text': shownText } };
