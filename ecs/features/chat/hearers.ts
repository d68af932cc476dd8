import { EntityType } from '../../core/components.ts';
import type { GameWorld } from '../../core/world.ts';
import { ignores } from '../social/index.ts';

/**
 * Who hears a local chat line: the players in view of the sender (Chebyshev distance <= view distance,
 * the rule replication uses to let an entity enter view), the sender included, minus those ignoring it,
 * and in a crowd only the LOCAL_CHAT_HEARERS nearest (ties by eid): each line is an event per hearer,
 * and 2,000 players in one square chatting now and then made tens of thousands a tick, more than anyone
 * in the crowd could read. Who ignores the sender is looked up for the chosen ones only (a lookup per
 * player in view was most of a crowd's chat cost); one found ignoring makes room for the next nearest.
 */

export const LOCAL_CHAT_HEARERS = 100;

/** Hearers' eids in a stable order (ascending eid: eids are deterministic, character ids cost a sort). */
export function localHearers(world: GameWorld, senderEid: number, fromId: string): Int32Array {
  const { Position, Kind } = world.c;
  const sx = Position.x[senderEid] as number;
  const sz = Position.z[senderEid] as number;
  const view = world.viewDistance;
  const eids: number[] = [];
  const dists: number[] = [];
  world.grid.forEachInSquare(sx, sz, view, (eid) => {
    if (Kind.type[eid] !== EntityType.player || eid === senderEid) return;
    const d = Math.max(
      Math.abs((Position.x[eid] as number) - sx),
      Math.abs((Position.z[eid] as number) - sz),
    );
    if (d > view) return;
    eids.push(eid);
    dists.push(d);
  });
  // The sender hears its own line, whatever the crowd.
  const room = LOCAL_CHAT_HEARERS - 1;
  let want = room;
  for (;;) {
    const chosen = nearest(eids, dists, want, view);
    const out = [senderEid];
    for (const eid of chosen) {
      const p = world.playerByEid.get(eid);
      if (p !== undefined && !ignores(world, p.characterId, fromId)) out.push(eid);
    }
    if (out.length - 1 >= room || chosen.length === eids.length) {
      if (out.length > LOCAL_CHAT_HEARERS) out.length = LOCAL_CHAT_HEARERS;
      return Int32Array.from(out).sort();
    }
    want += room - (out.length - 1);
  }
}

/** The `want` nearest of the candidates (all of them when fewer), by distance, then by eid, in that order. */
function nearest(eids: readonly number[], dists: readonly number[], want: number, view: number): number[] {
  if (eids.length <= want) return [...eids].sort((a, b) => a - b);
  const perRing = new Int32Array(view + 1);
  for (const d of dists) perRing[d] = (perRing[d] as number) + 1;
  let ring = 0;
  let within = 0;
  while (within + (perRing[ring] as number) <= want) within += perRing[ring++] as number;
  const byRing: number[][] = Array.from({ length: ring + 1 }, () => []);
  for (let i = 0; i < eids.length; i++) {
    const d = dists[i] as number;
    if (d <= ring) (byRing[d] as number[]).push(eids[i] as number);
  }
  const out: number[] = [];
  for (const list of byRing) {
    list.sort((a, b) => a - b);
    for (const eid of list) {
      if (out.length === want) return out;
      out.push(eid);
    }
  }
  return out;
}
