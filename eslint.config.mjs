import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import gatehouse from './scripts/eslint-shown-text.mjs';
import gatehouseTests from './scripts/eslint-no-fixed-sleep.mjs';

// Import boundaries of docs/architecture.md, enforced here rather than remembered:
// renderer -> never main/worker/Node; worker -> never main; core -> never electron; shared -> nothing of ours.
const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'crypto',
  'net',
  'http',
  'https',
  'url',
  'util',
  'stream',
  'events',
  'worker_threads',
];
const restrict = (patterns) => ['error', { patterns }];
// In the spirit of VS Code's `code-no-sync-fs`: no `*Sync` call (fs, child_process, ...) where the worker serves a
// run. A blocked event loop answers no heartbeat (the supervisor kills the worker) and no cancel. The same holds for
// src/shared/node (the sandbox library runs in the worker and, for project hooks, on main's thread). One exception:
// the module loader's compiled-code cache (src/shared/node/code-cache.ts, see below).
const noSyncCall =
  'No synchronous calls in the worker: use fs.promises (or the async API) so heartbeats and cancels are served.';
const noSyncCalls = [
  'error',
  { selector: 'MemberExpression[property.name=/Sync$/]', message: noSyncCall },
  { selector: 'ImportSpecifier[imported.name=/Sync$/]', message: noSyncCall },
];

// The same on the Electron main thread, which serves every window: a blocking file call (or lock wait) freezes them
// all. Everything under src/main runs there or in the browser shell's server, except the CLI's one-shot commands and
// the benches (processes of their own). Use fs.promises, writeFileAtomicAsync, withStateLock.
const noSyncMain =
  'No synchronous calls on the Electron main thread: use fs.promises (or the async API); see SYNC_ALLOWED in eslint.config.mjs.';
const noSyncMainCalls = [
  'error',
  { selector: 'MemberExpression[property.name=/Sync$/]', message: noSyncMain },
  { selector: 'ImportSpecifier[imported.name=/Sync$/]', message: noSyncMain },
  { selector: "MemberExpression[object.name='Atomics'][property.name='wait']", message: noSyncMain },
];
/** The modules of src/main allowed synchronous calls, each with its reason. Keep it short. */
const SYNC_ALLOWED = [
  // Start-up, before any window or request: the folder named on the command line; where the worker bundle is.
  'src/main/services/app/startup-project.ts',
  'src/main/services/worker-host/worker-entry.ts',
  // web-tree-sitter's Language.loadSync instantiates the grammar compiled asynchronously just before (no file access),
  // once per process.
  'src/main/core/shell-analysis/parse/parser.ts',
  // The benches' own fixture (temp folders for `npm run bench`), never loaded by the app.
  'bench/support/permission-fixture.ts',
];

// Layers inside src/main (docs/architecture.md) are folders: core/ (the engine and its state), services/ (what every
// shell shares) and shells/ (electron, web, cli, sdk). scripts/check-layers.mjs checks every import between them,
// dynamic ones and cycles between core's areas included; the rules below give the same answer in the editor.
const mainBoundaries = [
  {
    group: ['electron', 'electron/*'],
    message: 'Only src/main/shells/electron imports electron: the core runs on plain Node.',
  },
  {
    group: ['**/renderer/**', '**/worker/**', '**/preload/**'],
    message: 'main talks to the worker and renderer only through the contract.',
  },
  { group: ['**/bench/**'], message: 'The product never imports bench/: the benches import the product.' },
];
const noShell = {
  group: ['**/shells/**'],
  message: 'The core and the services import no shell (electron, web, cli, sdk): put shell code in its shell.',
};
const noService = {
  group: ['**/services/**'],
  message: 'The core imports no service (agent runs, app, worker host): the services build on the core.',
};
export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,cjs,js}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/shared/**'],
    ignores: ['src/shared/node/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/main/**', '**/worker/**', '**/renderer/**', '**/preload/**', 'electron'],
          message: 'src/shared imports nothing of ours.',
        },
        { group: nodeBuiltins, message: 'src/shared is pure TypeScript: no Node.' },
      ]),
    },
  },
  {
    // Shared helpers that need Node (path containment): for main and the worker, never the renderer or preload.
    files: ['src/shared/node/**', 'src/sandbox/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/main/**', '**/worker/**', '**/renderer/**', '**/preload/**', 'electron'],
          message: 'src/shared imports nothing of ours.',
        },
      ]),
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/main/**', '**/worker/**', '**/preload/**', '**/shared/node/**', 'electron'],
          message: 'The renderer talks only through the typed API.',
        },
        { group: nodeBuiltins, message: 'The renderer never imports Node modules.' },
      ]),
    },
  },
  {
    // The rules of hooks. React Compiler's rules (refs, set-state-in-effect, ...) are left out: the app is not
    // compiled by it, and they flag deliberate patterns (the incremental markdown split kept in a ref).
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: ['src/renderer/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    // Every view shows untrusted text through the display module (issue 13: what the person sees is what runs).
    files: ['src/renderer/src/**/*.tsx'],
    ignores: ['src/renderer/src/display/**'],
    plugins: { gatehouse },
    rules: { 'gatehouse/shown-text': 'error' },
  },
  {
    files: ['src/worker/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/main/**', '**/renderer/**', '**/preload/**', 'electron'],
          message: 'The worker knows main only through the contract (src/shared).',
        },
      ]),
    },
  },
  {
    files: ['src/worker/**', 'src/shared/node/**', 'src/sandbox/**'],
    // The compiled-code cache is the module loader's own: it reads a chunk's cached code where `require` reads the
    // chunk (synchronously, as require does) and writes at exit.
    ignores: ['src/shared/node/code-cache.ts'],
    rules: { 'no-restricted-syntax': noSyncCalls },
  },
  {
    files: ['src/main/**'],
    ignores: ['src/main/shells/electron/**'],
    rules: { 'no-restricted-imports': restrict(mainBoundaries) },
  },
  {
    files: ['src/main/services/**'],
    rules: { 'no-restricted-imports': restrict([...mainBoundaries, noShell]) },
  },
  {
    files: ['src/main/core/**'],
    rules: { 'no-restricted-imports': restrict([...mainBoundaries, noShell, noService]) },
  },
  {
    files: ['src/main/shells/electron/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/renderer/**', '**/worker/**', '**/preload/**'],
          message: 'main talks to the worker and renderer only through the contract.',
        },
      ]),
    },
  },
  {
    // No synchronous calls on the Electron main thread (noSyncMainCalls above; the log module included).
    files: ['src/main/**'],
    ignores: ['src/main/shells/cli/**', 'bench/**', ...SYNC_ALLOWED],
    rules: { 'no-restricted-syntax': noSyncMainCalls },
  },
  {
    // No fixed sleeps and no hand-written polling loops in tests (scripts/eslint-no-fixed-sleep.mjs, CONTRIBUTING.md).
    files: ['test/**'],
    plugins: { tests: gatehouseTests },
    rules: { 'tests/no-fixed-sleep': 'error' },
  },
  {
    files: ['src/preload/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/main/**', '**/worker/**', '**/renderer/**', '**/shared/node/**'],
          message: 'The preload is generated from the contract alone.',
        },
      ]),
    },
  },
);
