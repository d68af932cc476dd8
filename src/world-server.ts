import { type Config, withListenPort } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { createServerMetrics } from '../lib/metrics.ts';
import { HttpRateLimits } from '../net/http/rate-limit.ts';
import { worldRoutes } from '../net/messaging/worlds.ts';
import type { ServerEventName, ServerPayload } from '../net/protocol/index.ts';
import { dataRoutes } from '../net/routes/data.ts';
import { manifestRoutes } from '../net/routes/manifests.ts';
import { mapRoutes } from '../net/routes/map.ts';
import { voiceRoutes } from '../net/routes/voice.ts';
import type { Delivery } from '../net/session/outbound.ts';
import type { SessionRegistry } from '../net/session/registry.ts';
import { CLOSE_TAKEN_OVER } from '../net/session/ws-app.ts';
import { SocialBridge } from '../net/social/bridge.ts';
import { encodeFailureReporter } from '../net/ws/encode-failures.ts';
import { type OpenedPersistence, openPersistence } from '../persistence/open.ts';
import { prepareContent } from '../world/prepare.ts';
import { DatabaseHealth } from './db-health.ts';
import { createIdentity, identityContent } from './identity.ts';
import { schedulerSink } from './persistence-sink.ts';
import { type RunningServer, startServer } from './server.ts';
import type { ShutdownStep } from './shutdown.ts';
import { connectWorlds } from './world-links.ts';
import { WorldRuntime } from './world-runtime.ts';

/**
 * The whole server, in the specification's start-up order: content manifests -> database -> HTTP +
 * WebSocket -> world. main.ts runs it after configuration; integration tests and bench:load use it too,
 * so they exercise exactly what production runs.
 */

export interface GameServerOptions {
  /** Serve manifests from here instead of `${WORLD}/assets/manifests` (tests); fetching is skipped then. */
  manifestsDir?: string;
  publicDir?: string;
  fetchImpl?: typeof fetch;
  /** Milliseconds between world-list heartbeats on NATS (default 2000). */
  worldHeartbeatMs?: number;
}

