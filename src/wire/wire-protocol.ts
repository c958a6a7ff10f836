/**
 * The attach protocol between a session server and its clients: length-prefixed frames on a
 * local socket. A frame is a 4-byte big-endian length (of what follows), one type byte, and the
 * payload. The frame shape and the hello/refused messages never change, so that a client and a
 * server of different versions can always tell each other so in one line; everything else is
 * versioned by WIRE_VERSION.
 *
 * Client → server: hello (first, once), input (the user's bytes), resize, detach.
 * Server → client: welcome or refused (the answer to hello), output (bytes for the terminal),
 * exit (the server let this client go: why, and the status the client ends with).
 *
 * A welcome may name a token for the server's keys socket (`<session>.sock.keys` beside the
 * attach socket, read by the server's keyboard thread): a client that connects there sends a
 * `keys` frame with the token, then its input frames on that connection instead. A client that
 * does not, or a server that offers none, keeps input on the attach socket: versions on either
 * side of this still attach. A token names its client once.
 */

export const WIRE_VERSION = 1;
/** The first bytes of a hello, in every version: what a server checks before anything else. */
export const HELLO_MAGIC = 'belltower-attach';

/** A client's frames are keystrokes and sizes: nothing legitimate comes near this. */
export const MAX_CLIENT_FRAME = 64 * 1024;
/** A server frame is at most one whole screen's paint; a full 500×200 truecolor frame is ~3 MB. */
export const MAX_SERVER_FRAME = 16 * 1024 * 1024;

const TYPE = {
  hello: 1,
  input: 2,
  resize: 3,
  detach: 4,
  keys: 5,
  welcome: 65,
  refused: 66,
  output: 67,
  exit: 68,
} as const;

/** Environment a client passes so the server draws and notifies for its terminal, not its own. */
export const CLIENT_ENV_NAMES = ['TERM', 'COLORTERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'TMUX', 'TMUX_PANE', 'STY', 'NO_COLOR', 'LANG', 'LC_ALL', 'LC_CTYPE', 'KITTY_WINDOW_ID', 'WT_SESSION', 'VTE_VERSION'] as const;

export interface Hello {
  type: 'hello';
  /** The client's wire version and package version (for the message when they differ). */
  wire: number;
  version: string;
  cols: number;
  rows: number;
  env: Record<string, string>;
  /** This client's own grid choices (`attach --bell off`), over the session's. */
  options: ClientOptions;
}

/** What each client chooses for itself; checked by the client's command line and again by the
 * server (an unknown value is dropped there, and the session's own is used). */
export interface ClientOptions {
  bell?: string;
  notify?: string;
  escapeKey?: string;
}

const CLIENT_OPTION_NAMES = ['bell', 'notify', 'escapeKey'] as const;

export type ClientMessage =
  | Hello
  | { type: 'input'; data: string }
  | { type: 'resize'; cols: number; rows: number }
  | { type: 'detach' }
  /** First on a keys connection: whose keys follow (the token of its welcome). */
  | { type: 'keys'; token: string };

export type ExitReason = 'detached' | 'quit' | 'ended' | 'killed';

export type ServerMessage =
  /** `keys`: the token for the server's keys socket, when it has one. */
  | { type: 'welcome'; wire: number; version: string; session: string; keys?: string }
  | { type: 'refused'; message: string }
  /** What the client's terminal is to show, as bytes: the client writes them as they came. */
  | { type: 'output'; data: Buffer }
  | { type: 'exit'; reason: ExitReason; status: number; message?: string };

export type WireMessage = ClientMessage | ServerMessage;

/** The peer sent something that is not this protocol: the connection cannot go on. */
export class WireError extends Error {
  override name = 'WireError';
}

export function encode(message: WireMessage): Buffer {
  switch (message.type) {
    case 'hello': {
      const { type: _type, ...rest } = message;
      return frame(TYPE.hello, Buffer.from(`${HELLO_MAGIC}${JSON.stringify(rest)}`, 'utf8'));
    }
    case 'input':
      return frame(TYPE.input, Buffer.from(message.data, 'utf8'));
    case 'resize': {
      const payload = Buffer.alloc(4);
      payload.writeUInt16BE(clampSize(message.cols), 0);
      payload.writeUInt16BE(clampSize(message.rows), 2);
      return frame(TYPE.resize, payload);
    }
    case 'detach':
      return frame(TYPE.detach, Buffer.alloc(0));
    case 'keys':
      return frame(TYPE.keys, Buffer.from(message.token, 'utf8'));
    case 'welcome':
      return frame(TYPE.welcome, json({ wire: message.wire, version: message.version, session: message.session, ...(message.keys !== undefined ? { keys: message.keys } : {}) }));
    case 'refused':
      return frame(TYPE.refused, Buffer.from(message.message, 'utf8'));
    case 'output':
      return frame(TYPE.output, message.data);
    case 'exit':
      return frame(TYPE.exit, json({ reason: message.reason, status: message.status, ...(message.message !== undefined ? { message: message.message } : {}) }));
  }
}

/** Input larger than one frame may hold, split where no UTF-8 character is cut. */
export function inputFrames(data: string): Buffer[] {
  const bytes = Buffer.from(data, 'utf8');
  const limit = MAX_CLIENT_FRAME - 1;
  if (bytes.length <= limit) return [frame(TYPE.input, bytes)];
  const frames: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + limit);
    // Step back over continuation bytes (10xxxxxx) so the cut falls between characters.
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end--;
    frames.push(frame(TYPE.input, bytes.subarray(start, end)));
    start = end;
  }
  return frames;
}

