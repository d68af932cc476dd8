/** Two 32-bit FNV/murmur-style accumulators: a cheap, stable fingerprint for determinism checks. */
export class Hasher {
  private h1 = 0x811c9dc5;
  private h2 = 0x01000193;

  int(n: number): void {
    this.h1 = Math.imul(this.h1 ^ (n | 0), 0x01000193) >>> 0;
    this.h2 = Math.imul(this.h2 ^ (n | 0), 0x5bd1e995) >>> 0;
    this.h2 = (this.h2 ^ (this.h2 >>> 15)) >>> 0;
  }

  /** A number that may be fractional or large: mixed as its exact decimal text. */
  num(n: number): void {
    if (Number.isInteger(n) && Math.abs(n) < 2 ** 31) this.int(n);
    else this.str(String(n));
  }

  str(s: string): void {
    this.int(s.length);
    for (let i = 0; i < s.length; i++) this.int(s.charCodeAt(i));
  }

  /** A plain value (stacks, offers) by its JSON text. */
  json(v: unknown): void {
    this.str(JSON.stringify(v) ?? 'undefined');
  }

  digest(): string {
    return this.h1.toString(16).padStart(8, '0') + this.h2.toString(16).padStart(8, '0');
  }
}
