import { performance } from 'node:perf_hooks';
import { type CharacterState, emptyInventory } from '../ecs/core/character-state.ts';
import type { NpcSpawn } from '../ecs/core/content.ts';
import { populateWorld } from '../ecs/core/populate.ts';
import { newSkills } from '../ecs/core/skills.ts';
import { stepWorld } from '../ecs/core/tick.ts';
import { TileMap } from '../ecs/core/tile-map.ts';
import { combatContent } from '../ecs/features/combat/combat-scenario-helpers.ts';
import { COMBAT } from '../ecs/features/combat/state.ts';
import { createGameWorld } from '../ecs/game.ts';

/**
 * npm run bench:combat:sim — the simulation alone (no sockets, no persistence): BENCH_PLAYERS players
 * (default 2000) each attacking its own NPC among as many, packed two tiles apart in one area, half of the
 * NPCs training dummies that never fight back and half rats that do (and die and respawn). Reports the
 * tick time p50/p99/max over BENCH_TICKS ticks (default 60) after the fights started, the per-system
 * split of the slowest tick, and the events the ticks produced (combat:hit only to the two in a fight:
 * everyone else sees hits in the target's world:update entry). `npm run bench:combat` is the same crowd
 * over real sockets (bench/load, scenario combat).
 */

const PLAYERS = Number(process.env['BENCH_PLAYERS'] ?? 2000);
const TICKS = Number(process.env['BENCH_TICKS'] ?? 60);
const COLS = Math.ceil(Math.sqrt(PLAYERS));

const base = combatContent();
const size = COLS * 2 + 100;
const npcSpawns: NpcSpawn[] = Array.from({ length: PLAYERS }, (_, i) => ({
  npcId: i % 2 ? 'dummy' : 'rat',
  x: 50 + (i % COLS) * 2,
  z: 51 + Math.floor(i / COLS) * 2,
  count: 1,
  radius: 0,
}));
const world = createGameWorld({
  content: { ...base, map: new TileMap(0, 0, size, size), spawn: { x: 50, z: 50 }, npcSpawns, areas: [] },
  seed: 1,
});
populateWorld(world);
const join = Array.from({ length: PLAYERS }, (_, i) => {
  const id = `bench-${i}`;
  const state: CharacterState = {
    id,
    accountId: id,
    name: id,
    position: { x: 50 + (i % COLS) * 2, y: 0, z: 50 + Math.floor(i / COLS) * 2 },
    health: 100,
    coins: 0,
    skills: newSkills(),
    inventory: emptyInventory(),
    equipment: { weapon: { itemId: 'bronze_sword', quantity: 1 } },
    bank: [],
  };
  return { type: 'join' as const, characterId: id, accountId: id, state };
});
stepWorld(world, join, 0);
stepWorld(
  world,
  join.map((j, i) => ({
    type: 'action' as const,
    characterId: j.characterId,
    action: 'attack' as const,
    targetId: `npc-${i + 1}`,
  })),
  600,
);
stepWorld(world, [], 1200);

const times: number[] = [];
let events = 0;
let slowest = { ms: 0, phases: new Map<string, number>() };
for (let t = 0; t < TICKS; t++) {
  const phases = new Map<string, number>();
  let started = 0;
  const timer = {
    start: () => {
      started = performance.now();
    },
    end: (name: string) => phases.set(name, (phases.get(name) ?? 0) + performance.now() - started),
  };
  const t0 = performance.now();
  stepWorld(world, [], world.tick * 600, timer);
  const ms = performance.now() - t0;
  times.push(ms);
  events += world.events.length;
  if (ms > slowest.ms) slowest = { ms, phases };
}
times.sort((a, b) => a - b);
const at = (q: number) =>
  (times[Math.min(times.length - 1, Math.floor(q * times.length))] as number).toFixed(1);
console.log(
  `${PLAYERS} players vs ${PLAYERS} NPCs, ${TICKS} ticks: tick p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; ` +
    `${world.get(COMBAT).fights.size} fights at the end; ${Math.round(events / TICKS)} events per tick`,
);
console.log(
  'slowest tick by system:',
  [...slowest.phases]
    .filter(([, v]) => v >= 0.5)
    .map(([k, v]) => `${k} ${v.toFixed(1)} ms`)
    .join(', '),
);
