import type uWS from 'uWebSockets.js';
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
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let aborted = false;
    // A client that disconnects mid-body must not leave the request waiting forever.
    onAbort(() => {
      aborted = true;
      reject(new Error('request aborted'));
    });
    if (contentLength !== undefined && contentLength > maxBytes) {
      reject(tooLarge(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    res.onData((chunk, isLast) => {
      if (done || aborted) return;
      total += chunk.byteLength;
      if (total > maxBytes) {
        done = true;
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
      }
    });
  });
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`);
}

/** Parse a JSON body; empty means undefined; anything malformed is 400 (contract §3.1). */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.byteLength === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'The request body is not valid JSON');
  }
}
