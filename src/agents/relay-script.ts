/**
 * The hook relay: a tiny POSIX sh script, written per tile, that forwards one payload to the hook
 * server. It exists because some events accept only command hooks (Claude's SessionStart and
 * Setup; every Gemini hook) and because Codex notify runs a program with the JSON as argv.
 *
 * Why sh and not node: spawning node costs ~290 ms per hook; this costs ~6–15 ms. It prefers
 * bash's /dev/tcp (measured ~6 ms per hook, sh re-exec included) and falls back to curl (~14 ms)
 * where bash is absent or built without /dev/tcp; with neither it gives up quietly.
 *
 * Never block or fail the agent: every path exits 0, nothing is printed (a SessionStart hook's
 * stdout becomes model context), and the POST gives up after 2 s. The token is never in argv
 * (visible to every local user through ps): curl reads it from a 0600 config file, bash writes it
 * straight to the socket.
 */
import { shellQuote } from './shell-quote.js';

export interface RelaySpec {
  port: number;
  /** `/hook/<tileKey>` */
  path: string;
  token: string;
  /** Absolute path of the curl config file holding the Authorization header (see relayCurlConfig). */
  curlConfigPath: string;
  /** A program to run after posting, with the payload appended (the user's own Codex notify). */
  chain?: readonly string[];
}

export const RELAY_TIMEOUT_SECONDS = 2;

/** The curl config that carries the secret header, so it never appears on a command line. */
export function relayCurlConfig(token: string): string {
  return `header = "Authorization: Bearer ${token}"\nheader = "Content-Type: application/json"\n`;
}

export function relayScript(spec: RelaySpec): string {
  const chain = spec.chain && spec.chain.length > 0 ? `exec ${spec.chain.map(shellQuote).join(' ')} "$body"` : 'exit 0';
  return `#!/bin/sh
# belltower hook relay: generated for one tile, deleted when the tile closes.
#   sh relay [--event NAME]        payload on stdin (command hooks)
#   sh relay [--event NAME] --arg  payload as the last argument (Codex notify)
# Always exits 0 and prints nothing; gives up after ${RELAY_TIMEOUT_SECONDS} s.
trap 'exit 0' EXIT
trap '' PIPE
# Re-run under bash for its /dev/tcp: cheaper than spawning curl.
if [ -z "\${BASH_VERSION-}" ] && command -v bash >/dev/null 2>&1; then
  exec bash "$0" "$@"
fi
port=${spec.port}
path=${shellQuote(spec.path)}
if [ "\${1-}" = --event ]; then path="$path?event=$2"; shift 2; fi
if [ "\${1-}" = --arg ]; then shift; body=\${1-}; else body=$(cat); fi
if [ -n "\${BASH_VERSION-}" ] && { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
  # Content-Length counts bytes: measure in the C locale, then put the user's locale back
  # (a chained notify program inherits it).
  lc_set=\${LC_ALL+x} lc_was=\${LC_ALL-}
  LC_ALL=C; length=\${#body}
  if [ -n "$lc_set" ]; then LC_ALL=$lc_was; else unset LC_ALL; fi
  printf 'POST %s HTTP/1.1\\r\\nHost: 127.0.0.1:%s\\r\\nAuthorization: Bearer %s\\r\\nContent-Type: application/json\\r\\nContent-Length: %s\\r\\nConnection: close\\r\\n\\r\\n%s' \\
    "$path" "$port" ${shellQuote(spec.token)} "$length" "$body" >&3 2>/dev/null
  IFS= read -r -t ${RELAY_TIMEOUT_SECONDS} _status <&3 2>/dev/null
  exec 3<&-
elif command -v curl >/dev/null 2>&1; then
  printf '%s' "$body" | curl -s -o /dev/null --max-time ${RELAY_TIMEOUT_SECONDS} --connect-timeout 1 \\
    -K ${shellQuote(spec.curlConfigPath)} --data-binary @- "http://127.0.0.1:$port$path" >/dev/null 2>&1
fi
${chain}
`;
}
