/**
 * The POSIX sh that runs on the remote host for a tile with remote hooks. Three small scripts,
 * each given to `sh -c` as one argument (no secret in them: the token travels on a pipe, see
 * remote-hooks.ts):
 *
 * - BOOT runs in the tile's own ssh session. It waits (bounded) until the tile's folder is ready,
 *   runs the agent with the arguments written there, and removes the folder when the agent ends
 *   or the connection drops (SIGHUP): at once, and the agent with it (see BOOT).
 * - PREPARE runs over the same connection: it removes folders whose tile is gone, then makes this
 *   tile's folder and prints its path.
 * - WRITE runs over the same connection with the files on stdin, one `name base64` line at a time,
 *   and marks the folder ready.
 *
 * Where: `$XDG_RUNTIME_DIR/belltower-remote` when that is set, else `~/.cache/belltower-remote`.
 * Every folder on the way that belltower makes is 0700; each must be the user's own, not a link,
 * and writable by nobody else, or nothing is written. No backslashes in here: the scripts go
 * through the remote login shell's single quotes, and fish reads `\\` inside them.
 */

import { remoteWord } from './ssh-command.js';

/** Finds (making what is missing) the folder for this user's tiles; prints it, or fails. */
const BASE = `bt_mine() {
  [ -d "$1" ] && [ ! -L "$1" ] && [ -O "$1" ] || return 1
  case $(ls -ld "$1") in d????-??-*) return 0 ;; esac
  return 1
}
bt_base() {
  if [ -n "\${XDG_RUNTIME_DIR-}" ] && bt_mine "$XDG_RUNTIME_DIR"; then
    b=$XDG_RUNTIME_DIR/belltower-remote
  else
    [ -n "\${HOME-}" ] && bt_mine "$HOME" || return 1
    [ -e "$HOME/.cache" ] || mkdir -m 700 "$HOME/.cache" 2>/dev/null
    bt_mine "$HOME/.cache" || return 1
    b=$HOME/.cache/belltower-remote
  fi
  [ -e "$b" ] || mkdir -m 700 "$b" 2>/dev/null
  bt_mine "$b" || return 1
  printf '%s' "$b"
}`;

/** How long BOOT waits for its folder (tenths of a second): the setup takes a round trip or three. */
export const BOOT_WAIT_TENTHS = 150;

/**
 * BOOT giving up and WRITE finishing race for the folder: whoever makes `claim` first has it. A
 * BOOT that gave up removes the folder (so a late WRITE fails, and the hooks say off); a WRITE
 * that claimed it marks it ready a moment later.
 */

/**
 * `sh -c BOOT belltower-remote ID HEAD TAIL`: HEAD is the program (with any env prefix), TAIL its
 * arguments; the arguments in the folder's `args` file go between them.
 *
 * A hang-up must end the agent and remove the folder at once. BOOT traps nothing but EXIT: sh runs
 * a trap only once its foreground child returns, so a HUP trap kept BOOT — the session leader —
 * alive as long as the agent, and the kernel, which hangs up the terminal's foreground group when
 * the session leader exits, never did: the remote Claude and its bearer token stayed 13–17 s
 * after the connection went (issue 28). Dying of the HUP at once is what passes it on to the agent.
 * The folder goes with a watcher that ignores HUP and reads a FIFO whose only writer is BOOT: its
 * read ends the moment BOOT is gone, however it went. Every descriptor is opened before the
 * watcher starts (the read-write open of a FIFO never waits), so no open can block on a BOOT that
 * died meanwhile. The agent gets neither end: its children keep nothing of the watcher's open.
 */
