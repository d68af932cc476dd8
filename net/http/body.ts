import type uWS from 'uWebSockets.js';
import { jsonTextDepth, MAX_JSON_DEPTH, TOO_DEEP } from '../../lib/json-limits.ts';
import { HttpError } from './types.ts';

/**
 * Reads a request body with a byte limit (413 on the declared Content-Length first, then on the
 * streamed count: a client can lie about or omit the header). uWS neuters each chunk when the
 * callback returns, so every chunk is copied.
 */
export function readBody(
  res: uWS.HttpResponse,
  contentLength: number | undefined,
  maxBytes: number,
  onAbort: (cb: () => void) => void,
  timeoutMs?: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let aborted = false;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const fail = (err: Error) => {
      done = true;
      clearTimeout(timer);
      reject(err);
    };
    // A client that disconnects mid-body must not leave the request waiting forever.
    onAbort(() => {
      aborted = true;
      fail(new Error('request aborted'));
    });
    if (contentLength !== undefined && contentLength > maxBytes) {
      fail(tooLarge(maxBytes));
      return;
    }
    // A body trickled in a byte at a time (slowloris) would hold the request open: a deadline for all of it.
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        if (!done && !aborted) fail(new BodyTimeout(timeoutMs));
      }, timeoutMs);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    res.onData((chunk, isLast) => {
      if (done || aborted) return;
      total += chunk.byteLength;
      if (total > maxBytes) {
        fail(tooLarge(maxBytes));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        clearTimeout(timer);
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
      }
    });
  });
}

/** The body did not arrive within the deadline: answered 408 REQUEST_TIMEOUT, connection closed. */
export class BodyTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The request body was not received within ${timeoutMs / 1000} s`);
    this.name = 'BodyTimeout';
  }
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`);
}

/**
 * Parse a JSON body; empty means undefined; anything malformed is 400, and so is a body nested deeper than
 * MAX_JSON_DEPTH, measured before parsing: a deep value is refused here rather than overflowing the
 * stack later, when a reply, a stored row or a tick encodes it again.
 */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.byteLength === 0) return undefined;
  if (jsonTextDepth(raw) > MAX_JSON_DEPTH) {
    throw new HttpError(400, 'BAD_REQUEST', `The request body is ${TOO_DEEP}`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'The request body is not valid JSON');
  }
}
