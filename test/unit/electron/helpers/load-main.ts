import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'vitest';
import type { createFakeElectron } from './fake-electron';

export const mainBundle = path.resolve(__dirname, '../../../../out/main/index.js');
type Loader = { _load: (...a: unknown[]) => unknown };

/**
 * Runs the built main bundle afresh (its module code runs again) against a fake Electron, with `argv` as
 * process.argv while it loads; `modules` stands in for other packages it requires (electron-updater). Returns a
 * function restoring the module loader.
 */
export function loadMainBundle(
  fake: ReturnType<typeof createFakeElectron>,
  argv: string[],
  modules: Record<string, unknown> = {},
): () => void {
  if (!fs.existsSync(mainBundle)) throw new Error(`${mainBundle} is missing: run \`npm run build\` first`);
  const loader = Module as unknown as Loader;
  const originalLoad = loader._load;
  loader._load = function (request: unknown, ...rest: unknown[]) {
    if (request === 'electron') return fake.electron;
    if (typeof request === 'string' && Object.hasOwn(modules, request)) return modules[request];
    return originalLoad.call(this, request, ...rest);
  };
  const listeners = process.listeners('unhandledRejection');
  const require = createRequire(__filename);
  delete require.cache[mainBundle];
  const originalArgv = process.argv;
  process.argv = argv;
  try {
    require(mainBundle);
  } finally {
    process.argv = originalArgv;
  }
  return () => {
    loader._load = originalLoad;
    // The bundle's own unhandled-rejection logger goes with it (a file that loads it often would pile them up).
    for (const l of process.listeners('unhandledRejection'))
      if (!listeners.includes(l)) process.off('unhandledRejection', l);
  };
}

/** Quits the app the fake way (will-quit) and waits until main has stopped the worker and called app.quit(). */
export async function quitApp(fake: ReturnType<typeof createFakeElectron>): Promise<void> {
  const quits = fake.app.quits;
  fake.app.emit('will-quit', { preventDefault: () => undefined });
  await expect.poll(() => fake.app.quits).toBeGreaterThan(quits);
}
