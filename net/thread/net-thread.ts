import type { Worker } from 'node:worker_threads';
import type { Logger } from '../../lib/logger.ts';
import type { ServerMetrics } from '../../lib/metrics.ts';
import type { ChunkSource } from '../replication/msgpack-entity.ts';
import { encodeFailureReporter } from '../ws/encode-failures.ts';
import type { WsApp, WsConnection } from '../ws/types.ts';
import { FrameBatchWriter } from './frame-batch.ts';
import type { FromNet, NetEvent, NetHttpReply, NetHttpRequest, NetWorkerData, ToNet } from './messages.ts';
import { type ConnectionLink, RemoteConnection } from './remote-connection.ts';
import { handNetWorkerData, startNetWorker } from './start-worker.ts';

/**
 * Starts the network thread (net-worker.ts) and connects it to the game: socket events go to the WsApp,
 * HTTP requests to `http`, and whatever the game sends leaves in one batch per turn of the event loop
 * (so a tick's frames for every connection cross to the network thread in one message, right after the
 * tick).
 */

export interface NetThreadOptions {
  data: NetWorkerData;
  /** The worker started ahead without its options (start-worker.ts); started here when absent. */
  worker?: Worker;
  ws: WsApp;
  /** Answers a request; `aborted()` tells whether the client went away meanwhile. */
  http: (req: NetHttpRequest, aborted: () => boolean) => Promise<NetHttpReply>;
  logger: Logger;
  metrics: ServerMetrics;
}

export interface WsTransport {
  readonly connections: ReadonlySet<WsConnection>;
  /** Refuse new connections from now on (shutdown). */
  stopAccepting(): void;
  /** Close every open connection with `code` (1001 on shutdown). */
  closeAll(code: number, reason: string): void;
}

export interface NetThread {
  port: number;
  ws: WsTransport;
  /** Shared memory the network thread can read: replication encodes into it (FragmentCache.shareArena). */
  chunks: ChunkSource;
  /** Close the sockets left, stop listening and end the thread; idempotent. */
  stop(): Promise<void>;
}

