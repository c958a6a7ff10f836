/**
 * Test helpers for sessions and screens: predicate waits (never fixed sleeps) and cleanup.
 */
import { Screen, type ScreenOptions } from '../../src/session/screen.js';
import { Session, type SessionOptions } from '../../src/session/session.js';

/** Resolve once `predicate` holds; reject with `what` after `timeoutMs`. Polls every 5 ms. */
export async function waitFor(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Write to a screen and resolve once it is parsed. */
export function feed(screen: Screen, data: string): Promise<void> {
  return new Promise((resolve) => screen.write(data, resolve));
}

/** Owns what a test creates and disposes it afterwards. */
export class Owned {
  private readonly items: { dispose(): void }[] = [];

  screen(options: Partial<ScreenOptions> & { replies?: string[] } = {}): Screen {
    const replies = options.replies;
    const screen = new Screen({
      cols: 40,
      rows: 10,
      ...options,
      onReply: options.onReply ?? ((data) => replies?.push(data)),
    });
    this.items.push(screen);
    return screen;
  }

  session(options: SessionOptions): Session {
    const session = Session.start(options);
    this.items.push(session);
    return session;
  }

  disposeAll(): void {
    for (const item of this.items.splice(0)) item.dispose();
  }
}

/** A session's output collected as it arrives. */
export function collectOutput(session: Session): { text: string } {
  const out = { text: '' };
  session.onOutput((data) => (out.text += data));
  return out;
}

/** The exit of a session, as a promise. */
export function exitOf(session: Session): Promise<NonNullable<Session['exit']>> {
  return new Promise((resolve) => session.onExit(resolve));
}
