/**
 * The clients of one session server, each with a grid of its own: its size, selection, focus,
 * overlays and bell. Rings that come while no client is attached wait for the next one, which
 * shows them (the tiles stay unseen) — at most a bounded number of them.
 */
import type { Logger } from '../platform/logger.js';
import type { RingState, WorkspaceView } from '../tile/workspace-view.js';
import type { GridApp } from '../ui/grid-app.js';
import { AttachServer } from './attach-server.js';
import type { ClientLink } from './client-link.js';
import { removeSessionInfo, writeSessionInfo } from './session-info.js';

/** Rings kept while nobody is attached (one per tile is what matters). */
const MAX_WAITING_RINGS = 1000;

export interface SessionClientsOptions {
  path: string;
  runtimeDir: string;
  session: string;
  version: string;
  cwd: string;
  logger: Logger;
  /** Read clients' keys on a thread of their own (AttachServer; default: true). */
  keyboardThread?: boolean;
  view: WorkspaceView;
  /** The grid for one client; `detach` lets that client go with every tile running. */
  makeApp(link: ClientLink, detach: () => void): GridApp;
  /** A client came or went. */
  changed(): void;
  /** A ring with no client attached (after the first one has come): `--on-ring`'s moment. */
  unattended?(id: number, state: RingState): void;
  /** Rings that came before the first client (a quick command finishing while the server starts):
   * the first client rings them, as a grid rings what beat its first paint. */
  earlier?: { id: number; state: RingState }[];
}

export class SessionClients {
  private readonly apps = new Map<ClientLink, GridApp>();
  /** Rings before the first client (rung by it) and while nobody was attached since (shown). */
  private earlier: { id: number; state: RingState }[];
  private waiting: { id: number; state: RingState }[] = [];
  private firstClient = true;
  /** The client whose grid last gave the tiles their sizes. */
  private sizer: ClientLink | null = null;
  private newestApp: GridApp | null = null;
  private lastSnapshot: ReturnType<GridApp['snapshot']> | null = null;
  private readonly offRing: () => void;
  private readonly since = new Date().toISOString();

  private constructor(
    private readonly options: SessionClientsOptions,
    private attach: AttachServer | null = null,
  ) {
    this.earlier = [...(options.earlier ?? [])];
    this.offRing = options.view.onRing((id, state) => {
      if (this.apps.size > 0) return;
      const queue = this.firstClient ? this.earlier : this.waiting;
      if (queue.length < MAX_WAITING_RINGS) queue.push({ id, state });
      if (!this.firstClient) options.unattended?.(id, state);
    });
  }

  static async listen(options: SessionClientsOptions): Promise<SessionClients> {
    const clients = new SessionClients(options);
    clients.attach = await AttachServer.listen(options.path, {
      session: options.session,
      version: options.version,
      logger: options.logger,
      ...(options.keyboardThread !== undefined ? { keyboardThread: options.keyboardThread } : {}),
      attached: (link) => clients.attached(link),
      detached: (link) => clients.detached(link),
    });
    clients.writeInfo();
    return clients;
  }

  get count(): number {
    return this.apps.size;
  }

  /** What a restore keeps of the UI: the newest client's, or the last one's to leave. */
  snapshot(): ReturnType<GridApp['snapshot']> | null {
    return this.newestApp?.snapshot() ?? this.lastSnapshot;
  }

  /** A line on every client's status line. */
  say(text: string): void {
    for (const app of this.apps.values()) app.say(text);
  }

  /** Let the client that typed or resized last go (`belltower detach`), or every one; how many. */
  detach(all: boolean): number {
    const links = [...this.apps.keys()].sort((a, b) => b.lastActive - a.lastActive);
    const going = all ? links : links.slice(0, 1);
    for (const link of going) link.close('detached', 0);
    return going.length;
  }

  /** The session ends: every client is let go with this status. */
  async close(reason: 'quit' | 'ended' | 'killed', status: number, message?: string): Promise<void> {
    this.offRing();
    for (const app of this.apps.values()) app.stop();
    this.apps.clear();
    await this.attach?.close(reason, status, message);
    removeSessionInfo(this.options.runtimeDir, this.options.session);
  }

  /** Stop drawing (the server ends), before the tiles are stopped. */
  stopDrawing(): void {
    for (const app of this.apps.values()) app.stop();
  }

  private attached(link: ClientLink): void {
    const app = this.options.makeApp(link, () => link.close('detached', 0));
    this.apps.set(link, app);
    this.newestApp = app;
    // The tiles' ptys take the sizes of the grid of the client the user is at: the one that last
    // typed or resized (its own grid applies its sizes on a resize, and on its start below).
    this.sizer = link;
    link.onInput(() => {
      if (this.sizer === link) return;
      this.sizer = link;
      app.fitTiles();
    });
    link.onResized(() => (this.sizer = link));
    const earlier = this.earlier;
    const away = this.waiting;
    this.earlier = [];
    this.waiting = [];
    this.firstClient = false;
    app.start(earlier, away);
    this.writeInfo();
    this.options.changed();
  }

  private detached(link: ClientLink): void {
    const app = this.apps.get(link);
    if (!app) return;
    this.lastSnapshot = app.snapshot();
    app.stop();
    this.apps.delete(link);
    if (this.sizer === link) this.sizer = null;
    if (this.newestApp === app) this.newestApp = [...this.apps.values()].at(-1) ?? null;
    this.options.logger('info', 'attach: a client left', { client: link.id, dropped: link.dropped, left: this.apps.size });
    this.writeInfo();
    this.options.changed();
  }

  private writeInfo(): void {
    try {
      writeSessionInfo(this.options.runtimeDir, {
        session: this.options.session,
        pid: process.pid,
        cwd: this.options.cwd,
        since: this.since,
        version: this.options.version,
        clients: [...this.apps.keys()].map((l) => ({ id: l.id, cols: l.cols, rows: l.rows, since: new Date(l.attachedAt).toISOString() })),
      });
    } catch (error) {
      this.options.logger('warn', 'attach: the session info could not be written', { error: String(error) });
    }
  }
}
