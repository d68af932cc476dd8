import { pack, unpack } from 'msgpackr';
import WebSocket from 'ws';
import type { Encoding } from '../../net/protocol/index.ts';

/**
 * A small WebSocket client for integration tests: sends `[event, payload]` in JSON or msgpack and
 * awaits the next event by name, or the close code.
 */

export interface WsMessage {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect payloads freely
  payload: any;
  /** Whether it came as a binary (msgpack) frame rather than a text (JSON) one. */
  binary: boolean;
}

interface Waiter {
  event: string | undefined;
  resolve: (m: WsMessage) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class TestWsClient {
  /** Every message received, in order (consumed or not). */
  readonly received: WsMessage[] = [];
  private readonly inbox: WsMessage[] = [];
  private readonly waiters: Waiter[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  closeCode: number | undefined;

  private constructor(
    readonly socket: WebSocket,
    readonly encoding: Encoding,
  ) {
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        this.closeCode = code;
        for (const w of this.waiters.splice(0)) {
          clearTimeout(w.timer);
          w.reject(new Error(`socket closed with ${code} while waiting for ${w.event ?? 'a message'}`));
        }
        resolve({ code, reason: reason.toString() });
      });
    });
    socket.on('message', (data, isBinary) => this.onFrame(data as Buffer, isBinary));
    socket.on('error', () => {}); // surfaced through `closed`
  }

  static connect(
    wsUrl: string,
    opts: { encoding?: Encoding; query?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<TestWsClient> {
    const url = new URL(wsUrl);
    if (opts.encoding) url.searchParams.set('encoding', opts.encoding);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const socket = new WebSocket(url, { headers: opts.headers ?? {} });
    const client = new TestWsClient(socket, opts.encoding ?? 'msgpack');
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_req, res) =>
        reject(new Error(`upgrade refused: ${res.statusCode}`)),
      );
      socket.once('error', reject);
    });
  }

  /** Send one event in the connection's encoding. */
  send(event: string, payload: unknown): void {
    this.socket.send(this.encoding === 'json' ? JSON.stringify([event, payload]) : pack([event, payload]));
  }

  /** Send a raw frame: a string goes as a text frame, bytes as a binary frame. */
  sendRaw(frame: string | Uint8Array): void {
    this.socket.send(frame, { binary: typeof frame !== 'string' });
  }

  /** The next not-yet-consumed message named `event` (or any message when omitted). */
  next(event?: string, timeoutMs = 5000): Promise<WsMessage> {
    const i = this.inbox.findIndex((m) => event === undefined || m.event === event);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]!);
    if (this.closeCode !== undefined) {
      return Promise.reject(new Error(`socket already closed (${this.closeCode}); no ${event ?? 'message'}`));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        event,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${event ?? 'a message'}`));
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Resolves with the close code, or rejects after `timeoutMs`. */
  async waitClose(timeoutMs = 5000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return (await Promise.race([this.closed, timeout])).code;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stop reading from the TCP socket (to make the server's send buffer fill up), and resume. */
  pauseReading(): void {
    (this.socket as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resumeReading(): void {
    (this.socket as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  close(code = 1000): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(code);
    }
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    let msg: WsMessage;
    try {
      const decoded = (isBinary ? unpack(data) : JSON.parse(data.toString('utf8'))) as [string, unknown];
      msg = { event: decoded[0], payload: decoded[1], binary: isBinary };
    } catch {
      // Kept (not thrown): a throw here would break the ws client's frame loop.
      msg = { event: '<undecodable>', payload: data, binary: isBinary };
    }
    this.received.push(msg);
    const w = this.waiters.findIndex((x) => x.event === undefined || x.event === msg.event);
    if (w >= 0) {
      const [waiter] = this.waiters.splice(w, 1);
      clearTimeout(waiter!.timer);
      waiter!.resolve(msg);
    } else {
      this.inbox.push(msg);
    }
  }
}
