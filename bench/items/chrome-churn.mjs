/**
 * 5 (the chrome's share). Memory held by the chrome as it runs: nine working tiles whose ages tick
 * once a second repaint their headers every second, so every frame is new text. Renders `frames`
 * such frames through the chrome renderer and reports heap growth after full garbage collections
 * and the time per frame — with belltower's row-cached frame builder and, in the same run, with
 * Ink's own. Runs as its own process: React's production build and chalk's colours are chosen when
 * they load.
 *
 *   node bench/items/chrome-churn.mjs [frames]   (prints JSON)
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { atExit } from '../lib/cleanup.mjs';
import { userTerminalEnv } from '../lib/env.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', '..', 'dist', 'ui');

const run = promisify(execFile);

export async function chromeChurn({ frames = 1200 } = {}) {
  const measureIn = async (which) => {
    const child = run(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), String(frames), which], {
      encoding: 'utf8',
      env: userTerminalEnv({ ...process.env, NODE_ENV: 'production', FORCE_COLOR: '3' }),
      timeout: 600_000,
      killSignal: 'SIGKILL',
    });
    const undo = atExit(() => child.child.kill('SIGKILL'));
    const { stdout } = await child
      .catch((error) => {
        throw new Error(`bench: chrome churn (${which}) failed: ${error.killed ? 'timed out' : `exit ${error.code}`}${error.stderr ? `: ${error.stderr.trim().slice(-600)}` : ''}`);
      })
      .finally(undo);
    return JSON.parse(stdout);
  };
  return { frames, rowCache: await measureIn('row-cache'), ink: await measureIn('ink') };
}

async function measure(frames, which) {
  const { createElement } = await import('react');
  const load = (name) => import(pathToFileURL(path.join(dist, name)).href);
  const { ChromeRenderer } = await load('chrome-renderer.js');
  const { GridView } = await load('components/grid-view.js');
  const { layout } = await load('layout.js');
  const { INITIAL_UI } = await load('ui-state.js');
  if (which === 'ink') (await load('ink-row-cache.js')).uninstallInkRowCache();
  const cols = 240;
  const rows = 65;
  const tiles = 9;
  const model = (s) => ({
    cols,
    rows,
    layout: layout({ cols, rows, count: tiles }),
    tiles: Array.from({ length: tiles }, (_, i) => ({ id: i + 1, name: `tile-${i + 1}`, state: 'working', source: 'hook', sinceMs: s * 1000 + i * 7000 })),
    ui: INITIAL_UI,
    color: true,
    escapeKey: '\x1c',
    overlay: null,
    note: null,
  });
  const chrome = new ChromeRenderer(cols, rows, createElement(GridView, { model: model(0) }));
  for (let s = 1; s <= 50; s++) chrome.render(createElement(GridView, { model: model(s) }), cols, rows); // warm up
  globalThis.gc();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  for (let s = 51; s < 51 + frames; s++) chrome.render(createElement(GridView, { model: model(s) }), cols, rows);
  const msPerFrame = (performance.now() - t0) / frames;
  globalThis.gc();
  const heapGrowthMB = (process.memoryUsage().heapUsed - heap0) / 1024 / 1024;
  chrome.unmount();
  return { msPerFrame, heapGrowthMB };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [frames, which] = process.argv.slice(2);
  if (which) process.stdout.write(JSON.stringify(await measure(Number(frames), which)));
  else console.log(await chromeChurn({ frames: Number(frames ?? 1200) }));
}
