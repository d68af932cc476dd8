import type uWS from 'uWebSockets.js';
import { wsBytesOut, wsMessagesOut } from '../../src/metrics.ts';
import {
  type Encoding,
  encodeServerEvent,
  type ServerEventName,
  type ServerPayload,
} from '../protocol/index.ts';
import type { MessageRateLimiter } from './message-rate.ts';
import type { WsConnection } from './types.ts';

/** What the transport keeps on each uWS socket. */
export interface SocketData {
  ip: string;
  encoding: Encoding;
  query: URLSearchParams;
  conn: UwsConnection | undefined;
}

/** Close code for a client whose send buffer overflowed: it is not reading fast enough. */
export const CLOSE_TOO_SLOW = 1008;

export class UwsConnection implements WsConnection {
  closed = false;
  data: Record<string, unknown> = {};
  /** uWS copies what send() is given (into its buffer or the kernel's) before send returns. */
  readonly copiesFrames = true;

  constructor(
    readonly id: number,
    private readonly ws: uWS.WebSocket<SocketData>,
    readonly ip: string,
    readonly encoding: Encoding,
    readonly query: URLSearchParams,
    readonly rate: MessageRateLimiter | undefined,
    private readonly maxBufferedBytes: number,
  ) {}

  send<E extends ServerEventName>(event: E, payload: ServerPayload<E>): void {
    if (this.closed) return;
    this.sendRaw(encodeServerEvent(this.encoding, event, payload));
  }

  sendRaw(frame: Uint8Array | string): void {
    this.sendBatch([frame]);
  }

  /**
   * Every frame of this tick in one cork: uWS gathers the writes of one cork into one syscall. Stops at
   * the first frame uWS drops (over its own cap) and closes a client whose buffer is over the bound.
   */
  sendBatch(frames: readonly (Uint8Array | string)[]): void {
    if (this.closed || frames.length === 0) return;
    let status = 1;
    let bytes = 0;
    let sent = 0;
    // Corked so sends made outside a uWS callback (the tick, after an await) still leave as one write.
    this.ws.cork(() => {
      for (const frame of frames) {
        const binary = typeof frame !== 'string';
        status = this.ws.send(frame, binary);
        sent++;
        bytes += binary ? frame.byteLength : Buffer.byteLength(frame);
        if (status === 2) break;
      }
    });
    wsMessagesOut.inc(sent);
    wsBytesOut.inc(bytes);
    // 2 = dropped at uWS's own cap. Either way the client cannot keep up: cut it off rather than
    // let its buffer (and the server's memory) grow.
    if (status === 2 || this.ws.getBufferedAmount() > this.maxBufferedBytes) {
      this.close(CLOSE_TOO_SLOW, 'send buffer full: client too slow');
    }
  }

  close(code: number, reason = ''): void {
    if (this.closed) return;
    // end() runs the transport's close handler synchronously, which marks the connection closed.
    this.ws.end(code, reason.slice(0, 120));
  }

  /** Buffered outgoing bytes (0 once closed). */
  bufferedAmount(): number {
    return this.closed ? 0 : this.ws.getBufferedAmount();
  }
}
