import { z } from 'zod';
import { type AuthContext, badRequest, unauthorized } from '../http/types.ts';

/** Small helpers the identity routes share: body validation with clear 400s, and the bearer context. */

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue !== undefined && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw badRequest(`Invalid request body: ${where}${issue?.message ?? 'does not match the schema'}`);
  }
  return parsed.data;
}

/** The route's bearer context; the transport guarantees it on `auth: 'bearer'` routes. */
export function authOf(req: { auth: AuthContext | undefined }): AuthContext {
  if (req.auth === undefined) throw unauthorized();
  return req.auth;
}

/** Path ids: the same bounds as wire ids. */
export const pathId = z.string().min(1).max(128);

export function param(req: { params: Readonly<Record<string, string>> }, name: string): string {
  const value = req.params[name];
  const parsed = pathId.safeParse(value);
  if (!parsed.success) throw badRequest(`Invalid path parameter "${name}"`);
  return parsed.data;
}
