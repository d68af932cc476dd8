import uWS from 'uWebSockets.js';
import { parentPort, workerData } from 'node:worker_threads';
import { BodyTimeout, readBody } from '../http/body.ts';
import { clientAddress } from '../http/client-ip.ts';
import { matchOrigin } from '../http/cors.ts';
import { headTooLarge, MAX_REQUEST_HEAD_BYTES, requestHeadBytes } from '../http/head-limit.ts';
import { PROBLEM_CONTENT_TYPE, problem, statusText } from '../http/problem.ts';
import {
  decodeClientFrame,
  type Encoding,
  encodeServerEvent,
  MAX_FRAME_BYTES,
  type ServerEventName,
  type ServerPayload,
} from '../protocol/index.ts';
import { MessageRateLimiter } from '../ws/message-rate.ts';
import { connectionRuns, FrameChunks } from './frame-batch.ts';
import type { FromNet, InboundCounts, NetEvent, NetHttpReply, NetWorkerData, ToNet } from './messages.ts';

/**
 * The network thread: the uWS app with every socket of the server. It frames, size-checks, rate-limits,
 * decodes and validates what arrives and passes only valid messages (and whole HTTP requests) to the
 * main thread; it writes what the main thread sends. The socket writes, ~10 us each on loopback, would
 * otherwise be most of a big tick on the simulation's thread.
 */

const port = parentPort;
if (port === null) throw new Error('net-worker must run in a worker thread');
// Started ahead of the server (net/thread/start-worker.ts), the thread gets its options as its first
// message: the imports above are loaded meanwhile.
const opts = (workerData ??
  (await new Promise<NetWorkerData>((resolve) => port.once('message', resolve)))) as NetWorkerData;

/** Close code for a client whose send buffer overflowed: it is not reading fast enough. */
const CLOSE_TOO_SLOW = 1008;
/** The close reason uWS gives a connection it failed for a text frame that is not valid UTF-8. */
const UWS_INVALID_UTF8 = 'Received invalid UTF-8';
/** uWS drops a frame above this with a bare TCP close; our own check closes at 64 KiB with 1009. */
const HARD_FRAME_CAP_BYTES = 1024 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface SocketData {
  id: number;
  ip: string;
  encoding: Encoding;
  query: string;
  rate: MessageRateLimiter | undefined;
  closed: boolean;
}

interface PendingHttp {
  res: uWS.HttpResponse;
  aborted: boolean;
  /** Handed to the main thread (an abort after that is reported to it). */
  forwarded: boolean;
  /** The turn of the event loop the request arrived in (see `ioTurn`). */
  turn: number;
}

/**
 * HTTP/1.1 pipelining is not served. Every answer comes from the main thread, after this handler has
 * returned, and uWebSockets closes a connection that sends its next request before the previous answer
 * was written (it serves pipelined requests only when each is answered inside its handler), so neither is
 * answered. Such a close happens while uWS parses the bytes that brought the request, before the loop
 * turns: an abort in the same turn as its request is counted as pipelining (`http_pipelined`), which a
 * client that went away (its FIN is read in a later turn) is not.
 */
let ioTurn = 0;
let turnScheduled = false;
function markTurn(): number {
  if (!turnScheduled) {
    turnScheduled = true;
    setImmediate(() => {
      turnScheduled = false;
      ioTurn++;
    });
  }
  return ioTurn;
}

const post = (m: FromNet, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer ?? []);

/**
 * Report an error to the main thread (which logs it) instead of letting it escape: an uncaught
 * exception ends this worker, and a worker ending with uWS sockets open aborts the whole process
 * (libuv's "uv_loop_close() while having open handles"), losing every unsaved character.
 */
function fault(where: string, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  try {
    post({ t: 'fault', where, message: e.message, stack: e.stack });
  } catch {
    // Nothing left to tell it with.
  }
}

/** fn, with anything it throws reported as a fault of `where` (uWS callbacks and main's messages). */
// biome-ignore lint/suspicious/noExplicitAny: any callback shape; F keeps the caller's exact type.
function contained<F extends (...args: any[]) => void>(where: string, fn: F): F {
  return ((...args: Parameters<F>) => {
    try {
      fn(...args);
    } catch (err) {
      fault(where, err);
    }
  }) as F;
}

process.on('uncaughtException', (err) => fault('uncaught', err));
process.on('unhandledRejection', (err) => fault('unhandled rejection', err));