export const BOOT = `umask 077
${BASE}
bt_wait() {
  n=0
  while [ -n "$d" ] && [ ! -e "$d/ready" ] && [ "$n" -lt "$1" ]; do
    sleep 0.1 2>/dev/null || sleep 1
    n=$((n + 1))
  done
}
id=$1 head=$2 tail=$3 d=
if b=$(bt_base); then d=$b/$id; fi
bt_wait ${BOOT_WAIT_TENTHS}
if [ -n "$d" ] && [ ! -e "$d/ready" ]; then
  if mkdir "$d/claim" 2>/dev/null; then
    rm -rf "$d"
    d=
  elif [ ! -d "$d/claim" ]; then
    d=
  fi
fi
bt_wait 50
inserted=
if [ -n "$d" ] && [ -f "$d/ready" ] && bt_mine "$d"; then
  [ -f "$d/args" ] && inserted=$(cat "$d/args")
  trap 'rm -rf "$d"' EXIT
  echo "$$ $(uname -n)" > "$d/pid"
  if mkfifo -m 600 "$d/alive" 2>/dev/null && exec 8<>"$d/alive" 9>"$d/alive" 7<"$d/alive"; then
    exec 8>&-
    (exec 9>&-; trap '' HUP; read -r _ <&7; rm -rf "$d") </dev/null >/dev/null 2>&1 &
    exec 7<&-
  fi
fi
eval "$head $inserted $tail" 9>&-`;

/** `sh -c PREPARE belltower-remote ID`: prints `BELLTOWER-DIR <path>`, or `BELLTOWER-ERROR <why>`. */
export const PREPARE = `umask 077
${BASE}
if ! b=$(bt_base); then
  echo "BELLTOWER-ERROR no private folder for belltower under XDG_RUNTIME_DIR or ~/.cache (each must be yours, not a link, writable by nobody else)"
  exit 1
fi
for old in "$b"/*; do
  [ -d "$old" ] && [ ! -L "$old" ] || continue
  if [ -f "$old/pid" ]; then
    read -r pid host < "$old/pid" || :
    # A home shared between machines: another host's tile is that host's to sweep.
    [ "$host" = "$(uname -n)" ] || continue
    kill -0 "$pid" 2>/dev/null && continue
  else
    [ -n "$(find "$old" -maxdepth 0 -mmin +10 2>/dev/null)" ] || continue
  fi
  rm -rf "$old"
done
if ! mkdir -m 700 "$b/$1"; then
  echo "BELLTOWER-ERROR cannot make $b/$1"
  exit 1
fi
echo "BELLTOWER-DIR $b/$1"`;

/** `sh -c WRITE belltower-remote DIR`, files on stdin as `name base64` lines, then `END`. */
export const WRITE = `umask 077
d=$1 last=
[ -d "$d" ] && [ ! -L "$d" ] && [ -O "$d" ] || exit 1
while IFS=' ' read -r name data; do
  case $name in
    END) mkdir "$d/claim" 2>/dev/null || exit 1; : > "$d/ready"; echo BELLTOWER-READY; exit 0 ;;
    *[!a-z.]* | '' | .*) exit 1 ;;
  esac
  # Each file is new (noclobber): never one that was there before, nor through a link.
  if [ "$name" = "$last" ]; then
    printf '%s' "$data" | base64 -d >> "$d/$name" || exit 1
  else
    (set -C; printf '%s' "$data" | base64 -d > "$d/$name") || exit 1
    last=$name
  fi
done
exit 1`;

/** `sh -c 'SCRIPT' belltower-remote ARGS…` as one line for the remote login shell. */
export function remoteSh(script: string, args: readonly string[]): string {
  return ['sh', '-c', remoteWord(script), 'belltower-remote', ...args.map(remoteWord)].join(' ');
}

/** The files for WRITE's stdin, base64 in lines short enough for any `read`. */
export function writePayload(files: Readonly<Record<string, string>>): string {
  const lines: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    if (!/^[a-z][a-z.]*$/.test(name)) throw new Error(`remote file name ${JSON.stringify(name)}: a-z and dots only`);
    const bytes = Buffer.from(content, 'utf8');
    // 768 bytes → 1024 base64 characters: every line decodes on its own.
    for (let at = 0; at < bytes.length; at += 768) lines.push(`${name} ${bytes.subarray(at, at + 768).toString('base64')}`);
  }
  return `${lines.join('\n')}${lines.length > 0 ? '\n' : ''}END\n`;
}
