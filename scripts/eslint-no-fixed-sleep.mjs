// ESLint rule `tests/no-fixed-sleep`: a test waits for the event that proves what it waits for (a promise of it, a
// later event that shows the thing did not happen), or polls the condition with expect.poll / vi.waitFor. A fixed
// sleep is too short on a loaded machine and too long on a quiet one, and before an absence check it proves nothing.
//
// What the rule calls a sleep: a timer that settles the promise it is in, `new Promise((r) => setTimeout(r, ms))`
// or `setTimeout(() => resolve(), ms)` (a timer that resolves with a value is a time limit giving its answer, and
// one that rejects or acts, a kill or an abort, is not a sleep); a timer that calls the function it is in again (a
// hand-written polling loop); and the promisified timers (`node:timers/promises`, `promisify(setTimeout)`).
// Where a delay is itself the behaviour under test (a slow server, a client that sends in pieces), an
// `eslint-disable-next-line tests/no-fixed-sleep -- why` comment says so.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const isFunction = (node) =>
  node?.type === 'ArrowFunctionExpression' ||
  node?.type === 'FunctionExpression' ||
  node?.type === 'FunctionDeclaration';

const isSetTimeout = (callee) =>
  (callee.type === 'Identifier' && callee.name === 'setTimeout') ||
  (callee.type === 'MemberExpression' &&
    !callee.computed &&
    callee.property.type === 'Identifier' &&
    callee.property.name === 'setTimeout' &&
    callee.object.type === 'Identifier' &&
    ['globalThis', 'window', 'global'].includes(callee.object.name));

/** The variable an identifier refers to, or null (a global, an unknown name). */
function resolve(sourceCode, id) {
  for (let scope = sourceCode.getScope(id); scope; scope = scope.upper) {
    const ref = scope.references.find((r) => r.identifier === id);
    if (ref) return ref.resolved;
  }
  return null;
}

/** The function a variable names: `function f`, `const f = () => …`, `const f = function …`. */
function functionOf(variable) {
  const def = variable?.defs[0];
  if (!def) return null;
  if (def.node.type === 'FunctionDeclaration') return def.node;
  if (def.node.type === 'VariableDeclarator' && isFunction(def.node.init)) return def.node.init;
  return null;
}

/** True when `variable` is the resolve parameter of a `new Promise(executor)`. */
function isResolver(variable) {
  const def = variable?.defs[0];
  if (!def || def.type !== 'Parameter') return false;
  const executor = def.node;
  const promise = executor.parent;
  return (
    promise?.type === 'NewExpression' &&
    promise.callee.type === 'Identifier' &&
    promise.callee.name === 'Promise' &&
    promise.arguments[0] === executor &&
    executor.params[0] === def.name
  );
}

/** The single call a callback makes: `() => f(…)` or `() => { f(…); }`. */
function onlyCall(fn) {
  if (fn.body.type === 'CallExpression') return fn.body;
  if (fn.body.type === 'BlockStatement' && fn.body.body.length === 1) {
    const [statement] = fn.body.body;
    if (statement.type === 'ExpressionStatement' && statement.expression.type === 'CallExpression')
      return statement.expression;
  }
  return null;
}

const within = (node, outer) => node.range[0] >= outer.range[0] && node.range[1] <= outer.range[1];

const noFixedSleep = {
  meta: {
    type: 'problem',
    docs: { description: 'No fixed sleeps and no hand-written polling loops in tests.' },
    messages: {
      sleep:
        'A fixed sleep: await the event that proves it, or poll the condition with expect.poll / vi.waitFor (CONTRIBUTING.md).',
      poll: 'A hand-written polling loop: use expect.poll / vi.waitFor, or await the event (CONTRIBUTING.md).',
      timers: 'A promisified timer is a fixed sleep: await the event, or poll with expect.poll / vi.waitFor.',
    },
    schema: [],
  },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      CallExpression(node) {
        if (
          node.callee.type === 'Identifier' ||
          (node.callee.type === 'MemberExpression' && node.callee.property.type === 'Identifier')
        ) {
          const name = node.callee.type === 'Identifier' ? node.callee.name : node.callee.property.name;
          if (
            name === 'promisify' &&
            node.arguments[0]?.type === 'Identifier' &&
            node.arguments[0].name === 'setTimeout'
          )
            context.report({ node, messageId: 'timers' });
        }
        if (!isSetTimeout(node.callee)) return;
        const callback = node.arguments[0];
        if (callback?.type === 'Identifier') {
          const variable = resolve(sourceCode, callback);
          if (isResolver(variable)) context.report({ node, messageId: 'sleep' });
          else {
            const fn = functionOf(variable);
            if (fn && within(node, fn)) context.report({ node, messageId: 'poll' });
          }
          return;
        }
        if (isFunction(callback)) {
          const call = onlyCall(callback);
          if (call?.callee.type === 'Identifier' && call.arguments.length === 0) {
            if (isResolver(resolve(sourceCode, call.callee))) context.report({ node, messageId: 'sleep' });
          }
        }
      },
      ImportDeclaration(node) {
        if (/^(node:)?timers\/promises$/.test(String(node.source.value))) context.report({ node, messageId: 'timers' });
      },
    };
  },
};

// ESLint's cache knows a plugin by its meta name and version only: the version is this file's own hash, so a change
// to the rule lints every file again.
const version = createHash('sha256')
  .update(readFileSync(new URL(import.meta.url)))
  .digest('hex')
  .slice(0, 16);

export default { meta: { name: 'eslint-plugin-gatehouse-tests', version }, rules: { 'no-fixed-sleep': noFixedSleep } };
