import type { ClientMessage, Encoding, ServerEventName, ServerPayload } from '../protocol/index.ts';

/**
 * The seam between the WebSocket transport and the game (sessions, auth, command queue). The transport
 * owns framing, validation, limits and backpressure; a WsApp only ever sees valid messages.
 */

export interface WsConnection {
  /** Unique for the life of the process. */
  readonly id: number;
  /** Client address (socket, or X-Forwarded-For first entry under TRUST_PROXY). */
  readonly ip: string;
  readonly encoding: Encoding;
  /** The upgrade request's query string (authToken, characterId, name, encoding...). */
  readonly query: URLSearchParams;
  /** Encode and send one event in this connection's encoding. No-op once closed. */
  send<E extends ServerEventName>(event: E, payload: ServerPayload<E>): void;
  /** Send a frame already encoded in this connection's encoding (string = text frame, bytes = binary). */
  sendRaw(frame: Uint8Array | string): void;
  /** Several pre-encoded frames, in order, as one write (one cork); stops early once closed. */
  sendBatch(frames: readonly (Uint8Array | string)[]): void;
  /** True when sendBatch copies the frames before returning, so they may be reused buffers. */
  readonly copiesFrames?: boolean;
  /** Close with a WebSocket close code (4001 auth, 4002 taken over, 4003 banned, 4029 flood...). */
  close(code: number, reason?: string): void;
  readonly closed: boolean;
  /** Session slot for the app: the transport never reads it. */
  data: Record<string, unknown>;
}

export interface WsApp {
  onOpen(c: WsConnection): void;
  onMessage(c: WsConnection, m: ClientMessage): void;
  /** Called once per connection, whoever closed it. `c.closed` is already true. */
  onClose(c: WsConnection, code: number): void;
}
