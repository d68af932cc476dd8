import type { GameWorld } from '../../core/world.ts';
import { ignores } from '../social/index.ts';

/**
 * Who hears a local chat line: the players in view of the sender (Chebyshev distance <= view distance,
 * the rule replication uses to let an entity enter view), the sender included, minus those ignoring it,
 * and in a crowd only the LOCAL_CHAT_HEARERS nearest (ties by eid): each line is an event per hearer,
 * and 2,000 players in one square chatting now and then made tens of thousands a tick, more than anyone
 * in the crowd could read.
 */

export const LOCAL_CHAT_HEARERS = 100;

/** Hearers' eids in a stable order (ascending eid: eids are deterministic, character ids cost a sort). */
export function localHearers(world: GameWorld, senderEid: number, fromId: string): Int32Array {
  const { Position } = world.c;
  const sx = Position.x[senderEid] as number;
  const sz = Position.z[senderEid] as number;
  const view = world.viewDistance;
  const eids: number[] = [];
  const dists: number[] = [];
  world.grid.forEachInSquare(sx, sz, view, (eid) => {
    const p = world.playerByEid.get(eid);
    if (p === undefined || eid === senderEid) return;
    const d = Math.max(
      Math.abs((Position.x[eid] as number) - sx),
      Math.abs((Position.z[eid] as number) - sz),
    );
    if (d > view || ignores(world, p.characterId, fromId)) return;
    eids.push(eid);
    dists.push(d);
  });
  // The sender hears its own line, whatever the crowd.
  const room = LOCAL_CHAT_HEARERS - 1;
  if (eids.length <= room) return Int32Array.from([...eids, senderEid]).sort();
  // The nearest: by distance (counted per ring), then by eid within the farthest ring that fits.
  const perRing = new Int32Array(view + 1);
  for (const d of dists) perRing[d] = (perRing[d] as number) + 1;
  let ring = 0;
  let within = 0;
  while (within + (perRing[ring] as number) <= room) within += perRing[ring++] as number;
  const out: number[] = [senderEid];
  const edge: number[] = [];
  for (let i = 0; i < eids.length; i++) {
    if ((dists[i] as number) < ring) out.push(eids[i] as number);
    else if (dists[i] === ring) edge.push(eids[i] as number);
  }
  edge.sort((a, b) => a - b);
  for (let i = 0; out.length < LOCAL_CHAT_HEARERS; i++) out.push(edge[i] as number);
  return Int32Array.from(out).sort();
}
