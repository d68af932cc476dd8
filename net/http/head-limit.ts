/**
 * The cap on a request's line and headers (4 KiB). uWebSockets enforces it only on a head that arrives in
 * several TCP reads: it buffers at most 4 KiB of an incomplete head and drops the connection past that,
 * without an answer (there is no hook). A head that arrives in one read is handed over whole, whatever its
 * size, so the network thread measures it and answers 431 itself.
 */
export const MAX_REQUEST_HEAD_BYTES = 4 * 1024;

/**
 * Bytes of the request line and header block as sent: `METHOD /path?query HTTP/1.1\r\n`, then
 * `name: value\r\n` per header line (a repeated name once per line), then `\r\n`. (Header values are
 * Latin-1 on the wire: one byte a char.)
 */
export function requestHeadBytes(
  method: string,
  url: string,
  query: string,
  headers: readonly (readonly [string, string])[],
): number {
  let n = method.length + 1 + url.length + (query.length > 0 ? query.length + 1 : 0) + 11;
  for (const [name, value] of headers) n += name.length + 2 + value.length + 2;
  return n + 2;
}

export const headTooLarge = (bytes: number) =>
  `The request line and headers are ${bytes} bytes; at most ${MAX_REQUEST_HEAD_BYTES} are accepted`;
