import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The `/admin <code>` check (contract §2.4): a constant-time comparison with ADMIN_CODE, and wrong codes
 * counted against the address's authentication limit, so the code cannot be guessed faster than logins.
 */

/** The authentication-attempt window shared with /api/auth/* (HttpRateLimits implements it). */
export interface AuthAttemptLimiter {
  countAuthFailure(ip: string): void;
  isAuthBlocked(ip: string): boolean;
}

export type AdminCheck = 'granted' | 'wrong' | 'blocked' | 'disabled';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class AdminGate {
  private readonly expected: Buffer | undefined;

  constructor(
    adminCode: string | undefined,
    private readonly limiter: AuthAttemptLimiter,
  ) {
    // Only the digest is kept: equal lengths for timingSafeEqual whatever the attempt's length.
    this.expected = adminCode === undefined || adminCode === '' ? undefined : digest(adminCode);
  }

  check(ip: string, attempt: string): AdminCheck {
    if (this.limiter.isAuthBlocked(ip)) return 'blocked';
    if (this.expected === undefined) {
      this.limiter.countAuthFailure(ip);
      return 'disabled';
    }
    if (timingSafeEqual(digest(attempt), this.expected)) return 'granted';
    this.limiter.countAuthFailure(ip);
    return 'wrong';
  }
}
