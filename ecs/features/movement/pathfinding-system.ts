import { Dirty, MoveMode } from '../../core/components.ts';
import { emitError, type GameWorld, markDirty } from '../../core/world.ts';
import { AStar } from './astar.ts';
import { labelRegions, regionAt } from './regions.ts';
import { mayRun } from './run-energy.ts';
import { MOVE, type PathRequest, SEARCH_BOUND } from './state.ts';

/**
 * Resolves queued path requests in arrival order within the per-tick budget of expanded nodes. A search
 * that runs out of budget resumes next tick; requests behind it wait. Every request also costs one unit,
 * so a flood of trivially rejected requests is bounded too.
 */
export function pathfindingSystem(world: GameWorld): void {
  const ms = world.get(MOVE);
  let budget = ms.budget;
  let resolved = 0;
  let expanded = 0;
  while (budget > 0) {
    let req = ms.active;
    if (req !== null && !isCurrent(world, req)) {
      req = null;
      ms.active = null;
    }
    if (req === null) {
      req = nextRequest(world);
      if (req === null) break;
      budget--;
      const quick = start(world, req);
      if (quick !== null) {
        finish(world, req, quick);
        resolved++;
        continue;
      }
      ms.active = req;
    }
    const astar = ms.astar as AStar;
    const before = astar.expanded;
    const status = astar.run(budget);
    const spent = astar.expanded - before;
    budget -= spent;
    expanded += spent;
    if (status === 'more') break;
    ms.active = null;
    resolved++;
    finish(world, req, status === 'found' ? astar.path() : false);
  }
  if (ms.head > 1024 && ms.head * 2 > ms.queue.length) {
    ms.queue = ms.queue.slice(ms.head);
    ms.head = 0;
  }
  ms.lastExpanded = expanded;
  ms.lastResolved = resolved;
}

/** populate: label the map's walkable regions when the world is made, not in the first tick that needs them. */
export function prepareMovement(world: GameWorld): void {
  world.get(MOVE).regions ??= labelRegions(world.content.map);
}

function isCurrent(world: GameWorld, req: PathRequest): boolean {
  return world.get(MOVE).seq[req.eid] === req.seq && world.wireIds[req.eid] === req.wireId;
}

function nextRequest(world: GameWorld): PathRequest | null {
  const ms = world.get(MOVE);
  while (ms.head < ms.queue.length) {
    const req = ms.queue[ms.head++] as PathRequest;
    if (isCurrent(world, req)) return req;
  }
  ms.queue.length = 0;
  ms.head = 0;
  return null;
}

/**
 * Whether no path from the entity's tile to (x, z) can be found, known without a search: the tile is
 * blocked or off the map, beyond the search box, or in another walkable region. False does not promise
 * a path: the search may still find none when every path leaves its box. Cheap (the regions are
 * labelled once), so a command can refuse such a target before it changes anything.
 */
export function surelyUnreachable(world: GameWorld, eid: number, x: number, z: number): boolean {
  const map = world.content.map;
  const sx = world.c.Position.x[eid] as number;
  const sz = world.c.Position.z[eid] as number;
  if (sx === x && sz === z) return false;
  if (!map.isWalkable(x, z)) return true;
  if (Math.max(Math.abs(x - sx), Math.abs(z - sz)) > SEARCH_BOUND) return true;
  const ms = world.get(MOVE);
  ms.regions ??= labelRegions(map);
  const from = regionAt(map, ms.regions, sx, sz);
  // An entity standing on a blocked tile (placed by content) may still walk off it: search.
  return from !== 0 && from !== regionAt(map, ms.regions, x, z);
}

/** Cheap outcomes that need no search (a path, or false = unreachable); null: search needed. */
function start(world: GameWorld, req: PathRequest): Int32Array | false | null {
  const map = world.content.map;
  const sx = world.c.Position.x[req.eid] as number;
  const sz = world.c.Position.z[req.eid] as number;
  if (sx === req.x && sz === req.z) return new Int32Array(0);
  if (surelyUnreachable(world, req.eid, req.x, req.z)) return false;
  const ms = world.get(MOVE);
  ms.astar ??= new AStar(SEARCH_BOUND);
  ms.astar.begin(map, sx, sz, req.x, req.z);
  return null;
}

function finish(world: GameWorld, req: PathRequest, path: Int32Array | false): void {
  const { eid } = req;
  world.get(MOVE).seq[eid] = 0;
  if (path === false) {
    if (req.reportTo !== null) {
      emitError(world, req.reportTo, 'INVALID_TARGET', 'that tile cannot be reached', req.origin);
    }
    return;
  }
  if (path.length === 0) return;
  world.get(MOVE).paths[eid] = path;
  const mv = world.c.Movement;
  mv.step[eid] = 0;
  // A player without a tick's run energy walks (NPCs always may run).
  const mode = req.run && mayRun(world, eid) ? MoveMode.run : MoveMode.walk;
  if (mv.mode[eid] !== mode) {
    mv.mode[eid] = mode;
    markDirty(world, eid, Dirty.moving);
  }
}
