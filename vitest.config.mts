import { defineConfig } from 'vitest/config';
import pkg from './package.json' with { type: 'json' };
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.mjs';
import { tomlData } from './scripts/vite-toml-data.mjs';

export default defineConfig({
  plugins: [tomlData()],
  define: { __GATEHOUSE_VERSION__: JSON.stringify(pkg.version) },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A poll waits for what a loaded machine can make slow (a resumed session of 5,000 messages, a worker's restart):
    // it ends as soon as its condition holds, so a long limit costs nothing when things are quick. Vitest's default
    // (1 s) made such waits fail when the machine was busy.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
    // Per project: one CLI code cache for the run, and one Chromium for the integration project (see the file).
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        // Unit tests keep a worker's loaded modules from file to file instead of importing them again for each file
        // (most of a unit file's CPU was the import). Each file cleans up after itself; none mocks a module.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'], isolate: false },
      },
      {
        extends: true,
        // Processes, servers, Chromium. Like the unit tests, a worker keeps the modules it loaded from file to file
        // (less CPU for the same files). Each file stops what it started and puts back any environment variable it
        // set; none mocks a module or changes the working folder.
        test: {
          name: 'integration',
          isolate: false,
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/electron/**/*.test.ts'],
        },
      },
    ],
  },
});
