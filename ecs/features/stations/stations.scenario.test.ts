import { describe, expect, it } from 'vitest';
import { fullEntity } from '../../../net/replication/entity-fields.ts';
import { testContent } from '../../../tests/helpers/sim-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { STATIONS } from './state.ts';
import { placeStation } from './stations.ts';

/** Stations carry their name to the players who see them. */
describe('station names', () => {
  const content = {
    ...testContent({ npcSpawns: [] }),
    stationSpawns: [{ type: 'furnace', x: 110, z: 100 }],
    stationTypes: new Map([['furnace', { type: 'furnace', name: 'Furnace' }]]),
  };

  it('a placed station is named by its kind in stations.json, and sends the name on the wire', () => {
    const s = new Scenario({ content });
    populateWorld(s.world);
    const [furnace] = [...s.world.get(STATIONS).byEid.values()].filter((st) => st.stationType === 'furnace');
    expect(furnace?.name).toBe('Furnace');
    expect(fullEntity(s.world, furnace?.eid as number)).toMatchObject({
      type: 'station',
      stationType: 'furnace',
      name: 'Furnace',
    });
  });

  it('the placer may name it; a kind stations.json does not know has no name on the wire', () => {
    const s = new Scenario({ content });
    const log = placeStation(s.world, 'obstacle', 112, 100, 0, 'Log balance');
    const fire = placeStation(s.world, 'fire', 114, 100, 10);
    expect(fullEntity(s.world, log)).toMatchObject({ stationType: 'obstacle', name: 'Log balance' });
    expect(fullEntity(s.world, fire)).not.toHaveProperty('name');
  });
});
