/**
 * The keyboard's thread as the grid uses it, with the grid taken out: run in a pty (the user's
 * terminal), it starts the BUILT KeyboardThread on its stdin and a tile (a real pty running
 * `tile-program`, which reports each read), and takes orders from the test on a unix socket,
 * reporting there as well (JSON lines both ways):
 *
 *   node keyboard-harness.mjs <dist> <socket> <tile-program>
 *
 * Orders: {arm}: plain typing may go to the tile; {release}; {busyThenArm: ms}: the main thread
 * busy for ms (keys typed meanwhile wait in the worker's messages), then arm — with a `seen`
 * older than what the worker read; {killTile}: end the tile's program and wait until its pty is
 * closed; {open: path}: open a file for writing, report its descriptor; {stop}.
 * Reports: {ready}, {input, direct}, {tile: text}, {tileClosed, fd}, {opened, fd}, {failure}.
 */
import net from 'node:net';
import { openSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, socketPath, tileProgram] = process.argv.slice(2);
const require = createRequire(path.join(dist, '..', 'package.json'));
const pty = require('node-pty');
const { KeyboardThread } = await import(pathToFileURL(path.join(dist, 'ui', 'keyboard-thread.js')).href);

process.stdin.setRawMode(true);
let client = null;
const report = (message) => client?.write(JSON.stringify(message) + '\n');

const tile = pty.spawn(process.execPath, [tileProgram], { cols: 80, rows: 24 });
const tileFd = tile.fd;
tile.onData((text) => report({ tile: text }));
const tileClosed = new Promise((resolve) => tile.onExit(resolve));

const keyboard = new KeyboardThread({
  input: { kind: 'terminal', fd: 0 },
  onInput: (_source, data, direct) => report({ input: data, direct: direct ?? null }),
  onFailure: (reason) => report({ failure: reason }),
});

const arm = () => keyboard.directTo(0, { tileId: 1, fd: tileFd, escapeKey: 'ctrl-\\' });

const server = net.createServer((socket) => {
  client = socket;
  let buffered = '';
  socket.on('data', async (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const order = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (order.arm) arm();
      else if (order.release) keyboard.directTo(0, null);
      else if (order.busyThenArm) {
        const until = Date.now() + order.busyThenArm;
        while (Date.now() < until);
        arm();
        report({ armedAfterBusy: true });
      } else if (order.killTile) {
        tile.kill('SIGKILL');
        await tileClosed;
        // node-pty closes the master once the program is gone; wait until its number is free.
        await new Promise((resolve) => setTimeout(resolve, 300));
        report({ tileClosed: true, fd: tileFd });
      } else if (order.open) {
        const fd = openSync(order.open, 'w');
        report({ opened: true, fd });
      } else if (order.write) {
        writeSync(order.write.fd, order.write.text);
      } else if (order.stop) {
        keyboard.stop();
        process.stdin.setRawMode(false);
        server.close();
        socket.end(() => process.exit(0));
      }
    }
  });
  report({ ready: true, tileFd });
});
server.listen(socketPath);
