import { type Encoding, encodeOrDrop, type ServerEventName, type ServerPayload } from '../protocol/index.ts';
import type { WsConnection } from '../ws/types.ts';
import type { QueuedFrame } from './frame-batch.ts';

/** What a connection on the main thread needs of the network thread. */
export interface ConnectionLink {
  /** Queue a frame for the socket (read at once); it leaves with the next batch. */
  queue(connId: number, frame: QueuedFrame): void;
  /** Send what is queued, then close the socket. */
  close(connId: number, code: number, reason: string): void;
  /** The game hears of the close now, as with any other close. */
  closed(conn: RemoteConnection, code: number): void;
  /** A payload for this connection could not be encoded: it was dropped (logged and counted there). */
  encodeFailed(conn: RemoteConnection, event: string, err: unknown): void;
}

/**
 * The main thread's side of a socket that lives on the network thread. Sends are queued and leave in
 * one batch with everything else queued in the same turn; close() takes effect for the game at once
 * (onClose runs before it returns, as when the socket closed itself).
 */
export class RemoteConnection implements WsConnection {
  closed = false;
  data: Record<string, unknown> = {};
  /** Frames are copied into the outgoing batch when queued: callers may reuse their buffers. */
  readonly copiesFrames = true;
  private readonly dropped = (event: string, err: unknown) => this.link.encodeFailed(this, event, err);

  constructor(
    readonly id: number,
    readonly ip: string,
    readonly encoding: Encoding,
    readonly query: URLSearchParams,
    private readonly link: ConnectionLink,
  ) {}

  send<E extends ServerEventName>(event: E, payload: ServerPayload<E>): void {
    if (this.closed) return;
    const frame = encodeOrDrop(this.encoding, event, payload, this.dropped);
    if (frame !== undefined) this.link.queue(this.id, frame);
  }

  sendRaw(frame: Uint8Array | string): void {
    if (this.closed) return;
    this.link.queue(this.id, frame);
  }

  sendBatch(frames: readonly QueuedFrame[]): void {
    if (this.closed) return;
    for (const f of frames) this.link.queue(this.id, f);
  }

  close(code: number, reason = ''): void {
    if (this.closed) return;
    this.link.close(this.id, code, reason);
    this.link.closed(this, code);
  }
}
