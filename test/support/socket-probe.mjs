// The socket probe (issue 44, item 1): run inside a sandbox, it lists every unix socket it can find and tries to
// connect() to each. Candidates: every socket in a walk of the visible file system (/ to depth 4, across mounts,
// and whole under the roots named on the command line), every name in the sandbox's own /proc/net/unix (abstract
// ones included), and the paths and abstract names of PROBE_TARGETS (a JSON list: the doors the test planted, so a
// masked one is tried even though the walk cannot see it as a socket; `--targets FILE` reads them from a file).
// Prints one JSON line per candidate:
// {"target": "...", "reached": true|false, "why": "ECONNREFUSED"}, then {"done": true}.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const SKIP = new Set(['/proc', '/sys', '/dev']);
const found = new Set();

function walk(dir, depthLeft) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (SKIP.has(p)) continue;
    if (e.isSocket()) found.add(p);
    else if (e.isDirectory() && depthLeft > 0) walk(p, depthLeft - 1);
  }
}

const args = process.argv.slice(2);
let targets = JSON.parse(process.env.PROBE_TARGETS || '[]');
if (args[0] === '--targets') {
  targets = JSON.parse(fs.readFileSync(args[1], 'utf8'));
  args.splice(0, 2);
}
walk('/', 4);
for (const root of args) walk(root, 64);
for (const line of fs.readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
  const name = /^[0-9a-fA-F]+: (?:[0-9a-fA-F]+ ){5}\s*\d+ (.+)$/.exec(line)?.[1];
  if (name !== undefined) found.add(name.startsWith('@') ? `\0${name.slice(1)}` : name);
}
for (const t of targets) found.add(t);

function tryConnect(target) {
  return new Promise((resolve) => {
    const socket = net.connect({ path: target });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ reached: false, why: 'timeout' });
    }, 3000);
    socket.on('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ reached: true });
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      resolve({ reached: false, why: err.code || err.message });
    });
  });
}

for (const target of found) {
  const r = await tryConnect(target);
  process.stdout.write(`${JSON.stringify({ target: target.replace(/^\0/, '@'), ...r })}\n`);
}
process.stdout.write(`${JSON.stringify({ done: true })}\n`);