/**
 * Reads frames from a byte stream. `side` says whose messages it reads (a server reads a
 * client's); a frame over `maxFrame`, an unknown type or a malformed payload is a WireError.
 */
export class WireDecoder {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(
    private readonly side: 'client' | 'server',
    private readonly maxFrame = side === 'client' ? MAX_CLIENT_FRAME : MAX_SERVER_FRAME,
  ) {}

  push(chunk: Buffer): WireMessage[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const messages: WireMessage[] = [];
    while (this.buffer.length >= 4) {
      const length = this.buffer.readUInt32BE(0);
      if (length === 0) throw new WireError('a frame without a type');
      if (length > this.maxFrame) throw new WireError(`a frame of ${length} bytes (at most ${this.maxFrame})`);
      if (this.buffer.length < 4 + length) break;
      const type = this.buffer[4]!;
      const payload = this.buffer.subarray(5, 4 + length);
      this.buffer = this.buffer.subarray(4 + length);
      messages.push(this.side === 'client' ? clientMessage(type, payload) : serverMessage(type, payload));
    }
    return messages;
  }

  /** Bytes held of a frame not yet complete. */
  get pending(): number {
    return this.buffer.length;
  }
}

function clientMessage(type: number, payload: Buffer): ClientMessage {
  switch (type) {
    case TYPE.hello: {
      const text = payload.toString('utf8');
      if (!text.startsWith(HELLO_MAGIC)) throw new WireError('a hello that is not belltower attach protocol');
      const body = parseObject(text.slice(HELLO_MAGIC.length), 'hello');
      const wire = body.wire;
      if (typeof wire !== 'number' || !Number.isInteger(wire)) throw new WireError('a hello without a wire version');
      const version = typeof body.version === 'string' ? body.version.slice(0, 64) : 'unknown';
      const env: Record<string, string> = {};
      if (typeof body.env === 'object' && body.env !== null) {
        for (const name of CLIENT_ENV_NAMES) {
          const value = (body.env as Record<string, unknown>)[name];
          if (typeof value === 'string' && value.length <= 1024) env[name] = value;
        }
      }
      const options: ClientOptions = {};
      if (typeof body.options === 'object' && body.options !== null) {
        for (const name of CLIENT_OPTION_NAMES) {
          const value = (body.options as Record<string, unknown>)[name];
          if (typeof value === 'string' && value.length <= 32) options[name] = value;
        }
      }
      return { type: 'hello', wire, version, cols: size(body.cols), rows: size(body.rows), env, options };
    }
    case TYPE.input:
      return { type: 'input', data: payload.toString('utf8') };
    case TYPE.resize:
      if (payload.length !== 4) throw new WireError(`a resize of ${payload.length} bytes (4 expected)`);
      return { type: 'resize', cols: size(payload.readUInt16BE(0)), rows: size(payload.readUInt16BE(2)) };
    case TYPE.detach:
      return { type: 'detach' };
    case TYPE.keys:
      if (payload.length === 0 || payload.length > 128) throw new WireError(`a keys frame of ${payload.length} bytes`);
      return { type: 'keys', token: payload.toString('utf8') };
    default:
      throw new WireError(`a client frame of unknown type ${type}`);
  }
}

function serverMessage(type: number, payload: Buffer): ServerMessage {
  switch (type) {
    case TYPE.welcome: {
      const body = parseObject(payload.toString('utf8'), 'welcome');
      if (typeof body.wire !== 'number') throw new WireError('a welcome without a wire version');
      return { type: 'welcome', wire: body.wire, version: String(body.version ?? 'unknown'), session: String(body.session ?? ''), ...(typeof body.keys === 'string' && body.keys.length > 0 && body.keys.length <= 128 ? { keys: body.keys } : {}) };
    }
    case TYPE.refused:
      return { type: 'refused', message: payload.toString('utf8') };
    case TYPE.output:
      return { type: 'output', data: payload };
    case TYPE.exit: {
      const body = parseObject(payload.toString('utf8'), 'exit');
      const reason = body.reason;
      if (reason !== 'detached' && reason !== 'quit' && reason !== 'ended' && reason !== 'killed') throw new WireError('an exit without a reason');
      const status = typeof body.status === 'number' && Number.isInteger(body.status) && body.status >= 0 && body.status < 256 ? body.status : 1;
      return { type: 'exit', reason, status, ...(typeof body.message === 'string' ? { message: body.message } : {}) };
    }
    default:
      throw new WireError(`a server frame of unknown type ${type}`);
  }
}

function frame(type: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length + 1, 0);
  head[4] = type;
  return Buffer.concat([head, payload]);
}

function json(value: object): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

function parseObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WireError(`a ${what} that is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WireError(`a ${what} that is not an object`);
  return value as Record<string, unknown>;
}

/** A terminal dimension: 1 to 1000 (anything else is taken as the nearest of those). */
function size(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? clampSize(value) : 1;
}

function clampSize(value: number): number {
  return Math.max(1, Math.min(1000, Math.floor(value)));
}
