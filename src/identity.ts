import type { CharacterState } from '../ecs/core/character-state.ts';
import type { SimContent } from '../ecs/core/content.ts';
import { entityCounts, type GameWorld, snapshotCharacter } from '../ecs/core/world.ts';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { ServerMetrics } from '../lib/metrics.ts';
import { AgentService, type AgentWorld } from '../net/agents/service.ts';
import { Authenticator } from '../net/auth/authenticator.ts';
import { AccountCharacters, type CharacterContent } from '../net/auth/characters.ts';
import { createIdpVerifier } from '../net/auth/idp.ts';
import { resolveJwtSecret, SessionTokens } from '../net/auth/session-tokens.ts';
import type { AuthContext, RouteDef } from '../net/http/types.ts';
import { agentRoutes } from '../net/routes/agents.ts';
import { authRoutes } from '../net/routes/auth.ts';
import { characterManagementRoutes } from '../net/routes/character-management.ts';
import { characterRoutes } from '../net/routes/characters.ts';
import { playerRoutes } from '../net/routes/player.ts';
import { playerDataRoutes } from '../net/routes/player-data.ts';
import { templateRoutes } from '../net/routes/templates.ts';
import { type LiveWorld, worldRoutes } from '../net/routes/world.ts';
import { AdminGate, type AuthAttemptLimiter } from '../net/session/admin.ts';
import { SessionRegistry } from '../net/session/registry.ts';
import type { WorldLocks } from '../net/session/world-locks.ts';
import { createSessionApp, type SaveWaiter, type WorldGate } from '../net/session/ws-app.ts';
import type { WsApp } from '../net/ws/types.ts';
import type { PersistencePort } from '../persistence/port.ts';
import type { ContentRegistry } from '../world/registry.ts';
import type { AreaDef } from '../world/schemas/areas.ts';

/**
 * Wiring of the identity part: token verification, the bearer hook, the account/character route groups
 * and the WebSocket session app. main.ts passes `routes`, `verifyBearer` and `ws` to startServer, and
 * gives the world runtime `registry` as its Delivery.
 */

export interface IdentityContent extends CharacterContent {
  readonly areas: ReadonlyMap<string, AreaDef & { readonly group: string }>;
}

export interface IdentityDeps {
  config: Config;
  logger: Logger;
  port: PersistencePort;
  saves: SaveWaiter;
  content: IdentityContent;
  world: WorldGate;
  live: LiveWorld;
  /** The server's HttpRateLimits: wrong /admin codes count against the authentication window. */
  limiter: AuthAttemptLimiter;
  metrics: Pick<ServerMetrics, 'limitRefusals'>;
  /** The world as the agent routes read it; without it (tests with a fake world) nothing is nearby. */
  agentWorld?: Pick<AgentWorld, 'surroundings'>;
  /** The world a character is in, in any world of the game (what presence said). */
  onlineWorld: (characterId: string) => number | undefined;
  /** Several worlds: the character holds a login takes (net/session/world-locks.ts). */
  worldLocks?: Pick<WorldLocks, 'claim' | 'release'>;
}

export interface Identity {
  routes: RouteDef[];
  verifyBearer: (token: string) => Promise<AuthContext | null>;
  ws: WsApp & { idle(): Promise<void> };
  registry: SessionRegistry;
  authenticator: Authenticator;
  characters: AccountCharacters;
  agents: AgentService;
}

export async function createIdentity(deps: IdentityDeps): Promise<Identity> {
  const { config, logger, port, live } = deps;
  const secret = await resolveJwtSecret(config);
  // The source only: the secret itself is never logged.
  logger.info({ source: secret.source }, 'session token secret ready');
  const tokens = await SessionTokens.fromSecret(secret.secret);
  const idp = await createIdpVerifier(config.auth.idp);
  logger.info({ anonymousMode: idp === undefined }, idp ? 'identity provider configured' : 'anonymous mode');
  const authenticator = new Authenticator(port, tokens, idp);
  const characters = new AccountCharacters(port, deps.content);
  const registry = new SessionRegistry();
  const agents = new AgentService({
    port,
    world: {
      enqueue: (cmd) => deps.world.enqueue(cmd),
      liveCharacter: (id) => live.liveCharacter(id),
      surroundings: deps.agentWorld
        ? (x, z, self) => (deps.agentWorld as Pick<AgentWorld, 'surroundings'>).surroundings(x, z, self)
        : () => ({ nearbyLocations: [], availableGoals: [] }),
    },
    connections: registry,
    onError: (err, what) => logger.error({ err }, what),
  });
  const routes: RouteDef[] = [
    ...authRoutes({ authenticator, port }),
    ...playerRoutes({ characters, port, live }),
    ...worldRoutes({ live, content: deps.content }),
    ...characterRoutes({ characters, port, live }),
    ...characterManagementRoutes({ characters, port, live }),
    ...templateRoutes({ templates: deps.content.templates }),
    ...playerDataRoutes({
      characters,
      port,
      live,
      onlineWorld: deps.onlineWorld,
    }),
    ...agentRoutes({ agents, port }),
  ];
  const ws = createSessionApp({
    authenticator,
    characters,
    port,
    saves: deps.saves,
    world: deps.world,
    registry,
    admin: new AdminGate(config.auth.adminCode, deps.limiter),
    limiter: deps.limiter,
    authTimeoutMs: config.auth.wsAuthTimeoutMs,
    maxUnauthenticated: config.limits.wsUnauthenticated,
    logger,
    metrics: deps.metrics,
    agents,
    ...(deps.worldLocks ? { worldLocks: deps.worldLocks } : {}),
  });
  return {
    routes,
    verifyBearer: authenticator.verifyBearer,
    ws,
    registry,
    authenticator,
    characters,
    agents,
  };
}

/** The content the identity part reads: templates and areas from the registry, spawn and items from SimContent. */
export function identityContent(registry: ContentRegistry, sim: SimContent): IdentityContent {
  return { templates: registry.templates, areas: registry.areas, spawn: sim.spawn, items: sim.items };
}

/**
 * LiveWorld over the running GameWorld, for the composition root. HTTP handlers run between ticks on
 * the same thread, so these reads never see a half-applied tick; they copy, never hand out world state.
 */
export function gameLiveWorld(world: GameWorld): LiveWorld {
  return {
    summary: () => ({
      tick: world.tick,
      playersOnline: world.players.size,
      entities: entityCounts(world),
    }),
    liveCharacter: (characterId: string): CharacterState | null => {
      const player = world.players.get(characterId);
      return player === undefined ? null : snapshotCharacter(world, player);
    },
  };
}
