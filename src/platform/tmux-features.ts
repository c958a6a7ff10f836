/**
 * What the terminal outside tmux can do, as tmux knows it: inside tmux, COLORTERM is usually not
 * set (tmux 3.3 does not pass it on), so a truecolor terminal looked like 256 colours. tmux itself
 * knows its client's features (`#{client_termfeatures}`: `RGB` when the outer terminal has
 * truecolor, from its terminfo `Tc`/`RGB` or the `terminal-features` option).
 */
import { execFileSync } from 'node:child_process';

/** The attached client's features, or null (not inside tmux, no client, tmux too old or slow). */
export function tmuxClientFeatures(env: Readonly<Record<string, string | undefined>>): string | null {
  if (!env.TMUX) return null;
  try {
    const out = execFileSync('tmux', ['display-message', '-p', '#{client_termfeatures}'], { encoding: 'utf8', timeout: 500, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, TMUX: env.TMUX, TMUX_PANE: env.TMUX_PANE } });
    const features = out.trim();
    return features === '' ? null : features;
  } catch {
    return null;
  }
}
