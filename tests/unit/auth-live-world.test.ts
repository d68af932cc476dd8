import { expect, it } from 'vitest';
import { NPCS } from '../../ecs/features/npcs/index.ts';
import { gameLiveWorld } from '../../src/identity.ts';
import { Scenario } from '../scenario/harness.ts';

/** gameLiveWorld: the LiveWorld the HTTP routes read, over a real GameWorld stepped tick by tick. */

it('reports the tick, players and live state of characters in the world', () => {
  const sc = new Scenario();
  const live = gameLiveWorld(sc.world);
  expect(live.liveCharacter('nobody')).toBeNull();
  const id = sc.addPlayer({ name: 'Livia', x: 100, z: 100 });
  const summary = live.summary();
  expect(summary.tick).toBe(sc.world.tick);
  expect(summary.playersOnline).toBe(1);
  expect(summary.entities['player']).toBe(1);
  expect(summary.entities['npc']).toBe(sc.world.get(NPCS).byEid.size);
  const state = live.liveCharacter(id);
  expect(state).toMatchObject({ id, name: 'Livia', position: { x: 100, z: 100 } });
  // A copy: changing it does not change the world.
  state!.position.x = 5;
  expect(live.liveCharacter(id)?.position.x).toBe(100);
});
