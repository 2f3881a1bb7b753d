/**
 * Environment variables that name a door out of the sandbox (see socket-doors.ts): a socket, or the folder or
 * credential that leads to one. Inside the sandbox the socket is masked anyway; the variable goes too, so that no
 * program tries a door it cannot use (and times out, or falls back to something worse), and so that nothing in the
 * sandbox learns where the doors are. The one exception is a socket the person opened on purpose
 * (`sandbox.allowUnixSockets`): a variable whose value names it is kept (SSH_AUTH_SOCK for `git push`).
 *
 * The table is closed: the names below, and any name of the forms in DOOR_NAME_FORMS.
 */

const DOOR_NAMES: ReadonlySet<string> = new Set([
  // ssh and gpg agents, keyrings
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID', // with SSH_AUTH_SOCK
  'GPG_AGENT_INFO',
  'GNOME_KEYRING_CONTROL',
  'GNOME_KEYRING_PID',
  // Kerberos: the credential cache is the person's tickets (a file, or the KCM daemon's socket); a keytab is a key
  'KRB5CCNAME',
  'KRB5_KTNAME',
  'KRB5_CLIENT_KTNAME',
  // D-Bus: the session bus reaches systemd --user, the keyring, the desktop's portals (DBUS_*_BUS_ADDRESS by form)
  'DBUS_STARTER_ADDRESS',
  'DBUS_STARTER_BUS_TYPE',
  // displays: an X or Wayland client can read other windows and type into them
  'DISPLAY',
  'XAUTHORITY', // with DISPLAY
  'WAYLAND_DISPLAY',
  'SESSION_MANAGER',
  'HYPRLAND_INSTANCE_SIGNATURE',
  // container engines: their socket is root on the host (rootless: the person)
  'DOCKER_HOST',
  'CONTAINER_HOST',
  'CONTAINERD_ADDRESS',
  'BUILDKIT_HOST',
  // the folder that holds all of the session's sockets
  'XDG_RUNTIME_DIR',
  // terminals, multiplexers and editors that accept commands over a socket (tmux send-keys types into the person's
  // shells), and the audio servers
  'TMUX',
  'TMUX_PANE', // with TMUX
  'STY',
  'ZELLIJ',
  'ZELLIJ_SESSION_NAME',
  'KITTY_LISTEN_ON',
  'NVIM',
  'NVIM_LISTEN_ADDRESS',
  'EMACS_SOCKET_NAME',
  'PULSE_SERVER',
  'PIPEWIRE_REMOTE',
]);

/**
 * Name forms: `*SOCK`/`*SOCKET`/`*_SOCKET_PATH` (SSH_AUTH_SOCK, SWAYSOCK, I3SOCK, NOTIFY_SOCKET, WAYLAND_SOCKET,
 * WEZTERM_UNIX_SOCKET...), `*_BUS_ADDRESS` (D-Bus's session, system and accessibility buses), `*_IPC_HOOK*` and
 * `*_IPC_HANDLE` (VS Code's, whose git helper hands out the person's git credentials).
 */
const DOOR_NAME_FORMS: readonly RegExp[] = [
  /SOCK(ET)?$/i,
  /_SOCKET_PATH$/i,
  /_BUS_ADDRESS$/i,
  /_IPC_HOOK/i,
  /_IPC_HANDLE$/i,
];

/** Kept only together with the variable they go with. */
const COMPANIONS: Readonly<Record<string, string>> = {
  SSH_AGENT_PID: 'SSH_AUTH_SOCK',
  XAUTHORITY: 'DISPLAY',
  GNOME_KEYRING_PID: 'GNOME_KEYRING_CONTROL',
  TMUX_PANE: 'TMUX',
  DBUS_STARTER_BUS_TYPE: 'DBUS_STARTER_ADDRESS',
};

export function isDoorVariable(name: string): boolean {
  return DOOR_NAMES.has(name.toUpperCase()) || DOOR_NAME_FORMS.some((f) => f.test(name));
}

/**
 * The socket paths a door variable's value names: the absolute paths in it (`unix:path=/run/user/1/bus,guid=…`,
 * `unix:///run/docker.sock`, `/tmp/tmux-1/default,123,0`), X's display number (`:0` is /tmp/.X11-unix/X0) and a
 * Wayland display's name in the runtime folder.
 */
export function socketsNamedBy(
  name: string,
  value: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const upper = name.toUpperCase();
  if (upper === 'DISPLAY') {
    const display = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(value.trim());
    return display ? [`/tmp/.X11-unix/X${display[1]}`] : [];
  }
  if (upper === 'WAYLAND_DISPLAY' && !value.startsWith('/')) {
    const runtime = env.XDG_RUNTIME_DIR;
    return runtime && runtime.startsWith('/') ? [`${runtime.replace(/\/+$/, '')}/${value}`] : [];
  }
  return [...value.matchAll(/\/[^\s,;:=]*/g)].map((m) => m[0].replace(/^\/+/, '/')).filter((p) => p.length > 1);
}

/**
 * `env` without its door variables, except those whose value names an opened socket (`opened`: the sockets as
 * configured and as they really are) and their companions.
 */
export function withoutDoorVariables(
  env: Readonly<Record<string, string>>,
  opened: readonly string[],
): Record<string, string> {
  const open = new Set(opened);
  const keep = (name: string): boolean => {
    const value = env[name];
    return value !== undefined && socketsNamedBy(name, value, env).some((p) => open.has(p));
  };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!isDoorVariable(name)) out[name] = value;
    else {
      const leader = COMPANIONS[name.toUpperCase()];
      if (leader !== undefined ? keep(leader) : keep(name)) out[name] = value;
    }
  }
  return out;
}
