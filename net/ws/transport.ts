import uWS from 'uWebSockets.js';
import type { Logger } from '../../src/logger.ts';
import { wsClosed, wsConnections, wsMessagesIn } from '../../src/metrics.ts';
import { clientAddress } from '../http/client-ip.ts';
import { PROBLEM_CONTENT_TYPE, problem } from '../http/problem.ts';
import { decodeClientFrame, MAX_FRAME_BYTES } from '../protocol/index.ts';
import { type SocketData, UwsConnection } from './connection.ts';
import { MessageRateLimiter } from './message-rate.ts';
import type { WsApp, WsConnection } from './types.ts';

/**
 * The `/ws` endpoint (contract §1): encoding chosen by `?encoding=`, frames decoded and validated by
 * net/protocol, oversize frames closed with 1009 by uWS itself, per-connection rate limit, bounded
 * send buffers. Valid messages go to the WsApp; nothing else does.
 */

export interface WsTransportOptions {
  app: WsApp;
  logger: Logger;
  trustProxy: boolean;
  /** DISABLE_RATE_LIMIT outside production. */
  rateLimitDisabled: boolean;
  /** Per-socket send buffer bound; over it the client is closed with 1008. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** Seconds without traffic before uWS drops the socket (pings are sent automatically). */
  idleTimeoutSeconds?: number;
  now?: () => number;
}

export interface WsTransport {
  readonly connections: ReadonlySet<WsConnection>;
  /** Refuse new upgrades from now on (shutdown). */
  stopAccepting(): void;
  /** Close every open connection with `code` (1001 on shutdown). */
  closeAll(code: number, reason: string): void;
}

export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
/** Frames above this are cut off by uWS itself, without a close frame. */
export const HARD_FRAME_CAP_BYTES = 1024 * 1024;

export function mountWs(app: uWS.TemplatedApp, opts: WsTransportOptions): WsTransport {
  const connections = new Set<UwsConnection>();
  const now = opts.now ?? (() => performance.now());
  const maxBuffered = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  let nextId = 1;
  let accepting = true;

  app.ws<SocketData>('/ws', {
    compression: uWS.DISABLED,
    // uWS drops an over-limit frame with a bare TCP close (1006 at the client). The contract wants
    // 1009, so uWS's cap sits higher (bounding per-socket buffering) and our check closes at 64 KiB.
    maxPayloadLength: HARD_FRAME_CAP_BYTES,
    maxBackpressure: maxBuffered,
    idleTimeout: opts.idleTimeoutSeconds ?? 120,
    sendPingsAutomatically: true,

    upgrade: (res, req, context) => {
      // Everything from req is read here, synchronously: it is invalid after this callback.
      const query = new URLSearchParams(req.getQuery() ?? '');
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const forwardedFor = req.getHeader('x-forwarded-for');
      const encoding = query.get('encoding') || 'msgpack';
      if (!accepting) {
        refuse(res, 503, 'The server is shutting down');
        return;
      }
      if (encoding !== 'msgpack' && encoding !== 'json') {
        refuse(res, 400, 'encoding must be msgpack or json');
        return;
      }
      const ip = clientAddress(res.getRemoteAddressAsText(), forwardedFor, opts.trustProxy);
      const data: SocketData = { ip, encoding, query, conn: undefined };
      res.upgrade(data, key, protocol, extensions, context);
    },

    open: (ws) => {
      const d = ws.getUserData();
      const rate = opts.rateLimitDisabled ? undefined : new MessageRateLimiter(now);
      const conn = new UwsConnection(nextId++, ws, d.ip, d.encoding, d.query, rate, maxBuffered);
      d.conn = conn;
      connections.add(conn);
      wsConnections.inc();
      guard(opts.logger, conn, 'onOpen', () => opts.app.onOpen(conn));
    },

    message: (ws, message, isBinary) => {
      const conn = ws.getUserData().conn;
      if (conn === undefined || conn.closed) return;
      if (message.byteLength > MAX_FRAME_BYTES) {
        wsMessagesIn.inc({ result: 'too_big' });
        conn.close(1009, 'frame larger than 64 KiB');
        return;
      }
      const verdict = conn.rate?.accept() ?? 'pass';
      if (verdict !== 'pass') {
        wsMessagesIn.inc({ result: 'rate_limited' });
        if (verdict === 'close') conn.close(4029, 'message rate limit exceeded');
        else if (verdict === 'drop-notify') {
          conn.send('error', {
            code: 'RATE_LIMITED',
            message: 'Too many messages: at most 60 a second; extra messages are dropped',
            event: null,
          });
        }
        return;
      }
      // uWS neuters the buffer when this callback returns: decode a copy.
      const decoded = decodeClientFrame(new Uint8Array(message.slice(0)), isBinary);
      if (!decoded.ok) {
        wsMessagesIn.inc({ result: 'bad' });
        conn.send('error', { code: 'BAD_MESSAGE', message: decoded.message, event: decoded.event });
        return;
      }
      wsMessagesIn.inc({ result: 'ok' });
      const ok = guard(opts.logger, conn, 'onMessage', () => opts.app.onMessage(conn, decoded.message));
      if (!ok) {
        conn.send('error', { code: 'INTERNAL', message: 'internal error', event: decoded.message.event });
      }
    },

    close: (ws, code) => {
      const conn = ws.getUserData().conn;
      if (conn === undefined) return;
      conn.closed = true;
      connections.delete(conn);
      wsConnections.dec();
      wsClosed.inc({ code: String(code) });
      guard(opts.logger, conn, 'onClose', () => opts.app.onClose(conn, code));
    },
  });

  return {
    connections,
    stopAccepting() {
      accepting = false;
    },
    closeAll(code, reason) {
      for (const c of [...connections]) c.close(code, reason);
    },
  };
}

function refuse(res: uWS.HttpResponse, status: number, detail: string): void {
  const code = status === 400 ? 'BAD_REQUEST' : 'INTERNAL';
  res.cork(() => {
    res
      .writeStatus(`${status} ${status === 400 ? 'Bad Request' : 'Service Unavailable'}`)
      .writeHeader('Content-Type', PROBLEM_CONTENT_TYPE)
      .end(JSON.stringify(problem(status, code, detail)));
  });
}

/** An app callback that throws must not take the transport down: log it and carry on. */
function guard(logger: Logger, conn: WsConnection, what: string, fn: () => void): boolean {
  try {
    fn();
    return true;
  } catch (err) {
    logger.error({ err, connId: conn.id }, `ws ${what} failed`);
    return false;
  }
}
