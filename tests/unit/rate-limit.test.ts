import { describe, expect, it } from 'vitest';
import { FixedWindowCounter, HttpRateLimits, tokenKey } from '../../net/http/rate-limit.ts';
import { MessageRateLimiter } from '../../net/ws/message-rate.ts';

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('FixedWindowCounter', () => {
  it('allows `limit` hits per window, refuses the next until the window ends', () => {
    const c = clock();
    const w = new FixedWindowCounter(3, 60_000, c.now);
    expect([1, 2, 3].map(() => w.hit('a').allowed)).toEqual([true, true, true]);
    const refused = w.hit('a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60 });
    c.t += 59_000;
    expect(w.hit('a')).toMatchObject({ allowed: false, resetSeconds: 1 });
    c.t += 1_000;
    expect(w.hit('a')).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('counts addresses separately', () => {
    const w = new FixedWindowCounter(1, 60_000, clock().now);
    expect(w.hit('a').allowed).toBe(true);
    expect(w.hit('b').allowed).toBe(true);
    expect(w.hit('a').allowed).toBe(false);
  });

  it('stays bounded under many distinct addresses: sweeps ended windows, evicts the oldest at the cap', () => {
    const c = clock();
    const w = new FixedWindowCounter(100, 60_000, c.now, 1000);
    for (let i = 0; i < 5000; i++) w.hit(`10.0.${i >> 8}.${i & 255}`);
    expect(w.size).toBe(1000);
    c.t += 60_000;
    w.sweep();
    expect(w.size).toBe(0);
  });

  it('sweep keeps buckets whose window is still running', () => {
    const c = clock();
    const w = new FixedWindowCounter(10, 60_000, c.now);
    w.hit('old');
    c.t += 30_000;
    w.hit('new');
    c.t += 30_000;
    w.sweep();
    expect(w.size).toBe(1);
    expect(w.peek('new').remaining).toBe(9);
  });
});

describe('HttpRateLimits (contract §3.3)', () => {
  it('REST: 100 a minute, then refused with Retry-After and RateLimit-* headers', () => {
    const c = clock();
    const l = new HttpRateLimits(false, c.now, { sweepEveryMs: 0 });
    for (let i = 1; i <= 100; i++) {
      const d = l.check('1.2.3.4', 'rest');
      expect(d.kind).toBe('allowed');
      if (d.kind === 'allowed') expect(d.headers['RateLimit-Remaining']).toBe(String(100 - i));
    }
    c.t += 15_000;
    const d = l.check('1.2.3.4', 'rest');
    expect(d).toMatchObject({ kind: 'refused', retryAfterSeconds: 45 });
    expect(l.check('5.6.7.8', 'rest').kind).toBe('allowed');
  });

  it('auth: 10 a minute, counted in the REST window too', () => {
    const l = new HttpRateLimits(false, clock().now, { sweepEveryMs: 0 });
    for (let i = 0; i < 10; i++) expect(l.check('a', 'auth').kind).toBe('allowed');
    const d = l.check('a', 'auth');
    expect(d.kind).toBe('refused');
    if (d.kind === 'refused') expect(d.headers['RateLimit-Limit']).toBe('10');
    expect(l.rest.peek('a').remaining).toBe(89);
  });

  it('none is never counted; disabled counts nothing', () => {
    const l = new HttpRateLimits(false, clock().now, { sweepEveryMs: 0 });
    for (let i = 0; i < 500; i++) expect(l.check('a', 'none').kind).toBe('uncounted');
    const off = new HttpRateLimits(true, clock().now, { sweepEveryMs: 0 });
    for (let i = 0; i < 500; i++) expect(off.check('a', 'auth').kind).toBe('uncounted');
    off.countAuthFailure('a');
    expect(off.isAuthBlocked('a')).toBe(false);
  });

  it('bearer tokens: 120 a minute each, apart from the address and from each other, keyed by a digest', () => {
    const c = clock();
    const l = new HttpRateLimits(false, c.now, { sweepEveryMs: 0 });
    const a = tokenKey('token-a');
    expect(a).not.toContain('token-a');
    expect(tokenKey('token-a')).toBe(a);
    for (let i = 0; i < 120; i++) expect(l.checkToken(a).kind).toBe('allowed');
    expect(l.isTokenBlocked(a)).toBe(true);
    const d = l.checkToken(a);
    expect(d).toMatchObject({ kind: 'refused', by: 'token', first: true });
    expect(l.checkToken(a)).toMatchObject({ kind: 'refused', first: false });
    expect(l.checkToken(tokenKey('token-b')).kind).toBe('allowed');
    expect(l.rest.peek('127.0.0.1').remaining).toBe(100);
    c.t += 60_000;
    expect(l.isTokenBlocked(a)).toBe(false);
    expect(l.checkToken(a).kind).toBe('allowed');
    const off = new HttpRateLimits(true, c.now, { sweepEveryMs: 0 });
    for (let i = 0; i < 150; i++) expect(off.checkToken(a).kind).toBe('uncounted');
    expect(off.isTokenBlocked(a)).toBe(false);
  });

  it('countAuthFailure shares the auth window with HTTP logins', () => {
    const l = new HttpRateLimits(false, clock().now, { sweepEveryMs: 0 });
    for (let i = 0; i < 9; i++) l.countAuthFailure('a');
    expect(l.isAuthBlocked('a')).toBe(false);
    expect(l.check('a', 'auth').kind).toBe('allowed');
    expect(l.isAuthBlocked('a')).toBe(true);
    expect(l.check('a', 'auth').kind).toBe('refused');
    expect(l.isAuthBlocked('b')).toBe(false);
  });
});

describe('MessageRateLimiter (contract §1.3)', () => {
  it('passes 60 a second, drops the rest with one notice per second', () => {
    const c = clock(0);
    const r = new MessageRateLimiter(c.now);
    const verdicts = Array.from({ length: 100 }, () => r.accept());
    expect(verdicts.filter((v) => v === 'pass').length).toBe(60);
    expect(verdicts[60]).toBe('drop-notify');
    expect(verdicts.slice(61).every((v) => v === 'drop')).toBe(true);
    c.t = 1000;
    expect(r.accept()).toBe('pass');
  });

  /** Sends `perTick` messages every 10 ms from `from` for `ms`; returns the time of the first close. */
  function flood(c: { t: number }, r: MessageRateLimiter, from: number, ms: number, perTick: number) {
    for (let t = from; t < from + ms; t += 10) {
      c.t = t;
      for (let i = 0; i < perTick; i++) if (r.accept() === 'close') return t;
    }
    return null;
  }

  it.each([0, 300, 900, 990])(
    'a flood at over twice the limit starting %i ms into a window is closed after 3 s, not before',
    (start) => {
      const c = clock(0);
      const r = new MessageRateLimiter(c.now);
      // 2 messages every 10 ms: 200 a second.
      const closedAt = flood(c, r, start, 10_000, 2);
      expect(closedAt).not.toBeNull();
      const after = (closedAt as number) - start;
      expect(after).toBeGreaterThanOrEqual(3000);
      // The streak starts once the trailing second holds over 120: within the flood's first second.
      expect(after).toBeLessThanOrEqual(4000);
    },
  );

  it('a flood of 2.9 s, a quiet second, another 2.9 s: never closed', () => {
    const c = clock(0);
    const r = new MessageRateLimiter(c.now);
    expect(flood(c, r, 500, 2900, 5)).toBeNull();
    expect(flood(c, r, 4500, 2900, 5)).toBeNull();
  });

  it('exactly twice the limit, sustained, is dropped but never closed', () => {
    const c = clock(0);
    const r = new MessageRateLimiter(c.now);
    // 12 every 100 ms = 120 a second.
    for (let t = 0; t < 20_000; t += 100) {
      c.t = t;
      for (let i = 0; i < 12; i++) expect(r.accept()).not.toBe('close');
    }
  });

  it('a dip to the limit in between resets the streak', () => {
    const c = clock(0);
    const r = new MessageRateLimiter(c.now);
    expect(flood(c, r, 0, 2500, 3)).toBeNull();
    // 1 every 20 ms (50 a second) for 1.2 s: the trailing second falls below 120.
    for (let t = 2500; t < 3700; t += 20) {
      c.t = t;
      expect(r.accept()).not.toBe('close');
    }
    expect(flood(c, r, 3700, 2500, 3)).toBeNull();
  });
});