// Inbound events leave in batches: one postMessage per turn of the loop, not one per message.
let events: NetEvent[] = [];
const noCounts = (): InboundCounts => ({ ok: 0, bad: 0, tooBig: 0, rateLimited: 0, invalidUtf8: 0 });
let counts = noCounts();
let flushScheduled = false;
function emit(e: NetEvent): void {
  events.push(e);
  scheduleFlush();
}
function scheduleFlush(): void {
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(flushEvents);
}
function flushEvents(): void {
  flushScheduled = false;
  const counted = counts.ok + counts.bad + counts.tooBig + counts.rateLimited + counts.invalidUtf8;
  if (events.length === 0 && counted === 0) return;
  post({ t: 'events', events, counts });
  events = [];
  counts = noCounts();
}

const sockets = new Map<number, uWS.WebSocket<SocketData>>();
/** Open WebSocket connections per client address (WS_MAX_CONNECTIONS_PER_ADDRESS). */
const perAddress = new Map<string, number>();
const http = new Map<number, PendingHttp>();
let nextSocketId = 1;
let nextRequestId = 1;
let accepting = true;

function sendEvent<E extends ServerEventName>(
  ws: uWS.WebSocket<SocketData>,
  event: E,
  payload: ServerPayload<E>,
): void {
  const frame = encodeServerEvent(ws.getUserData().encoding, event, payload);
  ws.cork(() => ws.send(frame, typeof frame !== 'string'));
}

function closeSocket(ws: uWS.WebSocket<SocketData>, code: number, reason: string): void {
  const d = ws.getUserData();
  if (d.closed) return;
  ws.end(code, reason.slice(0, 120));
}

const app = uWS.App();

