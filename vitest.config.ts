import { defineConfig } from 'vitest/config';
import pkg from './package.json';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer';
import { tomlData } from './scripts/vite-toml-data';

export default defineConfig({
  plugins: [tomlData()],
  define: { __GATEHOUSE_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
  },
});
