import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOME_SECRET_PATHS, SECRET_FILE_NAMES, SECRET_PATHS } from '../../../src/shared/secret-paths';
import { isSensitiveFile } from '../../../src/main/core/permission/sensitive-files';
import { matchesOnlySecrets } from '../../../src/main/core/permission/rules/narrow-pattern';
import { protectedReadPaths } from '../../../src/sandbox/protected-paths';

const HOME = '/home/ada';
const masked = (rel: string): boolean =>
  protectedReadPaths(HOME, '/home/ada/.config/gatehouse').some(
    (p) => path.join(HOME, rel) === p || path.join(HOME, rel).startsWith(`${p}/`),
  );

describe('one table of secret paths for the engine and the sandbox', () => {
  it('every plain secret name and every secret path in the home folder is both asked by the engine and hidden by the sandbox', () => {
    const plain = SECRET_FILE_NAMES.filter((n) => !/[*?[\]]/.test(n) && !n.startsWith('.env'));
    expect(plain.length).toBeGreaterThan(0);
    for (const name of plain) {
      expect(isSensitiveFile(path.join(HOME, name)), name).toBe(true);
      expect(masked(name), name).toBe(true);
    }
    for (const p of SECRET_PATHS) {
      const file = p.endsWith('/') ? `${p}id_ed25519` : p;
      expect(isSensitiveFile(path.join(HOME, file)), file).toBe(true);
      expect(isSensitiveFile(path.join('/srv/app', file)), `anywhere: ${file}`).toBe(true);
      expect(masked(file), file).toBe(true);
      expect(matchesOnlySecrets(`~/${file}`), `a rule for ${file} is narrow`).toBe(true);
    }
  });

  it('no masked path lies below another (a mask covers what is below it; a second one inside would not mount)', () => {
    for (const p of HOME_SECRET_PATHS)
      expect(
        HOME_SECRET_PATHS.filter((o) => o !== p && p.startsWith(`${o}/`)),
        p,
      ).toEqual([]);
    expect(new Set(HOME_SECRET_PATHS).size).toBe(HOME_SECRET_PATHS.length);
  });

  it('names the secret file patterns match are secrets; their look-alikes are not', () => {
    for (const name of ['.env', '.env.production', 'server.pem', 'id_rsa.pub', 'cert.p12', '.git-credentials'])
      expect(isSensitiveFile(`/srv/app/${name}`), name).toBe(true);
    for (const name of ['.envrc', 'env.ts', 'README.md', 'ssh.md', 'credentials.ts'])
      expect(isSensitiveFile(`/srv/app/${name}`), name).toBe(false);
  });
});
