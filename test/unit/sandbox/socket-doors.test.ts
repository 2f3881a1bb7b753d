import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseProcNetUnix, boundSocketNames } from '../../../src/sandbox/proc-net-unix';
import { socketDoors, type SocketDoorSources } from '../../../src/sandbox/socket-doors';
import { worldBase } from './support';

// Real sockets in a real folder tree outside /tmp (the sandbox's /tmp is private: a host path there needs no mask).

let root: string;
const servers: net.Server[] = [];
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(worldBase(), 'gh-doors-')));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
  fs.rmSync(root, { recursive: true, force: true });
});

const at = (...p: string[]) => path.join(root, ...p);
function dir(p: string, mode = 0o755): string {
  fs.mkdirSync(p, { recursive: true, mode });
  fs.chmodSync(p, mode);
  return p;
}
async function socketAt(p: string): Promise<string> {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((r) => server.listen(p, r));
  return p;
}

function sources(extra: Partial<SocketDoorSources> = {}): SocketDoorSources {
  return {
    home: dir(at('home')),
    writableRoots: [dir(at('home', 'project'))],
    runtimeDirs: [],
    masked: [],
    allowUnixSockets: [],
    tmpDir: '/tmp', // the usual temp folder: private in the sandbox, so the helper's folder there needs no mask
    bound: { paths: [], abstract: [] },
    ...extra,
  };
}
// This machine's own /run/user, /run/dbus... are masked too: the assertions look at the test's tree only.
const mine = (d: { masks: { path: string; isDirectory: boolean }[] }, isDirectory: boolean) =>
  d.masks.filter((m) => m.isDirectory === isDirectory && m.path.startsWith(`${root}/`)).map((m) => m.path);
const folders = (d: { masks: { path: string; isDirectory: boolean }[] }) => mine(d, true);
const files = (d: { masks: { path: string; isDirectory: boolean }[] }) => mine(d, false);

describe('/proc/net/unix', () => {
  it('lists bound paths (spaces kept) and abstract names; unnamed sockets and the header are skipped', () => {
    const text = [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      '00000000dd233fe7: 00000003 00000000 00000000 0001 03  1077',
      '0000000017099b88: 00000002 00000000 00010000 0001 01 34084 /run/user/1000/bus',
      '0000000078f907e7: 00000002 00000000 00010000 0001 01 34086 /home/u/my project/dev server.sock',
      '000000003ed18b59: 00000002 00000000 00010000 0001 01 34085 @/tmp/.X11-unix/X0',
      '000000003ed18b5a: 00000002 00000000 00010000 0001 01 34087 relative.sock',
      '',
    ].join('\n');
    expect(parseProcNetUnix(text)).toEqual({
      paths: ['/run/user/1000/bus', '/home/u/my project/dev server.sock', 'relative.sock'],
      abstract: ['/tmp/.X11-unix/X0'],
    });
  });

  it('reads this machine’s list (a socket bound here is in it); a missing file lists nothing', async () => {
    const sock = await socketAt(at('live', 's.sock'));
    if (process.platform === 'linux') expect((await boundSocketNames()).paths).toContain(sock);
    expect(await boundSocketNames(at('no-such-file'))).toEqual({ paths: [], abstract: [] });
  });
});