app.ws<SocketData>('/ws', {
  compression: uWS.DISABLED,
  maxPayloadLength: HARD_FRAME_CAP_BYTES,
  maxBackpressure: opts.maxBufferedBytes,
  idleTimeout: opts.idleTimeoutSeconds,
  sendPingsAutomatically: true,

  upgrade: contained('ws upgrade', (res, req, context) => {
    // Everything from req is read here, synchronously: it is invalid after this callback.
    const query = req.getQuery() ?? '';
    if (refuseLargeHead(res, req, query)) return;
    const key = req.getHeader('sec-websocket-key');
    const protocol = req.getHeader('sec-websocket-protocol');
    const extensions = req.getHeader('sec-websocket-extensions');
    const forwardedFor = req.getHeader('x-forwarded-for');
    const origin = req.getHeader('origin');
    const encoding = new URLSearchParams(query).get('encoding') || 'msgpack';
    if (!accepting) {
      refuse(res, 503, 'The server is shutting down');
      return;
    }
    const ip = clientAddress(res.getRemoteAddressAsText(), forwardedFor, opts.trustProxy);
    // A browser always sends Origin; other clients (bots, agents, servers) do not, and are not checked.
    if (
      origin !== '' &&
      opts.wsOriginRules !== null &&
      matchOrigin(origin, opts.wsOriginRules) === undefined
    ) {
      refuse(res, 403, 'WebSocket connections from this origin are not allowed');
      emit({ t: 'refused', limit: 'ws_origin', ip, detail: origin.slice(0, 200) });
      return;
    }
    if ((perAddress.get(ip) ?? 0) >= opts.wsConnectionsPerAddress) {
      const detail = `At most ${opts.wsConnectionsPerAddress} WebSocket connections per address`;
      refuse(res, 429, detail, { 'Retry-After': '10' });
      emit({ t: 'refused', limit: 'ws_per_address', ip, detail });
      return;
    }
    if (encoding !== 'msgpack' && encoding !== 'json') {
      refuse(res, 400, 'encoding must be msgpack or json');
      return;
    }
    const rate = opts.rateLimitDisabled ? undefined : new MessageRateLimiter(() => performance.now());
    const data: SocketData = { id: nextSocketId++, ip, encoding, query, rate, closed: false };
    res.upgrade(data, key, protocol, extensions, context);
  }),

  open: contained('ws open', (ws) => {
    const d = ws.getUserData();
    sockets.set(d.id, ws);
    perAddress.set(d.ip, (perAddress.get(d.ip) ?? 0) + 1);
    emit({ t: 'open', id: d.id, ip: d.ip, encoding: d.encoding, query: d.query });
  }),

  message: contained('ws message', (ws, message, isBinary) => {
    const d = ws.getUserData();
    if (d.closed) return;
    if (message.byteLength > MAX_FRAME_BYTES) {
      counts.tooBig++;
      scheduleFlush();
      closeSocket(ws, 1009, 'frame larger than 64 KiB');
      return;
    }
    const verdict = d.rate?.accept() ?? 'pass';
    if (verdict !== 'pass') {
      counts.rateLimited++;
      scheduleFlush();
      if (verdict === 'close') closeSocket(ws, 4029, 'message rate limit exceeded');
      else if (verdict === 'drop-notify') {
        sendEvent(ws, 'error', {
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
      counts.bad++;
      scheduleFlush();
      sendEvent(ws, 'error', { code: 'BAD_MESSAGE', message: decoded.message, event: decoded.event });
      return;
    }
    counts.ok++;
    emit({ t: 'message', id: d.id, message: decoded.message });
  }),

  close: contained('ws close', (ws, code, message) => {
    const d = ws.getUserData();
    d.closed = true;
    sockets.delete(d.id);
    const open = (perAddress.get(d.ip) ?? 1) - 1;
    if (open > 0) perAddress.set(d.ip, open);
    else perAddress.delete(d.ip);
    // uWS fails the connection itself (RFC 6455 8.1) on a text frame that is not UTF-8: the frame never
    // reaches `message`, and the socket is gone before anything could be sent. Only its reason tells.
    const invalidUtf8 = code === 1006 && Buffer.from(message).toString() === UWS_INVALID_UTF8;
    if (invalidUtf8) counts.invalidUtf8++;
    emit(invalidUtf8 ? { t: 'close', id: d.id, code, invalidUtf8 } : { t: 'close', id: d.id, code });
  }),
});

const REFUSAL_CODES = {
  400: 'BAD_REQUEST',
  403: 'FORBIDDEN',
  408: 'REQUEST_TIMEOUT',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  503: 'INTERNAL',
} as const;

/** A problem+json answer written here, without the main thread (upgrade refusals, body timeouts). */
function refuse(
  res: uWS.HttpResponse,
  status: keyof typeof REFUSAL_CODES,
  detail: string,
  headers: Record<string, string> = {},
  close = false,
): void {
  res.cork(() => {
    res.writeStatus(`${status} ${statusText(status)}`).writeHeader('Content-Type', PROBLEM_CONTENT_TYPE);
    for (const [k, v] of Object.entries(headers)) res.writeHeader(k, v);
    res.end(JSON.stringify(problem(status, REFUSAL_CODES[status], detail)), close);
  });
}

/**
 * A request line and headers over MAX_REQUEST_HEAD_BYTES: answered 431 here, at once, and the connection
 * closed (what follows on it cannot be trusted to be framed right). True when refused. Measured over
 * every header line as sent, repeated names included.
 */
function refuseLargeHead(res: uWS.HttpResponse, req: uWS.HttpRequest, query: string): boolean {
  const lines: [string, string][] = [];
  req.forEach((k, v) => {
    lines.push([k, v]);
  });
  const bytes = requestHeadBytes(req.getMethod(), req.getUrl(), query, lines);
  if (bytes <= MAX_REQUEST_HEAD_BYTES) return false;
  const forwardedFor = lines.find(([k]) => k === 'x-forwarded-for')?.[1] ?? '';
  const ip = clientAddress(res.getRemoteAddressAsText(), forwardedFor, opts.trustProxy);
  refuse(res, 431, headTooLarge(bytes), {}, true);
  emit({ t: 'refused', limit: 'http_headers_too_large', ip, detail: `${bytes} bytes` });
  return true;
}

app.any(
  '/*',
  contained('http request', (res: uWS.HttpResponse, req: uWS.HttpRequest) => {
    const headers: Record<string, string> = {};
    req.forEach((k, v) => {
      headers[k] = v;
    });
    if (refuseLargeHead(res, req, req.getQuery() ?? '')) return;
    const id = nextRequestId++;
    const pending: PendingHttp = { res, aborted: false, forwarded: false, turn: markTurn() };
    http.set(id, pending);
    const method = req.getMethod().toUpperCase();
    const base = {
      id,
      method,
      url: req.getUrl(),
      rawQuery: req.getQuery() ?? '',
      headers,
      ip: clientAddress(res.getRemoteAddressAsText(), headers['x-forwarded-for'] ?? '', opts.trustProxy),
    };
    const forward = (body: Uint8Array | undefined, tooLarge: boolean) => {
      pending.forwarded = true;
      emit({ t: 'http', req: { ...base, body, tooLarge, aborted: pending.aborted } });
    };
    const abortListeners: (() => void)[] = [];
    res.onAborted(() => {
      pending.aborted = true;
      http.delete(id);
      if (pending.turn === ioTurn) {
        const detail = 'a request sent before the previous answer (HTTP pipelining is not served)';
        emit({ t: 'refused', limit: 'http_pipelined', ip: base.ip, detail });
      }
      for (const cb of abortListeners) cb();
      if (pending.forwarded) emit({ t: 'httpAborted', id });
    });
    if (!BODY_METHODS.has(method) || !hasBody(headers)) {
      forward(undefined, false);
      return;
    }
    const declared = headers['content-length'];
    readBody(
      res,
      declared === undefined ? undefined : Number(declared),
      opts.maxBodyBytes,
      (cb) => abortListeners.push(cb),
      opts.bodyTimeoutMs,
    ).then(
      (body) => forward(new Uint8Array(body), false),
      (err: unknown) => {
        if (!pending.aborted && err instanceof BodyTimeout) {
          // Slow body (slowloris): answered here, and the connection closed; main only counts it.
          http.delete(id);
          refuse(res, 408, err.message, {}, true);
          emit({ t: 'refused', limit: 'http_body_timeout', ip: base.ip, detail: err.message });
          return;
        }
        // Too large, or the client went away mid-body (forwarded as aborted: logged, never handled).
        forward(undefined, !pending.aborted);
      },
    );
  }),
);

function hasBody(headers: Record<string, string>): boolean {
  const len = headers['content-length'];
  if (len !== undefined) return len !== '0';
  return headers['transfer-encoding'] !== undefined;
}

function writeReply(reply: NetHttpReply): void {
  const pending = http.get(reply.id);
  if (pending === undefined) return;
  http.delete(reply.id);
  if (pending.aborted) return;
  const { res } = pending;
  res.cork(() => {
    res.writeStatus(`${reply.status} ${statusText(reply.status)}`);
    for (const [k, v] of reply.headers) res.writeHeader(k, v);
    const noBody = reply.status === 204 || reply.status === 304;
    // Bodiless answers, all written with endWithoutBody() and NO argument when the connection stays
    // open: endWithoutBody(undefined) makes uWS write Content-Length: 9223372036854775808 (strict
    // parsers reject it), and endWithoutBody(n) leaves uWS waiting for n body bytes, so it drops the
    // kept-alive connection at the next request. A 204 has no Content-Length (a 304's would have to be
    // the full representation's); a HEAD states GET's length itself. When the connection must close
    // anyway (a request body left unread), uWS's own close path is fine.
    if (noBody && !reply.close) res.endWithoutBody();
    else if (noBody) res.endWithoutBody(0, true);
    else if (reply.head && !reply.close) {
      res.writeHeader('Content-Length', String(byteLength(reply.body)));
      res.endWithoutBody();
    } else if (reply.head) res.endWithoutBody(byteLength(reply.body), true);
    else res.end(reply.body ?? '', reply.close);
  });
}

function byteLength(body: string | Uint8Array | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

const chunks = new FrameChunks();

function writeFrames(batch: Extract<ToNet, { t: 'frames' }>['batch']): void {
  try {
    chunks.accept(batch);
    for (const { id, first, end } of connectionRuns(batch)) {
      const ws = sockets.get(id);
      if (ws === undefined) continue;
      let status = 1;
      // One cork: uWS gathers the writes of one cork into one syscall. It copies what it sends, so a
      // frame joined from several segments may reuse one scratch buffer.
      ws.cork(() => {
        for (let i = first; i < end; i++) {
          status = ws.send(chunks.frame(batch, i), batch.text[i] !== 1);
          if (status === 2) break;
        }
      });
      // 2 = dropped at uWS's own cap. Either way the client cannot keep up: cut it off rather than let
      // its buffer (and the server's memory) grow.
      if (status === 2 || ws.getBufferedAmount() > opts.maxBufferedBytes) {
        closeSocket(ws, CLOSE_TOO_SLOW, 'send buffer full: client too slow');
      }
    }
  } finally {
    // Written (uWS copied every frame), or given up on: the chunks go back either way.
    post({ t: 'chunksFree', chunks: batch.used });
  }
}

let listenSocket: uWS.us_listen_socket | null = null;

port.on(
  'message',
  contained('message from main', (m: ToNet) => {
    switch (m.t) {
      case 'frames':
        writeFrames(m.batch);
        break;
      case 'close': {
        const ws = sockets.get(m.id);
        if (ws !== undefined) closeSocket(ws, m.code, m.reason);
        break;
      }
      case 'http':
        writeReply(m.reply);
        break;
      case 'stopAccepting':
        accepting = false;
        if (listenSocket !== null) uWS.us_listen_socket_close(listenSocket);
        listenSocket = null;
        break;
      case 'stop':
        accepting = false;
        if (listenSocket !== null) uWS.us_listen_socket_close(listenSocket);
        listenSocket = null;
        for (const ws of [...sockets.values()]) closeSocket(ws, 1001, 'server shutting down');
        // Present in this uWS build but not in its typings: closes the remaining HTTP keep-alive sockets.
        (app as unknown as { close?: () => void }).close?.();
        // Let uWS flush the close frames, then report (events first: the closes above).
        setImmediate(() => {
          flushEvents();
          post({ t: 'stopped' });
        });
        break;
    }
  }),
);

app.listen(opts.host, opts.port, (token) => {
  if (!token) {
    post({ t: 'listenFailed', message: `cannot listen on ${opts.host}:${opts.port} (port in use?)` });
    return;
  }
  listenSocket = token;
  post({ t: 'listening', port: uWS.us_socket_local_port(token as unknown as uWS.us_socket) });
});
