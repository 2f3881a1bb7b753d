import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyNetworkTrust,
  canReplaceDefaultCAs,
  installTrustedCAs,
  pemCertificates,
  readCaFile,
  type TlsCaApi,
} from '../../../src/shared/node/trusted-cas';

// Real certificates (Node's bundled roots), real files; the runtime's `tls` stands in where the test needs a Node that
// has (or lacks) tls.getCACertificates / tls.setDefaultCACertificates.

const [rootA, rootB, rootC] = tls.rootCertificates as [string, string, string];
let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-trusted-cas-')));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** A Node 22.19+/24.5+ `tls` as far as this module looks: the stores by type, and what was made the default. */
function modernTls(stores: { default: string[]; system: string[] | Error }): TlsCaApi & { installed: string[][] } {
  const installed: string[][] = [];
  return {
    installed,
    getCACertificates: (type = 'default') => {
      if (type === 'system') {
        if (stores.system instanceof Error) throw stores.system;
        return stores.system;
      }
      if (type === 'default') return stores.default;
      return [];
    },
    setDefaultCACertificates: (certs) => void installed.push(certs),
  };
}

describe('pemCertificates', () => {
  it('returns every certificate of a bundle, text around the blocks allowed', () => {
    const bundle = `# Corporate roots\n${rootA}\nsome comment\n${rootB}\n\n${rootC}\n`;
    expect(pemCertificates(bundle, '/x/bundle.pem')).toEqual([rootA.trim(), rootB.trim(), rootC.trim()]);
  });

  it('refuses a file without a certificate, naming it (a private key is not a CA)', () => {
    const key =
      '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';
    expect(() => pemCertificates(key, '/etc/corp/key.pem')).toThrow(
      'network.caFile /etc/corp/key.pem: not a PEM certificate file (no "-----BEGIN CERTIFICATE-----" line)',
    );
    expect(() => pemCertificates('', '/etc/corp/empty.pem')).toThrow(/empty\.pem: not a PEM certificate file/);
  });

  it('says how to convert a DER file', () => {
    const der = new X509Certificate(rootA).raw.toString('utf8');
    expect(() => pemCertificates(der, '/c/root.cer')).toThrow(
      /root\.cer: not a PEM certificate file .*openssl x509 -inform der/,
    );
  });

  it('refuses a block cut short and a block that does not parse, with its number', () => {
    const cut = `${rootA}\n${rootB.slice(0, 200)}`;
    expect(() => pemCertificates(cut, '/c/cut.pem')).toThrow(/cut\.pem: certificate 2 is cut short/);
    const broken = rootB.replace(/^(-----BEGIN CERTIFICATE-----\n)(.{8})/, '$1AAAAAAAA');
    expect(() => pemCertificates(`${rootA}\n${broken}`, '/c/broken.pem')).toThrow(
      /broken\.pem: certificate 2 of 2 does not parse/,
    );
  });
});

describe('readCaFile', () => {
  it('reads a regular file, also through a symbolic link', async () => {
    const file = write('roots.pem', `${rootA}\n${rootB}\n`);
    fs.symlinkSync(file, path.join(dir, 'link.pem'));
    expect(await readCaFile(path.join(dir, 'link.pem'))).toHaveLength(2);
  });

  it('names the file and the reason: missing, a folder, a FIFO (without waiting for a writer), too large', async () => {
    await expect(readCaFile(path.join(dir, 'nope.pem'))).rejects.toThrow(
      `network.caFile ${dir}/nope.pem: no such file`,
    );
    await expect(readCaFile(dir)).rejects.toThrow(`network.caFile ${dir}: a folder, not a file`);
    const fifo = path.join(dir, 'fifo.pem');
    execFileSync('mkfifo', [fifo]);
    await expect(readCaFile(fifo)).rejects.toThrow(`network.caFile ${fifo}: not a regular file`);
    const big = write('big.pem', '');
    fs.truncateSync(big, 4 * 1024 * 1024 + 1);
    await expect(readCaFile(big)).rejects.toThrow(/big\.pem: too large for a CA file/);
    await expect(readCaFile('/dev/zero')).rejects.toThrow('network.caFile /dev/zero: not a regular file');
  });

  // Root reads any file whatever its mode: the refusal shows only for another user.
  it.skipIf(process.getuid?.() === 0)('refuses a file it may not read', async () => {
    const file = write('private.pem', rootA);
    fs.chmodSync(file, 0o000);
    await expect(readCaFile(file)).rejects.toThrow(`network.caFile ${file}: permission denied`);
  });
});

describe('installTrustedCAs: feature detection', () => {
  it('on a Node that can, the default CAs become its defaults, the system store and the extra ones (once each)', () => {
    const api = modernTls({ default: [rootA], system: [rootB, rootA] });
    expect(canReplaceDefaultCAs(api)).toBe(true);
    const result = installTrustedCAs([rootC, rootB], api);
    expect(result).toEqual({ mode: 'default-store', systemCertificates: 2, extraCertificates: 2, systemProblem: null });
    expect(api.installed).toEqual([[rootA, rootB, rootC]]);
  });

  it('a system store that cannot be read leaves the defaults and the extra ones, and says why', () => {
    const api = modernTls({ default: [rootA], system: new Error('keychain locked') });
    const result = installTrustedCAs([rootC], api);
    expect(result).toMatchObject({ mode: 'default-store', systemProblem: expect.stringContaining('keychain locked') });
    expect(api.installed).toEqual([[rootA, rootC]]);
  });

  it('on an older Node (no setDefaultCACertificates, as Node 20 or 22.15) nothing is changed', () => {
    const listing: TlsCaApi = { getCACertificates: () => [rootA] };
    expect(canReplaceDefaultCAs(listing)).toBe(false);
    expect(installTrustedCAs([rootB], listing)).toEqual({ mode: 'unsupported' });
    expect(installTrustedCAs([rootB], {})).toEqual({ mode: 'unsupported' });
  });

  it("this runtime's own tls is detected as it is", () => {
    const own = tls as unknown as TlsCaApi;
    expect(canReplaceDefaultCAs()).toBe(
      typeof own.getCACertificates === 'function' && typeof own.setDefaultCACertificates === 'function',
    );
  });
});

describe('applyNetworkTrust', () => {
  it("installs the files' certificates, and names a broken file with the settings file that set it", async () => {
    const good = write('good.pem', rootC);
    const bad = write('bad.pem', 'not a certificate\n');
    const api = modernTls({ default: [rootA], system: [] });
    const state = await applyNetworkTrust(
      {
        caFiles: [
          { file: good, from: '/etc/gatehouse/policy.yaml' },
          { file: bad, from: '/home/me/.config/gatehouse/settings.yaml' },
        ],
        errors: [],
      },
      api,
    );
    expect(api.installed).toEqual([[rootA, rootC]]);
    expect(state.error).toBe(
      `network.caFile ${bad}: not a PEM certificate file (no "-----BEGIN CERTIFICATE-----" line) (set in /home/me/.config/gatehouse/settings.yaml)`,
    );
  });

  it("keeps the settings' own errors", async () => {
    const state = await applyNetworkTrust(
      { caFiles: [], errors: ['x.yaml: network.caFile: "ca.pem" is not an absolute path'] },
      {},
    );
    expect(state).toEqual({
      install: { mode: 'unsupported' },
      caFiles: 0,
      error: 'x.yaml: network.caFile: "ca.pem" is not an absolute path',
    });
  });
});
