import { type Config, withListenPort } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { createServerMetrics, type ServerMetrics } from '../lib/metrics.ts';
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
import type { EarlyStart } from './early-start.ts';
import { createIdentity, identityContent } from './identity.ts';
import type { PersistenceSink } from './persistence-handoff.ts';
import { lateSink, schedulerSink } from './persistence-sink.ts';
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
  /** The database and the network thread, started ahead by main.ts while this code loaded. */
  early?: EarlyStart;
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
  // 3 starts first: the database opens in its own thread (or connection) while the content loads and
  // the world is built here, and start-up waits for the slower of the two instead of their sum.
  const opening = opts.early?.persistence ?? openPersistence(config, logger);
  opening.catch(() => {});
  const abandon = async () => {
    await opts.early?.netWorker.terminate();
    await opening.then(
      (p) => p.close(),
      () => {},
    );
  };

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
  }).catch(async (err: unknown) => {
    await abandon();
    throw err;
  });

  // One set of metrics for this server, handed to everything that counts.
  const metrics = createServerMetrics();

  // The session registry exists once identity is created, which needs the runtime: deliver through it late.
  let sessions: SessionRegistry | undefined;
  const encodeFailed = encodeFailureReporter(logger, metrics.encodeFailures);
  const delivery: Delivery = {
    send: (id, event: ServerEventName, payload: ServerPayload<ServerEventName>) =>
      sessions?.send(id, event, payload),
    sendRaw: (id, frame) => sessions?.sendRaw(id, frame),
    connection: (id) => sessions?.connection(id),
    encodeFailed: (characterId, event, err) => encodeFailed(event, err, { characterId }),
  };
  // The world is built while the database opens: nothing reaches persistence or the social bridge
  // before the first tick (runtime.start(), below). Both are set once the database is open.
  let sink: PersistenceSink | undefined;
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
    saveIntervalMs: config.saveIntervalSeconds * 1000,
    persistence: lateSink(() => {
      if (!sink) throw new Error('persistence used before the database opened');
      return sink;
    }),
    logger,
    registry: metrics.registry,
    afterTick: (world) => social?.afterTick(world),
    // A private message to another world leaves when it is sent, not after the next tick.
    afterImmediate: (world) => social?.afterTick(world),
  });

  // 3. Database: migrations and death-lock recovery run inside openPersistence.
  const persistence = await opening.catch(async (err: unknown) => {
    await opts.early?.netWorker.terminate();
    throw err;
  });
  const { port, saves } = persistence;
  const dbHealth = await watchDatabase(port, logger, metrics.databaseUp);
  sink = schedulerSink(persistence, logger);
  // The other worlds (NATS_URL): messaging, character holds, the world list (world-links.ts).
  const links = await connectWorlds(config, logger, port, (lost) => {
    for (const id of lost) sessions?.connection(id)?.close(CLOSE_TAKEN_OVER, 'taken over by another world');
  }).catch(async (err: unknown) => {
    dbHealth.stop();
    await abandon().catch(() => {});
    throw err;
  });
  const { messaging, worldLocks } = links;
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
    ...(opts.early ? { netWorker: opts.early.netWorker } : {}),
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

/** The health check that watches the database (the `database_up` gauge follows it). */
async function watchDatabase(
  port: OpenedPersistence['port'],
  logger: Logger,
  databaseUp: ServerMetrics['databaseUp'],
): Promise<DatabaseHealth> {
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
  return dbHealth;
}
