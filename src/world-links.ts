import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { LocalMessaging } from '../net/messaging/local.ts';
import type { MessagingPort } from '../net/messaging/port.ts';
import {
  LocalWorldDirectory,
  NatsWorldDirectory,
  type ThisWorld,
  type WorldDirectory,
} from '../net/messaging/worlds.ts';
import { WorldLocks } from '../net/session/world-locks.ts';
import type { OpenedPersistence } from '../persistence/open.ts';

/**
 * What ties this world to the others. One world: local messaging, no character holds, a world list of
 * one. Several worlds (NATS_URL): NATS for friends, presence and private messages and the world list,
 * and a hold in the database on every character in the world (docs/scaling.md).
 */
export interface WorldLinks {
  readonly messaging: MessagingPort;
  /** Several worlds only: one character, one world. */
  readonly worldLocks: WorldLocks | undefined;
  /** The world list, this world's entry included. */
  directory(thisWorld: ThisWorld, heartbeatMs: number): WorldDirectory;
}

/**
 * Connect to the other worlds (NATS when configured). `lost` is told the characters whose hold another
 * world took (their sessions must end).
 */
export async function connectWorlds(
  config: Config,
  logger: Logger,
  port: OpenedPersistence['port'],
  lost: (characterIds: string[]) => void,
): Promise<WorldLinks> {
  const { worldId, natsUrl, lockTtlMs, natsPrefix } = config.worlds;
  if (natsUrl === undefined) {
    return {
      messaging: new LocalMessaging(),
      worldLocks: undefined,
      directory: (thisWorld) => new LocalWorldDirectory(thisWorld),
    };
  }
  // Loaded only here: the NATS client is a quarter of a second of start-up a single world does not need.
  const { NatsMessaging } = await import('../net/messaging/nats.ts');
  const nats = await NatsMessaging.connect({ url: natsUrl, prefix: natsPrefix, name: `world-${worldId}` });
  logger.info({ worldId, lockTtlMs }, 'connected to NATS: several worlds');
  const worldLocks = new WorldLocks(
    port,
    worldId,
    lockTtlMs,
    (characters) => {
      logger.error({ worldId, characters }, 'characters taken by another world: their sessions end');
      lost(characters);
    },
    logger,
  );
  return {
    messaging: nats,
    worldLocks,
    directory: (thisWorld, heartbeatMs) =>
      new NatsWorldDirectory(nats.nc, natsPrefix, thisWorld, heartbeatMs),
  };
}