describe('socketDoors', () => {
  it('masks the runtime folder whole, and every bound socket the sandbox would see, one by one', async () => {
    const runtime = dir(at('run', 'user-1000'), 0o700);
    await socketAt(path.join(runtime, 'bus'));
    const inProject = await socketAt(at('home', 'project', 'dev.sock'));
    const inHome = await socketAt(at('home', 'agent.sock'));
    const elsewhere = await socketAt(at('srv', 'db', '.s.PGSQL.5432'));
    fs.writeFileSync(at('srv', 'db', 'pg.conf'), 'keep me visible\n');
    const d = await socketDoors(
      sources({ runtimeDirs: [runtime], bound: { paths: [inProject, inHome, elsewhere], abstract: [] } }),
    );
    expect(folders(d)).toContain(runtime);
    expect(files(d)).toEqual(expect.arrayContaining([inProject, inHome, elsewhere]));
    // the project and the home are never masked whole (even a private home that holds a socket)
    expect(folders(d)).not.toContain(at('home'));
    expect(folders(d)).not.toContain(at('home', 'project'));
    // a folder that holds other files keeps them: only its socket is masked
    expect(folders(d)).not.toContain(at('srv', 'db'));
  });

  it('finds a socket renamed after it was bound (listed under its old name) and the sockets beside it', async () => {
    const folder = dir(at('svc'));
    fs.writeFileSync(path.join(folder, 'README'), 'not a socket\n');
    const renamed = await socketAt(path.join(folder, 'x.sock.123.tmp'));
    fs.renameSync(renamed, path.join(folder, 'x.sock'));
    const other = await socketAt(path.join(folder, 'other.sock')); // bound in another namespace: not listed
    const d = await socketDoors(sources({ bound: { paths: [renamed], abstract: [] } }));
    expect(files(d).sort()).toEqual([other, path.join(folder, 'x.sock')].sort());
  });

  it('masks whole a folder of sockets only, and a private (0700) folder holding one, with its secret', async () => {
    const onlySockets = dir(at('only'));
    const a = await socketAt(path.join(onlySockets, 'a'));
    await socketAt(path.join(onlySockets, 'b'));
    const helperLike = dir(at('xdg-elsewhere', 'gatehouse-1000'), 0o700);
    const sock = await socketAt(path.join(helperLike, 'build.sock'));
    fs.writeFileSync(path.join(helperLike, 'build.secret'), 'secret\n', { mode: 0o600 });
    const d = await socketDoors(sources({ bound: { paths: [a, sock], abstract: [] } }));
    expect(folders(d).sort()).toEqual([helperLike, onlySockets].sort());
    expect(files(d)).toEqual([]);
  });

  it('makes and masks the decision helper’s folder in a visible temp folder, so that a helper started later is hidden', async () => {
    const tmpDir = dir(at('tmp'));
    const uid = 4242;
    const d = await socketDoors(sources({ tmpDir, uid }));
    const helperFolder = path.join(tmpDir, 'gatehouse-4242');
    expect(fs.statSync(helperFolder).mode & 0o777).toBe(0o700);
    expect(folders(d)).toContain(helperFolder);
  });

  it('needs no mask under the private /tmp, under a masked folder, or for what is already masked', async () => {
    const secrets = dir(at('home', '.ssh'), 0o700);
    const agent = await socketAt(path.join(secrets, 'agent.sock'));
    const runtime = dir(at('run', 'user'));
    const nested = dir(path.join(runtime, '1000'), 0o700);
    const inTmp = '/tmp/.X11-unix/X0';
    const d = await socketDoors(
      sources({
        runtimeDirs: [runtime, nested],
        masked: [{ path: secrets, isDirectory: true }],
        bound: { paths: [agent, inTmp], abstract: [] },
      }),
    );
    expect(folders(d)).toEqual([runtime]);
    expect(files(d)).toEqual([]);
    // a runtime folder set to /tmp itself: the sandbox's /tmp is its own, never masked over
    const tmp = await socketDoors(sources({ runtimeDirs: ['/tmp'] }));
    expect(tmp.masks.map((m) => m.path)).not.toContain('/tmp');
  });

  it('resolves a relative bound name in the project and the home', async () => {
    const inProject = await socketAt(at('home', 'project', 'rel.sock'));
    const d = await socketDoors(sources({ bound: { paths: ['rel.sock'], abstract: [] } }));
    expect(files(d)).toEqual([inProject]);
  });

  it('leaves out a socket the person opened, and binds it back where a mask or the private /tmp hides it', async () => {
    const runtime = dir(at('run', 'u'), 0o700);
    const agent = await socketAt(path.join(runtime, 'ssh-agent.socket'));
    const bus = await socketAt(path.join(runtime, 'bus'));
    const loose = await socketAt(at('srv', 'docker.sock'));
    const link = path.join(dir(at('home')), 'agent-link');
    fs.symlinkSync(agent, link);
    const d = await socketDoors(
      sources({
        runtimeDirs: [runtime],
        allowUnixSockets: [link, loose, '/tmp/ssh-XXXX/agent.1', at('missing.sock')],
        bound: { paths: [agent, bus, loose], abstract: [] },
      }),
    );
    expect(folders(d)).toContain(runtime);
    expect(files(d)).not.toContain(loose);
    expect(d.opened.sort()).toEqual([agent, loose].sort()); // real paths; the missing ones are not there to open
    expect(d.open).toEqual([agent]); // inside the masked folder: bound back; the loose one is simply not masked
    // already masked as a file (a protected path): bound back over the mask
    const masked = await socketDoors(
      sources({ allowUnixSockets: [loose], masked: [{ path: loose, isDirectory: false }] }),
    );
    expect(masked.open).toEqual([loose]);
  });

  it('leaves the sandbox’s own folders alone (its proxy’s socket)', async () => {
    const own = dir(at('tmp', 'gatehouse-sandbox-net-1-abcdef'), 0o700);
    const proxy = await socketAt(path.join(own, 'proxy.sock'));
    const d = await socketDoors(sources({ ownFolders: [own], bound: { paths: [proxy], abstract: [] } }));
    expect(d.masks.filter((m) => m.path.startsWith(own))).toEqual([]);
  });
});
