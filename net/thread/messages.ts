import type { CorsRule } from '../http/cors.ts';
import type { NetHttpReply, NetHttpRequest } from '../http/types.ts';
import type { ClientMessage, Encoding } from '../protocol/index.ts';

export type { NetHttpReply, NetHttpRequest } from '../http/types.ts';

/**
 * What the main thread (simulation, sessions, routes) and the network thread (uWS: sockets, framing,
 * validation, limits, socket writes) say to each other. Everything here is structured-cloned, except
 * the frame batch's bytes, which live in shared chunks (net/thread/frame-batch.ts).
 */

export interface NetWorkerData {
  host: string;
  port: number;
  trustProxy: boolean;
  /** DISABLE_RATE_LIMIT outside production: no per-connection message limit. */
  rateLimitDisabled: boolean;
  maxBufferedBytes: number;
  idleTimeoutSeconds: number;
  /** Largest request body the network thread reads for any route; routes may cap lower. */
  maxBodyBytes: number;
  /** A request body not received within this many ms after the headers is answered 408. */
  bodyTimeoutMs: number;
  /** Open WebSocket connections one address may hold; past it the upgrade is answered 429. */
  wsConnectionsPerAddress: number;
  /** Origins a browser may open /ws from (an upgrade without Origin is not a browser's); null = any. */
  wsOriginRules: CorsRule[] | null;
}

/** Limits the network thread enforced (main counts them in game_limit_refusals_total and logs them). */
export type NetLimit =
  | 'ws_per_address'
  | 'ws_origin'
  | 'http_body_timeout'
  | 'http_headers_too_large'
  | 'http_pipelined';

/** Per-result counts of inbound WebSocket messages since the last report (metrics live on main). */
export interface InboundCounts {
  ok: number;
  bad: number;
  tooBig: number;
  rateLimited: number;
  /** Connections failed by uWS for a text frame that is not valid UTF-8. */
  invalidUtf8: number;
}

export type NetEvent =
  | { t: 'open'; id: number; ip: string; encoding: Encoding; query: string }
  | { t: 'message'; id: number; message: ClientMessage }
  /** `invalidUtf8`: uWS failed the connection for a text frame that is not valid UTF-8 (the client sees 1006). */
  | { t: 'close'; id: number; code: number; invalidUtf8?: true }
  | { t: 'http'; req: NetHttpRequest }
  | { t: 'httpAborted'; id: number }
  | { t: 'refused'; limit: NetLimit; ip: string; detail: string };

/** Network thread -> main. */
export type FromNet =
  | { t: 'listening'; port: number }
  | { t: 'listenFailed'; message: string }
  | { t: 'events'; events: NetEvent[]; counts: InboundCounts }
  /** Chunks of a written batch, free to be filled again. */
  | { t: 'chunksFree'; chunks: number[] }
  /**
   * Something threw on the network thread and was contained there (the thread keeps serving; a uWS
   * worker that dies takes the whole process down with it, saves and all).
   */
  | { t: 'fault'; where: string; message: string; stack: string | undefined }
  | { t: 'stopped' };

/**
 * Frames for many connections in one message. Frame i goes to connection ids[i], binary unless text[i];
 * its bytes are segments firstSegment[i] .. firstSegment[i + 1] - 1 joined, segment s being bytes
 * [start[s], end[s]) of the shared chunk numbered chunk[s]. Frames may share bytes (one chat line for
 * many hearers). Consecutive frames of one connection leave in one cork.
 */
export interface FrameBatch {
  /** Chunks new to the network thread (each crosses once; later batches name it by index). */
  added: { index: number; buffer: SharedArrayBuffer }[];
  /** Chunks this batch names: handed back in 'chunksFree' once written. */
  used: number[];
  /** Chunks main no longer uses: forget them. */
  dropped: number[];
  count: number;
  ids: Int32Array;
  text: Uint8Array;
  /** count + 1 entries. */
  firstSegment: Uint32Array;
  chunk: Uint32Array;
  start: Uint32Array;
  end: Uint32Array;
}

/** Main -> network thread. */
export type ToNet =
  | { t: 'frames'; batch: FrameBatch }
  | { t: 'close'; id: number; code: number; reason: string }
  | { t: 'http'; reply: NetHttpReply }
  | { t: 'stopAccepting' }
  | { t: 'stop' };
