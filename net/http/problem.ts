import { STATUS_CODES } from 'node:http';
import type { ProblemCode } from './types.ts';

/** RFC 9457 problem body with the contract's machine-readable `code` (contract §3.1). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** A stable URN per code: clients switch on `code`; `type` stays a valid URI without a docs host. */
export function problemType(code: ProblemCode): string {
  return `urn:hyperscape:problem:${code.toLowerCase().replaceAll('_', '-')}`;
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}

export function problem(status: number, code: ProblemCode, detail: string): Problem {
  return { type: problemType(code), title: statusText(status), status, detail, code };
}
