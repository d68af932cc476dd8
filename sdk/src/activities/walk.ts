import { type ActivityOptions, activity, type Ended } from '../activity.ts';
import type { GameClient } from '../client.ts';

export interface Tile {
  x: number;
  z: number;
}

export type WalkOutcome =
  | { status: 'arrived'; at: Tile; tiles: number }
  /** The character stopped short of the tile (another command, a teleport, death). */
  | { status: 'stopped'; at: Tile; tiles: number }
  | (Ended & { at: Tile | undefined; tiles: number });

/** How long a walk may wait for the character to start moving before it counts as stopped. */
const START_GRACE_MS = 5000;

const chebyshev = (a: Tile, b: Tile) => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));

/**
 * Walks (or runs) to a tile along the server's path and settles when the character stands on it,
 * stopped elsewhere, or was refused (`TOO_FAR` beyond 200 tiles, `INVALID_TARGET` for a tile that cannot
 * be reached). Progress counts tiles walked toward the tile. Default timeout 60 s.
 */
export async function walkTo(
  game: GameClient,
  target: Tile,
  opts: ActivityOptions & { run?: boolean } = {},
): Promise<WalkOutcome> {
  const from = game.world.position;
  const total = from === undefined ? undefined : chebyshev(from, target);
  if (from !== undefined && total === 0) return { status: 'arrived', at: { ...from }, tiles: 0 };
  let tiles = 0;
  let moved = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const outcome = await activity<WalkOutcome>(game, {
    origin: 'player:move',
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    start: () => game.send('player:move', { x: target.x, z: target.z, ...(opts.run ? { run: true } : {}) }),
    stop: () => game.send('player:move', { cancel: true }),
    listen: (finish) => {
      const here = () => ({ ...(game.world.position ?? target) });
      grace = setTimeout(() => {
        if (!moved) finish({ status: 'stopped', at: here(), tiles });
      }, START_GRACE_MS);
      return [
        () => clearTimeout(grace),
        game.on('world:update', (u) => {
          const self = u.entities.find((e) => e.id === game.world.selfId);
          if (self === undefined) return;
          const at = { x: self.x, z: self.z };
          if (total !== undefined) {
            const walked = total - chebyshev(at, target);
            if (walked > tiles) {
              tiles = walked;
              opts.onProgress?.({ progress: tiles, total, message: `at ${at.x},${at.z}` });
            }
          }
          if (at.x === target.x && at.z === target.z) return finish({ status: 'arrived', at, tiles });
          if ((self.moving ?? 0) > 0) moved = true;
          else if (moved && self.moving === 0) finish({ status: 'stopped', at, tiles });
        }),
        game.on('teleport:done', (t) => finish({ status: 'stopped', at: { x: t.x, z: t.z }, tiles })),
      ];
    },
  });
  if ('at' in outcome) return outcome;
  return { ...outcome, at: game.world.position, tiles };
}
