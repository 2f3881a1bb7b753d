import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { TrustStore } from '../../src/main/core/trust/trust-store';
import { GatehouseError } from '../../src/shared/errors';
import { removeAfterWrites } from '../support/remove-after-writes';

// Shared by the rules handler tests: real settings files in temp dirs.

const roots: string[] = [];

/** A fresh, realpath'd temp dir; removed by `removeTempDirs`. */
export function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  roots.push(dir);
  return dir;
}

/** Removes every dir `tempDir` made (call it after each test), once the settings' last-good writes are done. */
export async function removeTempDirs(): Promise<void> {
  for (const r of roots.splice(0)) await removeAfterWrites(r);
}

/** Writes `text` to `file`, making its folders. */
export function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** The GatehouseError `p` rejects with (fails the test if it resolves or rejects with anything else). */
export async function rejection(p: Promise<unknown>): Promise<GatehouseError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatehouseError);
  return err as GatehouseError;
}

export interface RulesDirs {
  /** The user's home, also GATEHOUSE_HOME (the config dir). */
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
  trust: TrustStore;
}

/** Temp dirs `gh-NAME-home-` and `gh-NAME-project-`, an env pointing there, and a trust store in the home. */
export function rulesDirs(name: string): RulesDirs {
  const home = tempDir(`gh-${name}-home-`);
  const project = tempDir(`gh-${name}-project-`);
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    GATEHOUSE_HOME: home,
    GATEHOUSE_POLICY: path.join(home, 'policy.yaml'),
    PATH: process.env.PATH,
  };
  return { home, project, env, trust: new TrustStore({ configDir: home, env }) };
}
