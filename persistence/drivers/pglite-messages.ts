/** Messages between the main thread's PGlite client and the worker that owns the PGlite instance. */

export type PgliteRequest =
  | { id: number; op: 'query'; text: string; params: unknown[]; tx: number | null }
  | { id: number; op: 'exec'; text: string; tx: number | null }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' };

export type PgliteResponse =
  | { id: number; ok: true; rows?: unknown[]; tx?: number }
  | { id: number; ok: false; message: string; code?: string };

export interface PgliteWorkerData {
  dataDir: string;
}
