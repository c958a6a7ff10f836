/**
 * How many colours the user's terminal shows, and how an agent's colours are brought down to that.
 * An agent asks its (headless) terminal for truecolor; the user's terminal may have 256 colours or
 * 16, and an escape it does not understand would paint the wrong colour or garbage.
 */
import type { Color } from '../session/styled-row.js';

export type ColorDepth = 'none' | 'ansi16' | 'ansi256' | 'truecolor';

/** The terminal's colour depth from its environment (as terminal programs conventionally read it)
 * and, inside tmux, from what tmux knows of the terminal outside it (`tmuxFeatures`: its client's
 * `#{client_termfeatures}`, where `RGB` is truecolor). */
export function colorDepthFrom(env: Readonly<Record<string, string | undefined>>, tmuxFeatures: string | null = null): ColorDepth {
  const colorterm = (env.COLORTERM ?? '').toLowerCase();
  const term = (env.TERM ?? '').toLowerCase();
  if (term === 'dumb') return 'none';
  if (colorterm === 'truecolor' || colorterm === '24bit' || term.endsWith('-direct')) return 'truecolor';
  if (tmuxFeatures !== null && tmuxFeatures.split(',').some((f) => f.trim() === 'RGB')) return 'truecolor';
  if (term.includes('256') || colorterm !== '') return 'ansi256';
  return 'ansi16';
}

/** `color` as the nearest colour the terminal can show. Default and palette colours pass through
 * where they fit: the user's own palette is theirs. */
export function fitColor(color: Color, depth: ColorDepth): Color {
  switch (color.kind) {
    case 'default':
      return color;
    case 'ansi16':
      return depth === 'none' ? DEFAULT : color;
    case 'ansi256':
      if (depth === 'none') return DEFAULT;
      if (depth === 'ansi16') return { kind: 'ansi16', index: color.index < 16 ? color.index : nearest16(rgbOf256(color.index)) };
      return color;
    case 'rgb':
      if (depth === 'none') return DEFAULT;
      if (depth === 'ansi16') return { kind: 'ansi16', index: nearest16([color.r, color.g, color.b]) };
      if (depth === 'ansi256') return { kind: 'ansi256', index: nearest256(color.r, color.g, color.b) };
      return color;
  }
}

const DEFAULT: Color = { kind: 'default' };

// xterm's default palette for the 16 colours: what "nearest" is measured against.
const PALETTE16: readonly (readonly [number, number, number])[] = [
  [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
  [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
];

const CUBE = [0, 95, 135, 175, 215, 255];

/** The RGB value of a 256-palette index as xterm defines it. */
export function rgbOf256(index: number): [number, number, number] {
  if (index < 16) return [...(PALETTE16[index] ?? [0, 0, 0])] as [number, number, number];
  if (index < 232) {
    const i = index - 16;
    return [CUBE[Math.floor(i / 36)] ?? 0, CUBE[Math.floor(i / 6) % 6] ?? 0, CUBE[i % 6] ?? 0];
  }
  const gray = 8 + (index - 232) * 10;
  return [gray, gray, gray];
}

/**
 * The 256-palette colour tmux gives a 24-bit colour on a terminal without 24-bit colour (its
 * colour_find_rgb): the cube colour each channel rounds to, unless the grey nearest the channels'
 * average is closer. Never 0–15: those are the user's palette. The same rule as tmux so that a
 * tile shows what the same program shows in a tmux pane (test/ui/fidelity-tmux).
 */
export function nearest256(r: number, g: number, b: number): number {
  const level = (v: number) => (v < 48 ? 0 : v < 114 ? 1 : Math.trunc((v - 35) / 40));
  const [qr, qg, qb] = [level(r), level(g), level(b)];
  const cube = 16 + 36 * qr + 6 * qg + qb;
  const [cr, cg, cb] = rgbOf256(cube);
  if (cr === r && cg === g && cb === b) return cube;
  const average = Math.trunc((r + g + b) / 3);
  const grayIndex = average > 238 ? 23 : Math.trunc((average - 3) / 10);
  const gray = 8 + 10 * grayIndex;
  const squared = (x: number, y: number, z: number) => (x - r) ** 2 + (y - g) ** 2 + (z - b) ** 2;
  return squared(gray, gray, gray) < squared(cr, cg, cb) ? 232 + grayIndex : cube;
}

function nearest16(rgb: readonly [number, number, number]): number {
  let best = 0;
  let bestDistance = Infinity;
  PALETTE16.forEach((candidate, index) => {
    const d = distance(candidate, rgb);
    if (d < bestDistance) {
      best = index;
      bestDistance = d;
    }
  });
  return best;
}

function distance(a: readonly number[], b: readonly number[]): number {
  // Weighted for how the eye sees it (the "redmean" approximation's weights, simplified).
  const dr = (a[0] ?? 0) - (b[0] ?? 0);
  const dg = (a[1] ?? 0) - (b[1] ?? 0);
  const db = (a[2] ?? 0) - (b[2] ?? 0);
  return 2 * dr * dr + 4 * dg * dg + 3 * db * db;
}
