import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Logger } from '../../../src/main/core/log/logger';
import { RotatingLogFile } from '../../../src/main/core/log/rotating-file';

const GITHUB_TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
const ANTHROPIC_KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function readLines(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

describe('the log file', () => {
  it('is created with its folder, private to the user, one stamped line per message, in order', async () => {
    const file = path.join(tempDir(), 'config', 'logs', 'main.log');
    const log = new Logger(new RotatingLogFile(file));
    log.info('worker started: pid 1');
    log.warn('the worker exited (exit code 70); restarting in 200 ms');
    log.error('could not start', new Error('no such entry'));
    for (let i = 0; i < 200; i++) log.info(`line ${i}`);
    await log.flush();
    const lines = readLines(file);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info {2}worker started: pid 1$/);
    expect(lines[1]).toMatch(/ warn {2}the worker exited \(exit code 70\); restarting in 200 ms$/);
    expect(lines[2]).toMatch(/ error could not start: Error: no such entry$/);
    // The stack follows, indented under its message rather than posing as new entries.
    expect(lines[3]).toMatch(/Z {7,}at /);
    const numbered = lines.filter((l) => / info {2}line \d+$/.test(l)).map((l) => Number(l.split(' ').pop()));
    expect(numbered).toEqual([...Array(200).keys()]);
    if (process.platform !== 'win32') {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    }
  });

  it('appends to what an earlier run wrote', async () => {
    const file = path.join(tempDir(), 'main.log');
    fs.writeFileSync(file, 'from before\n');
    const log = new Logger(new RotatingLogFile(file));
    log.info('now');
    await log.flush();
    expect(readLines(file)[0]).toBe('from before');
    expect(readLines(file)[1]).toMatch(/ info {2}now$/);
  });

  // Written as they come (a batch every 10 lines) or as one burst (every line queued before the first write).
  it.each([
    ['line by line', 10],
    ['in one burst', Infinity],
  ])(
    'rotates at its size cap, %s: main.log -> main.log.1 -> main.log.2, the oldest dropped, no line lost or split',
    async (_how, flushEvery) => {
      const dir = tempDir();
      const file = path.join(dir, 'main.log');
      const maxBytes = 2_000;
      const log = new Logger(new RotatingLogFile(file, { maxBytes, keep: 2 }));
      // Each line is ~70 bytes: 200 lines are ~14 kB, several times the cap.
      for (let i = 0; i < 200; i++) {
        log.info(`message number ${String(i).padStart(4, '0')}`);
        if (i % flushEvery === flushEvery - 1) await log.flush();
      }
      await log.flush();
      expect(fs.readdirSync(dir).sort()).toEqual(['main.log', 'main.log.1', 'main.log.2']);
      for (const name of ['main.log', 'main.log.1', 'main.log.2'])
        expect(fs.statSync(path.join(dir, name)).size).toBeLessThanOrEqual(maxBytes);
      // Oldest first, the files together hold the newest lines, contiguous and whole.
      const kept = ['main.log.2', 'main.log.1', 'main.log'].flatMap((n) => readLines(path.join(dir, n)));
      const numbers = kept.map((l) => {
        const m = / info {2}message number (\d{4})$/.exec(l);
        expect(m, l).not.toBeNull();
        return Number(m?.[1]);
      });
      const start = numbers[0] ?? -1;
      expect(numbers[numbers.length - 1]).toBe(199);
      expect(numbers).toEqual(numbers.map((_, i) => start + i));
      expect(start).toBeGreaterThan(0);
    },
  );

  it('redacts secrets with the audit log redaction, in messages, errors and a child process output', async () => {
    const file = path.join(tempDir(), 'worker.log');
    const log = new Logger(new RotatingLogFile(file));
    log.warn(`request failed: curl -H "Authorization: token ${GITHUB_TOKEN}" https://api.github.com`);
    log.error('provider', new Error(`401 for key ${ANTHROPIC_KEY}`));
    const out = log.outputSink('[worker]');
    // A secret cut across two chunks is still found: lines are redacted whole.
    out.write(`TypeError: bad header x-api-key: ${ANTHROPIC_KEY.slice(0, 12)}`);
    out.write(`${ANTHROPIC_KEY.slice(12)} sent\n    at request (provider.js:1:1)\n`);
    await log.flush();
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(GITHUB_TOKEN);
    expect(text).not.toContain(ANTHROPIC_KEY);
    expect(text).not.toContain('AbCdEfGhIjKlMnOpQrStUv');
    expect(text.match(/\[REDACTED\]/g)?.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain('https://api.github.com');
    expect(text).toMatch(/\[worker\] {5}at request \(provider\.js:1:1\)/);
  });

  it("a child's output: whole lines as they complete, the unfinished rest at its end, never glued to the next child's", async () => {
    const file = path.join(tempDir(), 'worker.log');
    const log = new Logger(new RotatingLogFile(file));
    const first = log.outputSink('[worker]');
    first.write('hel');
    first.write('lo\nlast words of a dying wor');
    first.end();
    const second = log.outputSink('[worker]');
    second.write('ker? no: a new one\n');
    second.end();
    await log.flush();
    expect(readLines(file).map((l) => l.replace(/^\S+ /, ''))).toEqual([
      '[worker] hello',
      '[worker] last words of a dying wor',
      '[worker] ker? no: a new one',
    ]);
  });

  it('cuts a runaway message instead of writing megabytes', async () => {
    const file = path.join(tempDir(), 'main.log');
    const log = new Logger(new RotatingLogFile(file));
    log.error(`dump ${'x'.repeat(5_000_000)}`);
    await log.flush();
    const size = fs.statSync(file).size;
    expect(size).toBeLessThan(70_000);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/… \(\d+ more characters\)\n$/);
  });

  it('a broken log folder never throws into the app, says so once, and the log resumes once it can be written', async () => {
    const config = tempDir();
    // The logs "folder" is a file: nothing can be created in it.
    fs.writeFileSync(path.join(config, 'logs'), 'not a folder');
    const file = path.join(config, 'logs', 'main.log');
    const told: string[] = [];
    const log = new Logger(new RotatingLogFile(file, { retryMs: 0, onError: (m) => told.push(m) }));
    for (let i = 0; i < 5; i++) {
      expect(() => log.error(`problem ${i}`, new Error('x'))).not.toThrow();
      await log.flush();
    }
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(file);
    expect(told[0]).toMatch(/cannot write the log file .*\((EEXIST|ENOTDIR)[^)]*\)/);
    // Repaired: the next line is written, after a note of how many were lost.
    fs.rmSync(path.join(config, 'logs'));
    log.info('back');
    await log.flush();
    const lines = readLines(file);
    expect(lines[0]).toMatch(/warn {2}\d+ log line\(s\) were dropped while .*main\.log could not be written$/);
    expect(Number(/warn {2}(\d+) log line/.exec(lines[0] ?? '')?.[1])).toBeGreaterThanOrEqual(5);
    expect(lines[1]).toMatch(/info {2}back$/);
    expect(told).toHaveLength(1);
  });

  it('by default the broken log is reported once on stderr, whatever is logged after', async () => {
    const config = tempDir();
    fs.writeFileSync(path.join(config, 'logs'), '');
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const log = new Logger(new RotatingLogFile(path.join(config, 'logs', 'main.log'), { retryMs: 0 }));
    for (let i = 0; i < 3; i++) {
      log.warn(`w ${i}`);
      await log.flush();
    }
    vi.restoreAllMocks();
    expect(written.filter((w) => w.includes('cannot write the log file'))).toHaveLength(1);
    expect(written[0]).toMatch(/^gatehouse: cannot write the log file .*main\.log/);
  });
});
