import { isIP } from 'node:net';

/**
 * The client address of contract §3.3: the socket's, or the first X-Forwarded-For entry when the
 * operator says a proxy sits in front (TRUST_PROXY). Without that flag the header is ignored, or any
 * client could pick its own rate-limit bucket.
 */
export function clientAddress(socketAddress: ArrayBuffer, forwardedFor: string, trustProxy: boolean): string {
  if (trustProxy && forwardedFor !== '') {
    const first = forwardedFor.split(',', 1)[0]!.trim();
    if (isIP(first) !== 0) return normalizeIp(first);
  }
  return normalizeIp(Buffer.from(socketAddress).toString('latin1'));
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, or uWS's long hex form) becomes plain IPv4; IPv6 lower-cased. */
export function normalizeIp(ip: string): string {
  const s = ip.toLowerCase();
  const dotted = /^(?:0{1,4}:){0,5}(?::)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (dotted) return dotted[1]!;
  const hex =
    /^(?:0{1,4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(s) ??
    /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(s);
  if (hex) {
    const hi = Number.parseInt(hex[1]!, 16);
    const lo = Number.parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return s;
}
