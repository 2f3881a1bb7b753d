import path from 'node:path';
import { userCacheDir } from '../../../shared/node/user-folders';
import { enableCodeCache } from '../../../shared/node/code-cache';
import { expandShorthand, findCommand } from './commands';
import { HELPER_COMMAND, HELPER_DEBUG_ENV, helperEnabled, servedByHelper } from './decision-helper-socket';

// The `gatehouse` binary (out/main/cli.js). Never imports electron: the CLI runs on plain Node. Kept small, as it
// runs before anything else: the per-call commands other agents run as hooks (`permissions check`, `hook claude`)
// are answered by the user's decision helper when one runs (decision-client.ts), so that such a call loads next to
// nothing; every other command, and a served one whenever the helper cannot answer, runs in-process (in-process.ts).

/**
 * A hash of the built CLI's code, written here by scripts/post-build.mjs: the helper's socket is named after it, so
 * a rebuilt or upgraded CLI never talks to a helper running older code. Unset (running from source): no helper.
 */
const BUILD_ID = '@@GATEHOUSE_CLI_BUILD_ID@@';
const buildIdKnown = /^[0-9a-f]{16}$/.test(BUILD_ID);

const argv = expandShorthand(process.argv.slice(2));
const command = findCommand(argv[0] ?? '');

function inProcess(stdin?: () => Promise<string>): void {
  void import('./in-process').then((m) => m.runInProcess(argv, command, __dirname, stdin));
}

const served = buildIdKnown && helperEnabled(process.env) ? servedByHelper(argv) : null;
if (argv[0] === HELPER_COMMAND && argv.length === 1 && buildIdKnown) {
  void import('./decision-helper').then((m) => m.runDecisionHelper({ buildId: BUILD_ID, cliFile: __filename }));
} else if (served) {
  // A served command is one-shot: zod's JIT would cost more than it saves (see in-process.ts). Set before zod loads.
  (globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };
  if (process.env.GATEHOUSE_CODE_CACHE !== '0')
    enableCodeCache({
      chunkDir: path.join(__dirname, 'cli-chunks'),
      cacheDir: userCacheDir(process.env),
      variant: `${argv[0]}-client`,
    });
  void import('./decision-client').then((client) =>
    client.runThroughHelper(
      { argv, env: process.env, buildId: BUILD_ID, cliFile: __filename, ...served },
      inProcess,
      process.env[HELPER_DEBUG_ENV] === '1',
    ),
  );
} else {
  inProcess();
}
