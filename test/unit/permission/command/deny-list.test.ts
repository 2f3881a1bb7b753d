import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hardDenyWriteReason } from '../../../../src/main/core/shell-analysis/deny-list/deny-list';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { denyReason, makeContext, removeContext } from './helpers';

const ctx = makeContext();

beforeAll(async () => {
  await initShellParser();
});

afterAll(() => removeContext(ctx));

async function expectDenied(commands: string[]): Promise<void> {
  for (const c of commands) expect(await denyReason(c, ctx), c).not.toBeNull();
}

async function expectAllowed(commands: string[]): Promise<void> {
  for (const c of commands) expect(await denyReason(c, ctx), c).toBeNull();
}

describe('privilege, power and disks', () => {
  it('denies privilege changes, however they are spelled or wrapped', async () => {
    await expectDenied([
      'sudo apt update',
      'su -',
      'doas ls',
      'pkexec id',
      '/usr/bin/sudo x',
      'env -i X=1 sudo ls',
      'timeout 5 sudo x',
      'nohup nice -n 3 sudo x',
      'command sudo x',
      'exec sudo x',
      'xargs sudo rm',
      'stdbuf -oL sudo x',
      'time -p sudo x',
    ]);
    await expectDenied([
      "bash -c 'ls; sudo reboot'",
      'X=$(sudo id) ls',
      'ls > $(sudo x)',
      'echo $(sudo id)',
      'ls && sudo reboot',
    ]);
  });

  it('denies power commands', async () => {
    await expectDenied([
      'shutdown -h now',
      'reboot',
      'halt',
      'poweroff',
      'init 0',
      'init 6',
      'telinit 6',
      'systemctl poweroff',
      'systemctl --force reboot',
      'systemctl halt',
      'systemctl isolate reboot.target',
    ]);
    await expectAllowed(['init --version', 'systemctl status nginx', 'echo reboot']);
  });

  it('denies disk formatting and raw device writes', async () => {
    await expectDenied([
      'mkfs /dev/sdb1',
      'mkfs.ext4 /dev/sdb1',
      'mke2fs /dev/sdb',
      'fdisk /dev/sda',
      'parted /dev/sda print',
      'wipefs -a /dev/sda',
    ]);
    await expectDenied(['dd if=/dev/zero of=/dev/sda bs=1M', 'dd of=/dev/nvme0n1 if=x', 'dd if=x of=/dev/disk2']);
    await expectAllowed(['dd if=/dev/zero of=/dev/null count=1', 'dd if=/dev/urandom of=./blob bs=1k count=1']);
  });

  it('denies output redirected to a disk device', async () => {
    await expectDenied([
      'echo x > /dev/sda',
      'cat img >> /dev/nvme0n1',
      'ls 2> /dev/disk0',
      'echo | tee /dev/mmcblk0',
      'x > /dev/hda',
      'x > /dev/vda1',
    ]);
    await expectDenied([
      'cp disk.img /dev/sdb',
      'mv x /dev/nvme1n1',
      'echo b > /proc/sysrq-trigger',
      'loginctl reboot',
    ]);
    await expectAllowed([
      'echo x > /dev/null',
      'echo x 2> /dev/stderr',
      'echo x > /dev/stdout',
      'echo x > /dev/tty',
      'cp /dev/sda.txt backup/',
    ]);
    expect(hardDenyWriteReason({ path: '/dev/../dev/sda', via: '>' })).not.toBeNull();
    expect(hardDenyWriteReason({ path: 'sda', via: '>' })).toBeNull();
  });
});

