import { describe, expect, it } from 'vitest';
import type { CommandType } from '../../ecs/core/commands.ts';
import { defineFeature } from '../../ecs/core/feature.ts';
import { testContent } from '../helpers/sim-content.ts';
import { Scenario } from './harness.ts';

/** The core reactions `join` (a player entered) and `refuse` (a feature holds back a player's command). */

describe('the join reaction', () => {
  it('tells features, in FEATURES order, about a player who entered, with its entity in place', () => {
    const seen: string[] = [];
    const probe = (name: string) =>
      defineFeature({
        name,
        on: {
          join: (world, player) => {
            seen.push(`${name}:${player.characterId}:${world.wireIds[player.eid]}`);
          },
        },
      });
    const s = new Scenario({
      content: testContent({ npcSpawns: [] }),
      features: [probe('first'), probe('second')],
    });
    const id = s.addPlayer({ name: 'Ann' });
    expect(seen).toEqual([`first:${id}:${id}`, `second:${id}:${id}`]);
  });
});

describe('the refuse reaction', () => {
  /** A feature that refuses every command of the types given while `on` is set. */
  function gate(types: readonly CommandType[]) {
    const state = { on: false, asked: [] as CommandType[] };
    const feature = defineFeature({
      name: 'gate',
      on: {
        refuse: (_world, _player, cmd) => {
          state.asked.push(cmd.type);
          return state.on && types.includes(cmd.type) ? { code: 'BUSY', message: 'you are busy' } : null;
        },
      },
    });
    return { state, feature };
  }

  it('drops a refused command and answers its sender with the refusal; others go through', () => {
    const { state, feature } = gate(['move']);
    const s = new Scenario({ content: testContent({ npcSpawns: [] }), features: [feature] });
    const id = s.addPlayer({ name: 'Ann' });
    const start = s.position(id);
    state.on = true;
    s.push({ type: 'move', characterId: id, x: start.x + 5, z: start.z, run: false, origin: 'player:move' });
    s.push({ type: 'chat', characterId: id, message: 'still here' });
    s.step(4);
    expect(s.position(id)).toEqual(start);
    expect(s.eventsOf(id, 'error').map((e) => e.data)).toEqual([
      { code: 'BUSY', message: 'you are busy', event: 'player:move' },
    ]);
    expect(s.eventsOf(id, 'chat').map((e) => e.data.message)).toEqual(['still here']);
    state.on = false;
    s.push({ type: 'move', characterId: id, x: start.x + 5, z: start.z, run: false });
    s.step(4);
    expect(s.position(id)).toEqual({ x: start.x + 5, z: start.z });
  });

  it('is never asked about joining, leaving or item transaction results', () => {
    const { state, feature } = gate(['join', 'leave', 'txResult']);
    const s = new Scenario({ content: testContent({ npcSpawns: [] }), features: [feature] });
    state.on = true;
    const id = s.addPlayer({ name: 'Ann' });
    expect(s.world.players.has(id)).toBe(true);
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step();
    expect(s.world.players.has(id)).toBe(false);
    expect(state.asked).toEqual([]);
  });
});