export interface WorldServer {
  port: number;
  runtime: WorldRuntime;
  server: RunningServer;
  /** Shutdown in order: stop accepting and close sockets, last tick (everyone saved), flush, close. */
  shutdownSteps(): ShutdownStep[];
  /**
   * A forced exit's last resort: whatever the graceful shutdown is waiting for, run the world's last
   * tick (everyone leaves and is handed to the save scheduler) and write every pending snapshot.
   */
  emergencySave(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWorldServer(
  config: Config,
  logger: Logger,
  opts: GameServerOptions = {},
): Promise<WorldServer> {
  // 2. Content: fetch/cache, validate, cross-reference; any invalid manifest stops start-up here.
  const contentConfig = opts.manifestsDir
    ? { ...config, manifestsDir: opts.manifestsDir, skipManifests: true }
    : config;
  const content = await prepareContent({
    config: contentConfig,
    logger: {
      info: (m: string) => logger.info(m),
      warn: (m: string) => logger.warn(m),
      error: (m: string) => logger.error(m),
    },
    ...(opts.fetchImpl ? { fetchImpl: opts.fetchImpl } : {}),
  });

  // One set of metrics for this server, handed to everything that counts.
  const metrics = createServerMetrics();

  // 3. Database: migrations and death-lock recovery run inside openPersistence.
  const { persistence, dbHealth } = await openDatabase(config, logger, metrics.databaseUp);
  const { port, saves } = persistence;

  // The session registry exists once identity is created, which needs the runtime: sessions are reached
  // through it late (delivery, characters another world took).
  let sessions: SessionRegistry | undefined;
  const links = await connectWorlds(config, logger, port, (lost) => {
    for (const id of lost) sessions?.connection(id)?.close(CLOSE_TAKEN_OVER, 'taken over by another world');
  }).catch(async (err: unknown) => {
    dbHealth.stop();
    await persistence.close().catch(() => {});
    throw err;
  });
  const { messaging, worldLocks } = links;

  const encodeFailed = encodeFailureReporter(logger, metrics.encodeFailures);
  const delivery: Delivery = {
    send: (id, event: ServerEventName, payload: ServerPayload<ServerEventName>) =>
      sessions?.send(id, event, payload),
    sendRaw: (id, frame) => sessions?.sendRaw(id, frame),
    connection: (id) => sessions?.connection(id),
    encodeFailed: (characterId, event, err) => encodeFailed(event, err, { characterId }),
  };
  // The runtime ticks the social bridge, which queues commands into the runtime: the bridge is made
  // right after it, before the first tick.
  let social: SocialBridge | undefined;
  const runtime: WorldRuntime = new WorldRuntime({
    content: content.sim,
    seed: config.worldSeed,
    tickMs: config.tickMs,
    rules: {
      homeTeleportCooldownSeconds: config.homeTeleportCooldownSeconds,
      ...(config.voice.enabled ? { voiceWorld: config.voice.worldName } : {}),
    },
    delivery,
    persistence: schedulerSink(persistence, logger),
    logger,
    registry: metrics.registry,
    afterTick: (world) => social?.afterTick(world),
  });
  // Friends, presence and private messages leave the tick through the social bridge and the messaging port.
  const bridge = new SocialBridge({
    port,
    messaging,
    worldId: config.worlds.worldId,
    enqueue: (cmd) => runtime.enqueue(cmd),
    log: logger,
  });
  social = bridge;
  const rateLimits = new HttpRateLimits(config.rateLimit.disabled);
  const identity = await createIdentity({
    config,
    logger,
    port,
    saves,
    content: identityContent(content.registry, content.sim),
    world: runtime,
    live: runtime,
    agentWorld: { surroundings: (x, z, self) => runtime.agentSurroundings(x, z, self) },
    onlineWorld: (id) => runtime.onlineWorld(id),
    limiter: rateLimits,
    metrics,
    ...(worldLocks ? { worldLocks } : {}),
  });
  sessions = identity.registry;
  const thisWorld = {
    id: config.worlds.worldId,
    address: config.urls.ws,
    playersOnline: () => runtime.playersOnline(),
  };
  const worlds = links.directory(thisWorld, opts.worldHeartbeatMs ?? 2000);
  // Presence follows the worlds: a world that comes up is asked who is online, one that goes down takes its players offline.
  worlds.onStatus((id, status) => bridge.worldStatus(id, status));
  worldLocks?.start();

  // 4. HTTP + WebSocket.
  const server = await startServer({
    config,
    logger,
    routes: [
      ...manifestRoutes(contentConfig.manifestsDir),
      ...dataRoutes(content.registry),
      ...identity.routes,
      ...voiceRoutes({
        voice: config.voice,
        characters: identity.characters,
        live: runtime,
        areas: content.sim.worldAreas,
      }),
      ...mapRoutes(content.sim, content.registry),
      ...worldRoutes(worlds),
    ],
    ws: identity.ws,
    verifyBearer: identity.verifyBearer,
    rateLimits,
    metrics,
    ...(opts.publicDir !== undefined ? { publicDir: opts.publicDir } : {}),
    status: {
      tick: () => runtime.tickStatus(),
      playersOnline: () => runtime.playersOnline(),
      databaseOk: () => dbHealth.isOk(),
    },
  });

  // With PORT=0 the default address names the port the server got.
  thisWorld.address = withListenPort(config, server.port).urls.ws;

  // Replication encodes into memory the network thread reads: it joins each player's world:update there.
  runtime.replicator.cache.shareArena(server.chunks);

  // 5. World.
  runtime.start();

  const shutdownSteps = (): ShutdownStep[] => [
    // Stop accepting and close every socket (1001), then let in-flight logins finish.
    {
      name: 'http+ws',
      run: async () => {
        await server.stop();
        await identity.ws.idle();
      },
    },
    // One last tick where everyone leaves: each player is handed to persistence and saved.
    { name: 'world', run: () => runtime.shutdown() },
    {
      name: 'database',
      run: async () => {
        dbHealth.stop();
        // Social actions still running write before the database closes.
        await bridge.idle();
        bridge.close();
        // Everyone was saved in the last tick: their holds go, other worlds may take them at once.
        await worldLocks
          ?.close()
          .catch((err: unknown) => logger.error({ err }, 'releasing character locks failed'));
        await worlds.close();
        await messaging.close();
        await persistence.close();
      },
    },
  ];
  let stopping: Promise<void> | undefined;
  return {
    port: server.port,
    runtime,
    server,
    shutdownSteps,
    emergencySave: async () => {
      await runtime.shutdown();
      await saves.flushAll();
    },
    stop: () => {
      stopping ??= (async () => {
        for (const step of shutdownSteps()) await step.run();
      })();
      return stopping;
    },
  };
}

/** The database and the health check that watches it (the `database_up` gauge follows it). */
async function openDatabase(
  config: Config,
  logger: Logger,
  databaseUp: ReturnType<typeof createServerMetrics>['databaseUp'],
): Promise<{ persistence: OpenedPersistence; dbHealth: DatabaseHealth }> {
  const persistence = await openPersistence(config, logger);
  const { port } = persistence;
  const dbHealth = new DatabaseHealth(() => port.healthy(), {
    activity: () => port.activity(),
    onChange: (ok) => {
      databaseUp.set(ok ? 1 : 0);
      if (ok) logger.info('database is reachable again');
      else logger.error('database is down');
    },
  });
  await dbHealth.start();
  databaseUp.set(dbHealth.isOk() ? 1 : 0);
  return { persistence, dbHealth };
}
