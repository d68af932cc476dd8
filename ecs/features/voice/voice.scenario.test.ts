import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { markPosition } from '../../core/world.ts';
import { areaAt, OUTSIDE_AREA } from './index.ts';

/** Test content: `town` is spawn ± 10, `field` the 30 tiles east of it; elsewhere is in no area. */
function setup(voiceWorld: string | null = 'w') {
  const s = new Scenario(voiceWorld === null ? {} : { rules: { voiceWorld } });
  const { x, z } = s.world.content.spawn;
  const id = s.addPlayer({ name: 'Talker', x, z });
  const walkTo = (tx: number, tz: number) => {
    s.push({ type: 'move', characterId: id, x: tx, z: tz, run: true });
    s.step(30);
  };
  const rooms = () => s.eventsOf(id, 'voiceRoom').map((e) => e.data.room);
  return { s, id, x, z, walkTo, rooms };
}

describe('voice rooms follow world areas', () => {
  it('a tile is in the first area whose bounds hold it, else outside', () => {
    const areas = [
      { id: 'a', name: 'A', minX: 0, maxX: 9, minZ: 0, maxZ: 9 },
      { id: 'b', name: 'B', minX: 5, maxX: 20, minZ: 0, maxZ: 9 },
    ];
    expect(areaAt(areas, 0, 0)).toBe('a');
    expect(areaAt(areas, 9, 9)).toBe('a');
    expect(areaAt(areas, 10, 9)).toBe('b');
    expect(areaAt(areas, 21, 0)).toBe(OUTSIDE_AREA);
    expect(areaAt([], 3, 3)).toBe(OUTSIDE_AREA);
  });

  it('walking into another area sends voiceRoom with <world>-<areaId>, once', () => {
    const { x, z, walkTo, rooms } = setup();
    walkTo(x + 5, z);
    expect(rooms()).toEqual([]); // entering the world and moving inside the town change nothing
    walkTo(x + 20, z);
    expect(rooms()).toEqual(['w-field']);
    walkTo(x + 25, z + 3);
    expect(rooms()).toEqual(['w-field']);
    walkTo(x + 50, z);
    expect(rooms()).toEqual(['w-field', 'w-outside']);
    walkTo(x, z); // back west through the field into the town
    expect(rooms()).toEqual(['w-field', 'w-outside', 'w-field', 'w-town']);
  });

  it('a teleport (moved by force) into another area changes the room too', () => {
    const { s, id, x, z, rooms } = setup();
    // Stand the player in the field, as an admin /tp does, then let a tick pass.
    markPosition(s.world, s.player(id).eid, x + 15, z);
    s.step(1);
    expect(rooms()).toEqual(['w-field']);
  });

  it('without voice configured nothing is tracked or sent', () => {
    const { s, x, z, walkTo, rooms } = setup(null);
    walkTo(x + 20, z);
    expect(rooms()).toEqual([]);
    expect(s.world.players.size).toBe(1);
  });

  it('a player who leaves is forgotten, and re-entering elsewhere is no change', () => {
    const { s, id, x, z, walkTo, rooms } = setup();
    walkTo(x + 20, z);
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step(1);
    const again = s.addPlayer({ name: 'Again', x: x + 60, z });
    s.step(2);
    expect(rooms()).toEqual(['w-field']);
    expect(s.eventsOf(again, 'voiceRoom')).toEqual([]);
  });
});
