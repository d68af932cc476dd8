import { z } from 'zod';
import { isDatabaseUnavailable } from '../../persistence/sql.ts';
import { PROBLEM_CONTENT_TYPE, problem } from './problem.ts';
import { HttpError, type HttpResponse, type ProblemCode } from './types.ts';

/** A fully computed response (the network thread writes it in one corked call). */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** Close the connection after writing (e.g. a 413 whose body is still streaming in). */
  close?: boolean;
  /** The HttpError or exception behind a 5xx, for the log line only. */
  error?: unknown;
}

export function problemReply(
  status: number,
  code: ProblemCode,
  detail: string,
  headers: Record<string, string> = {},
): Reply {
  return {
    status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headers },
    body: JSON.stringify(problem(status, code, detail)),
  };
}

/** Seconds a client is asked to wait after a 503 for an unreachable database (the health probe's period). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Map anything a handler threw to a problem: HttpError as given, zod errors 400, an unreachable database
 * 503 (for every route, here and nowhere else), the rest a bare 500.
 */
export function errorReply(err: unknown): Reply {
  if (err instanceof HttpError) {
    const r = problemReply(err.status, err.code, err.detail, err.headers);
    if (err.status === 413) r.close = true;
    return r;
  }
  if (err instanceof z.ZodError) return problemReply(400, 'BAD_REQUEST', z.prettifyError(err));
  if (isDatabaseUnavailable(err)) {
    const r = problemReply(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly', {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    });
    return { ...r, error: err };
  }
  // Never the message or the stack: they may hold internals (contract §3.1).
  return { ...problemReply(500, 'INTERNAL', 'An internal error occurred'), error: err };
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((k) => k.toLowerCase() === lower);
}

/** Turn a handler's HttpResponse into a Reply: objects become JSON, strings and bytes pass through. */
export function handlerReply(r: HttpResponse): Reply {
  const headers = { ...(r.headers ?? {}) };
  const status = r.status ?? 200;
  let body: string | Uint8Array | undefined;
  if (r.body === undefined || r.body === null) {
    body = undefined;
  } else if (typeof r.body === 'string') {
    body = r.body;
    if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'text/plain; charset=utf-8';
  } else if (r.body instanceof Uint8Array) {
    body = r.body;
    if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/octet-stream';
  } else {
    body = JSON.stringify(r.body);
    if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json; charset=utf-8';
  }
  return { status, headers, body };
}