describe('recursive deletion and permission changes of catastrophic targets', () => {
  it('denies rm -r of /, /*, home, system folders, however the flags are written', async () => {
    const flags = ['-rf', '-fr', '-r', '-R', '-Rf', '-vfr', '--recursive', '--recursive --force', '-f -r', '--recur'];
    const targets = [
      '/',
      '/*',
      '~',
      '~/',
      '~/*',
      '$HOME',
      '"$HOME"',
      '${HOME}',
      ctx.home,
      `${ctx.home}/`,
      '/etc',
      '/etc/',
      '/usr/*',
      '/var',
      '/boot',
      '/lib64',
      '/opt/',
      '/sbin',
      '/root',
      '/home',
      '/System',
      '/Users',
      '//',
      '/./',
      '~root',
      '/e*',
    ];
    for (const f of flags) for (const t of targets) await expectDenied([`rm ${f} ${t}`]);
  });

  it('denies rm -r of the project root and its ancestors, relative or absolute', async () => {
    await expectDenied([
      'rm -rf .',
      'rm -rf ./',
      'rm -rf ..',
      'rm -rf ../..',
      'rm -rf ../*',
      `rm -rf ${ctx.projectRoot}`,
      `rm -rf ${path.dirname(ctx.projectRoot)}`,
      'rm -rf "$PWD"',
      'rm -rf ~+',
      'rm -rf *',
      'rm -rf sub/../..',
    ]);
  });

  it('denies a target that reaches a protected place through a symlink', async () => {
    fs.symlinkSync('/', path.join(ctx.projectRoot, 'to-root'));
    fs.symlinkSync(ctx.home, path.join(ctx.projectRoot, 'to-home'));
    await expectDenied(['rm -rf to-root/', 'rm -rf to-home', 'rm -rf to-root/etc']);
  });

  it('follows literal cd to judge relative targets where they really are', async () => {
    await expectDenied([
      'cd / && rm -rf etc',
      'cd .. && rm -rf y',
      'cd ~ && rm -rf .',
      'cd /usr; rm -rf ./*',
      'pushd / && rm -rf usr',
      'cd / && find usr -delete',
      'cd && rm -rf .',
    ]);
    await expectAllowed(['cd build && rm -rf tmp', 'cd src; rm -rf ../build', 'cd "$X" && rm -rf build']);
  });

  it('denies the unset-variable accident', async () => {
    await expectDenied([
      'rm -rf "$STEAMROOT/"*',
      'rm -rf $UNSET/',
      'rm -rf "${DIR}"/',
      'rm -rf ${HOME:-/tmp}',
      'rm -rf "${HOME%/}"',
    ]);
  });

  it('denies chmod/chown/chgrp -R of those targets', async () => {
    await expectDenied([
      'chmod -R 777 /',
      'chown -R me ~',
      'chgrp -R g /etc',
      'chmod --recursive u+w ..',
      'chmod -vR 700 $HOME',
    ]);
    await expectAllowed(['chmod 777 /', 'chmod -R 755 ./build', 'chown -R me src']);
  });

  it('denies find -delete or -exec rm over those targets', async () => {
    await expectDenied([
      'find / -delete',
      'find ~ -name x -delete',
      'find -L /etc -type f -exec rm {} +',
      'find .. -name "*.ts" -delete',
    ]);
    await expectAllowed(['find ./build -delete', 'find src -name "*.o" -exec rm {} \\;', 'find / -name passwd']);
  });

  it('find -delete of the whole project is denied, a filtered cleanup in it is not', async () => {
    await expectDenied(['find . -delete', 'find -delete', 'find "$PWD" -mindepth 1 -delete']);
    await expectAllowed([
      "find . -name '*.ts' -delete",
      'find -type f -empty -delete',
      'find ./ -mtime +7 -exec rm {} \\;',
    ]);
  });

  it('sees quoting, escaping, wrappers and nested shells around rm', async () => {
    await expectDenied([
      "r''m -rf /",
      '\\rm -rf /',
      '"/bin/rm" -rf ~',
      'xargs rm -rf /',
      'bash -c "rm -rf /"',
      'rm -rf /{etc,tmp}',
      'sh <<EOF\nrm -rf /\nEOF',
      "echo 'rm -rf ~' | bash",
      'find . -exec rm -rf / \\;',
      "trap 'rm -rf /' EXIT",
    ]);
  });

  it('allows recursive deletion of ordinary folders', async () => {
    await expectAllowed([
      'rm -rf ./build',
      'rm -rf build dist',
      'rm -rf node_modules/.cache',
      'rm -r ~/projects/old/cache',
      'rm -rf /tmp/some-scratch-dir',
      'rm -rf /usr/local/lib/foo',
      'rm -f /',
      'rm -rf ""',
      'rm -rf "$BUILD_DIR"',
    ]);
  });
});

describe('false positives: words that are data', () => {
  it('does not fire on arguments, messages and patterns', async () => {
    await expectAllowed([
      'echo "sudo is a word"',
      'git commit -m "remove rm -rf / from docs"',
      'grep sudo file',
      'grep -r "rm -rf /" .',
      'rm -rf ./build',
      'cat <<EOF\nsudo rm -rf /\nEOF',
      'echo reboot > notes.txt',
      'man sudo',
      'ls -la /etc',
      'printf "%s\\n" "shutdown -h now"',
      'echo :(){ :|:& }',
    ]);
  });
});

describe('fork bombs', () => {
  it('denies the classic and renamed variants', async () => {
    await expectDenied([':(){ :|:& };:', 'b(){ b|b& };b', "bash -c 'f(){ f|f & }; f'"]);
  });
});
