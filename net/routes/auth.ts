import { z } from 'zod';
import type { PersistencePort } from '../../persistence/port.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { parseBody } from '../auth/http-input.ts';
import { generateGuestName } from '../auth/names.ts';
import { forbidden, HttpError, type RouteDef } from '../http/types.ts';

/**
 * POST /api/auth/login and POST /api/auth/anonymous (contract §3.2). Public, in the 10-a-minute
 * authentication rate-limit class. Both answer `{token, accountId, expiresAt}`.
 */

const loginBody = z.object({ idpToken: z.string().min(1).max(8192) });

export interface AuthRouteDeps {
  authenticator: Authenticator;
  port: Pick<PersistencePort, 'createAnonymousUser'>;
}

export function authRoutes({ authenticator, port }: AuthRouteDeps): RouteDef[] {
  const tokens = authenticator.tokens;
  return [
    {
      method: 'POST',
      path: '/api/auth/login',
      auth: 'none',
      rateLimit: 'auth',
      handler: async (req) => {
        const { idpToken } = parseBody(loginBody, req.body);
        if (authenticator.anonymousMode) {
          throw new HttpError(
            401,
            'UNAUTHORIZED',
            'No identity provider is configured: use /api/auth/anonymous',
          );
        }
        const outcome = await authenticator.loginWithIdp(idpToken);
        if (!outcome.ok) {
          if (outcome.reason === 'banned') throw forbidden('This account is banned');
          throw new HttpError(401, 'UNAUTHORIZED', 'The identity-provider token is not valid');
        }
        const issued = await tokens.issue(outcome.auth.accountId, outcome.auth.anonymous);
        return {
          body: {
            token: issued.token,
            accountId: outcome.auth.accountId,
            expiresAt: issued.expiresAt.toISOString(),
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/api/auth/anonymous',
      auth: 'none',
      rateLimit: 'auth',
      handler: async () => {
        if (!authenticator.anonymousMode) {
          throw forbidden('Anonymous accounts are only available when no identity provider is configured');
        }
        const user = await port.createAnonymousUser(generateGuestName());
        const issued = await tokens.issue(user.id, true);
        return {
          body: { token: issued.token, accountId: user.id, expiresAt: issued.expiresAt.toISOString() },
        };
      },
    },
  ];
}