export async function startNetThread(opts: NetThreadOptions): Promise<NetThread> {
  const { logger } = opts;
  const { wsMessagesOut, wsBytesOut, wsConnections, wsClosed, limitRefusals, wsMessagesIn } = opts.metrics;
  const encodeFailed = encodeFailureReporter(logger, opts.metrics.encodeFailures);
  let worker: Worker;
  if (opts.worker === undefined) worker = startNetWorker(opts.data);
  else {
    worker = opts.worker;
    handNetWorkerData(worker, opts.data);
  }
  const conns = new Map<number, RemoteConnection>();
  // HTTP requests being answered, and those of them whose client went away meanwhile.
  const inflight = new Set<number>();
  const aborted = new Set<number>();
  const writer = new FrameBatchWriter();
  let flushScheduled = false;
  let exited = false;
  let onStopped: (() => void) | undefined;

  const post = (m: ToNet, transfer: ArrayBuffer[] = []) => {
    if (!exited) worker.postMessage(m, transfer);
  };
  const flush = () => {
    flushScheduled = false;
    const frames = writer.count;
    const batch = writer.take();
    if (batch === null) return;
    wsMessagesOut.inc(frames);
    wsBytesOut.inc(writer.bytes);
    writer.bytes = 0;
    const { ids, chunk, start, end, text, firstSegment } = batch;
    post({ t: 'frames', batch }, [
      ids.buffer,
      firstSegment.buffer,
      chunk.buffer,
      start.buffer,
      end.buffer,
      text.buffer,
    ] as ArrayBuffer[]);
  };

  const link: ConnectionLink = {
    queue(connId, frame) {
      writer.add(connId, frame);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
    close(connId, code, reason) {
      flush();
      post({ t: 'close', id: connId, code, reason });
    },
    closed(conn, code) {
      if (conn.closed) return;
      conn.closed = true;
      conns.delete(conn.id);
      wsConnections.dec();
      wsClosed.inc({ code: String(code) });
      if (code === 4029) {
        limitRefusals.inc({ limit: 'ws_message_rate' });
        logger.warn({ connection: conn.id, ip: conn.ip, limit: 'ws_message_rate' }, 'limit reached');
      }
      guard(logger, conn, 'onClose', () => opts.ws.onClose(conn, code));
    },
    encodeFailed(conn, event, err) {
      encodeFailed(event, err, { connection: conn.id });
    },
  };

  // A refusal is logged once a minute per address and limit: a client hammering a limit cannot flood
  // the log (the metric still counts every refusal).
  const lastLogged = new Map<string, number>();
  const firstInWindow = (key: string): boolean => {
    const now = Date.now();
    const last = lastLogged.get(key);
    if (last !== undefined && now - last < 60_000) return false;
    if (lastLogged.size >= 10_000) lastLogged.clear();
    lastLogged.set(key, now);
    return true;
  };

  const onEvent = (e: NetEvent) => {
    switch (e.t) {
      case 'open': {
        const conn = new RemoteConnection(e.id, e.ip, e.encoding, new URLSearchParams(e.query), link);
        conns.set(e.id, conn);
        wsConnections.inc();
        guard(logger, conn, 'onOpen', () => opts.ws.onOpen(conn));
        break;
      }
      case 'message': {
        const conn = conns.get(e.id);
        if (conn === undefined || conn.closed) break;
        const ok = guard(logger, conn, 'onMessage', () => opts.ws.onMessage(conn, e.message));
        if (!ok) conn.send('error', { code: 'INTERNAL', message: 'internal error', event: e.message.event });
        break;
      }
      case 'close': {
        const conn = conns.get(e.id);
        if (conn !== undefined && e.invalidUtf8 && firstInWindow(`invalid_utf8 ${conn.ip}`)) {
          const line = { connection: conn.id, ip: conn.ip, code: e.code };
          logger.warn(line, 'connection failed: a text frame was not valid UTF-8');
        }
        if (conn !== undefined) link.closed(conn, e.code);
        break;
      }
      case 'http': {
        const id = e.req.id;
        if (e.req.aborted) aborted.add(id);
        inflight.add(id);
        opts
          .http(e.req, () => aborted.has(id))
          .then(
            (reply) => {
              inflight.delete(id);
              if (!aborted.delete(id)) post({ t: 'http', reply });
            },
            (err: unknown) => {
              inflight.delete(id);
              aborted.delete(id);
              logger.error({ err }, 'http request failed outside the pipeline');
            },
          );
        break;
      }
      case 'httpAborted':
        if (inflight.has(e.id)) aborted.add(e.id);
        break;
      case 'refused':
        limitRefusals.inc({ limit: e.limit });
        if (firstInWindow(`${e.limit} ${e.ip}`)) {
          logger.warn({ ip: e.ip, limit: e.limit, detail: e.detail }, 'limit reached');
        }
        break;
    }
  };

  const listening = new Promise<number>((resolve, reject) => {
    worker.on('message', (m: FromNet) => {
      switch (m.t) {
        case 'listening':
          resolve(m.port);
          break;
        case 'listenFailed':
          reject(new Error(m.message));
          break;
        case 'events':
          if (m.counts.ok > 0) wsMessagesIn.inc({ result: 'ok' }, m.counts.ok);
          if (m.counts.bad > 0) wsMessagesIn.inc({ result: 'bad' }, m.counts.bad);
          if (m.counts.tooBig > 0) wsMessagesIn.inc({ result: 'too_big' }, m.counts.tooBig);
          if (m.counts.rateLimited > 0) wsMessagesIn.inc({ result: 'rate_limited' }, m.counts.rateLimited);
          if (m.counts.invalidUtf8 > 0) wsMessagesIn.inc({ result: 'invalid_utf8' }, m.counts.invalidUtf8);
          for (const e of m.events) onEvent(e);
          break;
        case 'chunksFree':
          writer.recycle(m.chunks);
          break;
        case 'fault':
          // Contained there (the thread keeps serving); loud here, where the logs are.
          logger.error(
            { where: m.where, err: { message: m.message, stack: m.stack } },
            'network thread error',
          );
          break;
        case 'stopped':
          onStopped?.();
          break;
      }
    });
    worker.on('error', (err) => {
      logger.error({ err }, 'network thread failed');
      reject(err);
    });
    worker.on('exit', (code) => {
      exited = true;
      onStopped?.();
      if (code !== 0) reject(new Error(`network thread exited with code ${code}`));
    });
  });

  let port: number;
  try {
    port = await listening;
  } catch (err) {
    await worker.terminate();
    throw err;
  }

  const ws: WsTransport = {
    get connections() {
      return new Set<WsConnection>(conns.values());
    },
    stopAccepting: () => post({ t: 'stopAccepting' }),
    closeAll(code, reason) {
      for (const c of [...conns.values()]) c.close(code, reason);
    },
  };

  let stopped: Promise<void> | undefined;
  return {
    port,
    ws,
    chunks: writer,
    stop() {
      stopped ??= (async () => {
        flush();
        const done = new Promise<void>((resolve) => {
          onStopped = resolve;
        });
        post({ t: 'stop' });
        const timeout = setTimeout(() => void worker.terminate(), 5_000);
        await done;
        clearTimeout(timeout);
        await worker.terminate();
      })();
      return stopped;
    },
  };
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
