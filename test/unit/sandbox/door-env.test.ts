import { describe, expect, it } from 'vitest';
import { isDoorVariable, socketsNamedBy, withoutDoorVariables } from '../../../src/sandbox/door-env';
import { sandboxEnv } from '../../../src/sandbox/sandbox-env';

/** A desktop session's environment, as a terminal in it has it. */
const session: Record<string, string> = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  LANG: 'C.UTF-8',
  TERM: 'xterm-256color',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.socket',
  SSH_AGENT_PID: '4242',
  GPG_AGENT_INFO: '/run/user/1000/gnupg/S.gpg-agent:0:1',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
  DBUS_SYSTEM_BUS_ADDRESS: 'unix:path=/run/dbus/system_bus_socket',
  AT_SPI_BUS_ADDRESS: 'unix:path=/run/user/1000/at-spi/bus_0,guid=abc',
  DISPLAY: ':0',
  XAUTHORITY: '/run/user/1000/.mutter-Xwaylandauth.X1',
  WAYLAND_DISPLAY: 'wayland-0',
  XDG_RUNTIME_DIR: '/run/user/1000',
  DOCKER_HOST: 'unix:///run/user/1000/docker.sock',
  CONTAINER_HOST: 'unix:///run/user/1000/podman/podman.sock',
  GNOME_KEYRING_CONTROL: '/run/user/1000/keyring',
  KRB5CCNAME: 'KCM:1000',
  TMUX: '/tmp/tmux-1000/default,1234,0',
  TMUX_PANE: '%1',
  KITTY_LISTEN_ON: 'unix:/tmp/kitty-1234',
  NVIM: '/run/user/1000/nvim.1234.0',
  SWAYSOCK: '/run/user/1000/sway-ipc.1000.123.sock',
  VSCODE_IPC_HOOK_CLI: '/run/user/1000/vscode-ipc-1.sock',
  VSCODE_GIT_IPC_HANDLE: '/run/user/1000/vscode-git-2.sock',
  NOTIFY_SOCKET: '/run/systemd/notify',
  SESSION_MANAGER: 'local/host:@/tmp/.ICE-unix/1234,unix/host:/tmp/.ICE-unix/1234',
  PULSE_SERVER: 'unix:/run/user/1000/pulse/native',
};
const basics = { PATH: '/usr/bin:/bin', HOME: '/home/u', LANG: 'C.UTF-8', TERM: 'xterm-256color' };

describe('the variables that name a door', () => {
  it('are all dropped: none of a session’s sockets, runtime folder or credential cache is named inside', () => {
    expect(withoutDoorVariables(session, [])).toEqual(basics);
  });

  it('are a closed table plus name forms; ordinary names are not doors', () => {
    for (const name of [
      'I3SOCK',
      'NIRI_SOCKET',
      'WEZTERM_UNIX_SOCKET',
      'ALACRITTY_SOCKET',
      'VSCODE_IPC_HOOK',
      'ssh_auth_sock',
    ])
      expect(isDoorVariable(name), name).toBe(true);
    for (const name of [
      'PATH',
      'HOME',
      'NO_PROXY',
      'SOCKS_SERVER_NAME_X',
      'GIT_SSH_COMMAND',
      'NODE_OPTIONS',
      'XDG_CONFIG_HOME',
    ])
      expect(isDoorVariable(name), name).toBe(false);
  });

  it('name the sockets in their values (paths, unix: URLs, X display numbers, Wayland names)', () => {
    expect(socketsNamedBy('DBUS_SESSION_BUS_ADDRESS', session.DBUS_SESSION_BUS_ADDRESS!, session)).toEqual([
      '/run/user/1000/bus',
    ]);
    expect(socketsNamedBy('DOCKER_HOST', 'unix:///var/run/docker.sock', session)).toEqual(['/var/run/docker.sock']);
    expect(socketsNamedBy('GPG_AGENT_INFO', session.GPG_AGENT_INFO!, session)).toEqual([
      '/run/user/1000/gnupg/S.gpg-agent',
    ]);
    expect(socketsNamedBy('DISPLAY', ':1.0', session)).toEqual(['/tmp/.X11-unix/X1']);
    expect(socketsNamedBy('DISPLAY', 'remote:10', session)).toEqual([]);
    expect(socketsNamedBy('WAYLAND_DISPLAY', 'wayland-1', session)).toEqual(['/run/user/1000/wayland-1']);
  });

  it('stay when they name a socket the person opened, with their companions, and only then', () => {
    const kept = withoutDoorVariables(session, ['/run/user/1000/ssh-agent.socket']);
    expect(kept).toEqual({ ...basics, SSH_AUTH_SOCK: session.SSH_AUTH_SOCK, SSH_AGENT_PID: '4242' });
    const x = withoutDoorVariables(session, ['/tmp/.X11-unix/X0']);
    expect(x).toEqual({ ...basics, DISPLAY: ':0', XAUTHORITY: session.XAUTHORITY });
    const docker = withoutDoorVariables(session, ['/run/user/1000/docker.sock']);
    expect(docker).toEqual({ ...basics, DOCKER_HOST: session.DOCKER_HOST });
    // a prefix of an opened path is not the opened socket
    expect(
      withoutDoorVariables({ SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.socket2' }, [session.SSH_AUTH_SOCK!]),
    ).toEqual({});
  });

  it('are gone from a sandboxed command’s environment; the person’s own value is set for an opened socket', () => {
    const env = sandboxEnv(session, [], null);
    for (const name of Object.keys(session)) if (isDoorVariable(name)) expect(env[name], name).toBeUndefined();
    expect(env.GATEHOUSE_DECISION_HELPER).toBe('0');
    // the worker's environment has no SSH_AUTH_SOCK: main sends the person's with the configuration
    const worker = sandboxEnv(basics, [], null, '/tmp', {
      opened: ['/run/user/1000/ssh-agent.socket'],
      env: { SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.socket', DOCKER_HOST: session.DOCKER_HOST!, PATH: '/evil' },
    });
    expect(worker.SSH_AUTH_SOCK).toBe('/run/user/1000/ssh-agent.socket');
    expect(worker.DOCKER_HOST).toBeUndefined(); // not opened
    expect(worker.PATH).toBe('/usr/bin:/bin'); // only door variables come that way
  });
});
