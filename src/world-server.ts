import { HttpRateLimits } from '../net/http/rate-limit.ts';
import type { ServerEventName, ServerPayload } from '../net/protocol/index.ts';
import type { Delivery } from '../net/session/outbound.ts';
import type { SessionRegistry } from '../net/session/registry.ts';
import { openPersistence } from '../persistence/open.ts';
import type { ItemTransaction } from '../persistence/port.ts';
import { loadContent } from '../world/loader.ts';
import { toSimContent } from '../world/sim-content.ts';
import type { Config } from './config.ts';
import { createIdentity } from './identity.ts';
import type { Logger } from './logger.ts';
import { registry as metricsRegistry } from './metrics.ts';
import type { PersistenceSink } from './persistence-handoff.ts';
import { type RunningServer, startServer } from './server.ts';
import { WorldRuntime } from './world-runtime.ts';

/**
 * The whole server with the world running: content -> persistence -> identity (sessions) -> world
 * runtime -> HTTP/WebSocket. A proposal for main.ts's step 5 (the lead owns main.ts); the integration
 * test and bench:load use it until main.ts wires the world.
 */

export interface WorldServer {
  port: number;
  runtime: WorldRuntime;
  server: RunningServer;
  stop(): Promise<void>;
}

export async function startWorldServer(
  config: Config,
  logger: Logger,
  opts: { manifestsDir: string; publicDir?: string },
): Promise<WorldServer> {
  const content = await loadContent(opts.manifestsDir);
  const sim = toSimContent(content);
  const persistence = await openPersistence(config, logger);
  const { port, saves } = persistence;
  const sink: PersistenceSink = {
    itemsChanged: (s) => saves.itemsChanged(s),
    dirty: (s) => saves.dirty(s),
    logout: (s) => saves.logout(s),
    runTransaction: (tx) => saves.runTransaction(tx as ItemTransaction),
    deathLock: (l) => port.createDeathLock(l),
    tradeAudit: (a) => {
      port.recordTradeAudit(a).catch((err: unknown) => logger.error({ err }, 'trade audit failed'));
    },
    flushTick: () => saves.flushTick(),
  };
  // The session registry exists once identity is created, which needs the runtime: deliver through it late.
  let sessions: SessionRegistry | undefined;
  const delivery: Delivery = {
    send: (id, event: ServerEventName, payload: ServerPayload<ServerEventName>) =>
      sessions?.send(id, event, payload),
    sendRaw: (id, frame) => sessions?.sendRaw(id, frame),
    connection: (id) => sessions?.connection(id),
  };
  const runtime = new WorldRuntime({
    content: sim,
    seed: config.worldSeed,
    tickMs: config.tickMs,
    delivery,
    persistence: sink,
    logger,
    registry: metricsRegistry,
  });
  const rateLimits = new HttpRateLimits(config.rateLimit.disabled);
  const identity = await createIdentity({
    config,
    logger,
    port,
    saves,
    content: { templates: content.templates, areas: content.areas, spawn: sim.spawn },
    world: runtime,
    live: runtime,
    limiter: rateLimits,
  });
  sessions = identity.registry;
  const server = await startServer({
    config,
    logger,
    routes: identity.routes,
    ws: identity.ws,
    verifyBearer: identity.verifyBearer,
    rateLimits,
    ...(opts.publicDir !== undefined ? { publicDir: opts.publicDir } : {}),
    status: {
      tick: () => runtime.tickStatus(),
      playersOnline: () => runtime.playersOnline(),
      databaseOk: () => true,
    },
  });
  runtime.start();
  return {
    port: server.port,
    runtime,
    server,
    stop: async () => {
      await server.stop();
      await identity.ws.idle();
      await runtime.shutdown();
      await persistence.close();
    },
  };
}
