/** A remote tile in words, for `why` (the grid's overlay and the command line alike). Pure. */
import type { TileInfo } from '../control/protocol.js';

export function remoteWhy(remote: NonNullable<TileInfo['remote']>): string {
  const from =
    remote.hooks === 'on'
      ? 'hooks over the ssh connection, OSC 7501 and the title'
      : remote.hooks === 'connecting'
        ? 'OSC 7501 and the title; hooks once ssh has logged in'
        : 'OSC 7501 and the title (in-band; --remote-hooks adds hooks)';
  return `remote · ${remote.host}: status from ${from}; the transcript stays on ${remote.host} and is not read${remote.lost ? '; the connection was lost (r reconnects)' : ''}`;
}
