import { describe, expect, it } from 'vitest';
import { changedEntity, fullEntity } from '../../../net/replication/entity-fields.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { Dirty } from '../../core/components.ts';
import type { DropTable } from '../../core/content.ts';
import { defineFeature } from '../../core/feature.ts';
import { populateWorld } from '../../core/populate.ts';
import { Rng } from '../../core/rng.ts';
import { levelForXp, xpForLevel } from '../../core/skills.ts';
import type { GameWorld } from '../../core/world.ts';
import { worldHash } from '../../core/world-hash.ts';
import { GROUND_ITEMS, groundItemVisibleTo } from '../ground-items/index.ts';
import { NPCS } from '../npcs/index.ts';
import { combatNumbers } from './attacker.ts';
import { combatContent } from './combat-scenario-helpers.ts';
import { rollDrops } from './drops.ts';
import { combatRoll, effectiveLevel, hitChance, maxHit, meleeBonuses, xpForDamage } from './formulas.ts';
import { shownOf } from './shown.ts';
import { COMBAT, type Shown } from './state.ts';

function world(spawns: Parameters<typeof combatContent>[0] = [], seed = 42) {
  const s = new Scenario({ content: combatContent(spawns), seed });
  populateWorld(s.world);
  return s;
}

const npcEid = (s: Scenario, wireId: string) => s.world.eidByWireId.get(wireId) as number;
const health = (s: Scenario, eid: number) => s.world.c.Health.current[eid] as number;

/** What each tick showed on an entity to everyone who sees it (hits, death), by tick. */
function recordShown(s: Scenario, wireId: string): Map<number, Shown> {
  const out = new Map<number, Shown>();
  let eid = s.world.eidByWireId.get(wireId);
  s.afterTick.push((w) => {
    eid = w.eidByWireId.get(wireId) ?? eid;
    const shown = eid === undefined ? undefined : shownOf(w, eid);
    if (shown !== undefined) out.set(w.tick, structuredClone(shown));
  });
  return out;
}

function setLevel(s: Scenario, id: string, skill: 'attack' | 'strength' | 'defense', level: number) {
  s.player(id).state.skills[skill] = { level, xp: xpForLevel(level) };
}

describe('combat formulas', () => {
  it('match hand-computed values (level 1, accurate, bronze sword against a level 1 NPC)', () => {
    // attack: floor(1 × 1) + 3 (accurate) + 8 = 12; roll 12 × (4 + 64) = 816
    expect(effectiveLevel(1, 1, 3)).toBe(12);
    expect(combatRoll(12, 4)).toBe(816);
    // NPC defence: (1 + 9) × (0 + 64) = 640; chance 1 − 642 / (2 × 817)
    expect(hitChance(816, 640)).toBeCloseTo(1 - 642 / 1634, 10);
    expect(hitChance(640, 816)).toBeCloseTo(640 / 1634, 10);
    // strength: 1 + 0 + 8 = 9; floor(0.5 + 9 × 67 / 640) = 1
    expect(maxHit(9, 3)).toBe(1);
    // level 99 aggressive, +3 strength, bonus 100: eff 110; floor(0.5 + 110 × 164 / 640) = 28
    expect(maxHit(effectiveLevel(99, 1, 3), 100)).toBe(28);
    // prayer multiplier applies before the style bonus: floor(50 × 1.05) + 3 + 8 = 63
    expect(effectiveLevel(50, 1.05, 3)).toBe(63);
  });

  it('sum equipment bonuses as the melee formulas read them', () => {
    expect(
      meleeBonuses([
        { attack: 4, strength: 3 },
        { defenseSlash: 4, defenseStab: 3, defenseCrush: 3 },
        { attackSlash: 5, attackStab: 2, meleeStrength: 2, prayer: 1 },
      ]),
    ).toEqual({ attack: 9, strength: 5, defense: 3, prayer: 1 });
  });

  it('xp: 4 per damage to the style skill, 4/3 to constitution; controlled splits', () => {
    expect(xpForDamage('accurate', 3)).toEqual([
      ['attack', 12],
      ['constitution', 4],
    ]);
    expect(xpForDamage('aggressive', 2)).toEqual([
      ['strength', 8],
      ['constitution', 3],
    ]);
    expect(xpForDamage('defensive', 1)).toEqual([
      ['defense', 4],
      ['constitution', 1],
    ]);
    expect(xpForDamage('controlled', 3)).toEqual([
      ['attack', 4],
      ['strength', 4],
      ['defense', 4],
      ['constitution', 4],
    ]);
    expect(xpForDamage('accurate', 0)).toEqual([]);
  });

  it('a player in the world gets the numbers of its levels, gear and style', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Numbers' });
    s.player(id).state.equipment = { weapon: { itemId: 'bronze_sword', quantity: 1 } };
    const eid = s.player(id).eid;
    expect(combatNumbers(s.world, eid)).toEqual({ attackRoll: 816, defenceRoll: 9 * 64, maxHit: 1 });
    s.push({ type: 'combatStyle', characterId: id, style: 'aggressive' });
    s.step();
    expect(combatNumbers(s.world, eid)).toEqual({ attackRoll: 9 * 68, defenceRoll: 9 * 64, maxHit: 1 });
  });
});

describe('player attacks', () => {
  it('hits every 4 ticks while in reach; combat:hit to the attacker, the hit shown on the target; xp per hit', () => {
    const s = world([{ npcId: 'brute', x: 101, z: 100, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Hitter', x: 100, z: 100 });
    const watcher = s.addPlayer({ name: 'Watcher', x: 104, z: 100 });
    const shown = recordShown(s, 'npc-1');
    s.push({ type: 'combatAutoRetaliate', characterId: id, enabled: false });
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(13);
    const hits = s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === id);
    expect(hits.map((h) => h.tick)).toEqual([3, 7, 11, 15].filter((t) => t <= s.world.tick));
    for (const h of hits) expect(h.data).toMatchObject({ targetId: 'npc-1', style: 'melee' });
    // The watcher sees them in the brute's world:update entry (shown once, in the tick), not as events.
    expect(s.eventsOf(watcher, 'combatHit')).toHaveLength(0);
    expect([...shown].map(([tick, sh]) => [tick, sh.hits])).toEqual(
      hits.map((h) => [h.tick, [{ attackerId: id, damage: h.data.damage, style: 'melee' }]]),
    );
    const dealt = hits.reduce((sum, h) => sum + h.data.damage, 0);
    expect(health(s, npcEid(s, 'npc-1'))).toBe(500 - dealt);
    const attackXp = s.eventsOf(id, 'skillXp').filter((e) => e.data.skill === 'attack');
    expect(attackXp.reduce((sum, e) => sum + e.data.gained, 0)).toBe(4 * dealt);
  });

  it('a fixed seed gives a fixed sequence of hits and misses', () => {
    const run = () => {
      const s = world([{ npcId: 'brute', x: 101, z: 100, count: 1, radius: 0 }], 7);
      const id = s.addPlayer({ name: 'Seeded', x: 100, z: 100 });
      s.push({ type: 'combatAutoRetaliate', characterId: id, enabled: false });
      s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
      s.step(80);
      return s.eventsOf(id, 'combatHit').map((e) => [e.data.attackerId, e.data.damage]);
    };
    const a = run();
    expect(a).toEqual(run());
    // Against defence 99, a level 1 player mostly misses, and a miss is damage 0.
    expect(a.filter(([from, d]) => String(from).startsWith('char') && d === 0).length).toBeGreaterThan(0);
  });

  it('the style decides where xp goes', () => {
    const s = world([{ npcId: 'brute', x: 101, z: 100, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Styled', x: 100, z: 100 });
    setLevel(s, id, 'attack', 99);
    s.push({ type: 'combatStyle', characterId: id, style: 'aggressive' });
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(60);
    const skills = new Set(s.eventsOf(id, 'skillXp').map((e) => e.data.skill));
    expect(skills).toEqual(new Set(['strength', 'constitution']));
  });

  it('walks to a target out of reach, then fights; a move stops the fight', () => {
    const s = world([{ npcId: 'rat', x: 110, z: 100, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Walker', x: 100, z: 100 });
    s.push({ type: 'combatAutoRetaliate', characterId: id, enabled: false });
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(8);
    const { x } = s.position(id);
    expect(Math.abs(x - 110)).toBeLessThanOrEqual(1);
    expect(s.eventsOf(id, 'combatHit').length).toBeGreaterThan(0);
    expect(s.world.get(COMBAT).fights.get(s.player(id).eid)?.targetId).toBe('npc-1');
    s.push({ type: 'move', characterId: id, x: 100, z: 100, run: false });
    s.step();
    expect(s.world.get(COMBAT).fights.has(s.player(id).eid)).toBe(false);
    const before = s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === id).length;
    s.step(10);
    expect(s.eventsOf(id, 'combatHit').filter((e) => e.data.attackerId === id).length).toBe(before);
  });

  it('follows a target that walks away', () => {
    const s = world();
    const a = s.addPlayer({ name: 'Chaser', x: 160, z: 100 });
    const b = s.addPlayer({ name: 'Runner', x: 161, z: 100 });
    s.push({ type: 'combatAutoRetaliate', characterId: b, enabled: false });
    s.push({ type: 'action', characterId: a, action: 'attack', targetId: b });
    s.step();
    s.push({ type: 'move', characterId: b, x: 170, z: 100, run: false });
    s.step(10);
    expect(s.position(a).x).toBeGreaterThanOrEqual(168);
    expect(s.world.get(COMBAT).fights.get(s.player(a).eid)?.targetId).toBe(b);
  });

  it('refuses what cannot be fought: townsfolk, items, oneself, players in a safe zone', () => {
    const s = world([{ npcId: 'banker', x: 101, z: 100, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Picky', x: 100, z: 100 });
    const other = s.addPlayer({ name: 'Safe', x: 100, z: 101 });
    for (const targetId of ['npc-1', id, other]) {
      s.push({ type: 'action', characterId: id, action: 'attack', targetId });
      s.step();
      expect(s.lastEvent(id, 'error')?.data.code).toBe('INVALID_TARGET');
    }
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'nobody' });
    s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('NOT_FOUND');
    expect(s.world.get(COMBAT).fights.size).toBe(0);
  });

  it('PvP where the area allows it; the victim retaliates; the fight ends when the target enters a safe zone', () => {
    const s = world();
    const a = s.addPlayer({ name: 'Pk', x: 160, z: 100 });
    const b = s.addPlayer({ name: 'Victim', x: 161, z: 100 });
    s.push({ type: 'action', characterId: a, action: 'attack', targetId: b });
    s.step(6);
    expect(s.eventsOf(b, 'combatHit').some((e) => e.data.attackerId === a)).toBe(true);
    expect(s.world.get(COMBAT).fights.get(s.player(b).eid)?.targetId).toBe(a);
    expect(s.eventsOf(a, 'error')).toEqual([]);
    s.player(b).admin = true;
    s.push({ type: 'chatCommand', characterId: b, name: 'tp', args: ['100', '100'] });
    s.step(2);
    expect(s.world.get(COMBAT).fights.has(s.player(a).eid)).toBe(false);
  });

  it('targetId in world:update while fighting, null when it stops; combat level changes are replicated', () => {
    const s = world([{ npcId: 'brute', x: 101, z: 100, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Shown', x: 100, z: 100 });
    const eid = s.player(id).eid;
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step();
    expect(s.world.c.Replicated.dirty[eid]! & Dirty.target).toBeTruthy();
    expect(changedEntity(s.world, eid).targetId).toBe('npc-1');
    expect(fullEntity(s.world, eid).targetId).toBe('npc-1');
    s.push({ type: 'move', characterId: id, x: 95, z: 100, run: false });
    s.step();
    expect(changedEntity(s.world, eid).targetId).toBeNull();
    // 4 attack levels to 99 raise the combat level: the level bit is set.
    const before = fullEntity(s.world, eid).level;
    s.player(id).state.skills.attack = { level: 98, xp: xpForLevel(99) - 1 };
    s.player(id).state.skills.strength = { level: 99, xp: xpForLevel(99) };
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(40);
    expect(levelForXp(s.player(id).state.skills.attack.xp)).toBe(99);
    expect(fullEntity(s.world, eid).level).toBeGreaterThan(before as number);
  });
});

describe('NPC deaths and loot', () => {
  function killRat(seed = 42) {
    const s = world([{ npcId: 'rat', x: 101, z: 100, count: 1, radius: 0 }], seed);
    const id = s.addPlayer({ name: 'Killer', x: 100, z: 100 });
    const other = s.addPlayer({ name: 'Bystander', x: 102, z: 102 });
    setLevel(s, id, 'attack', 99);
    setLevel(s, id, 'strength', 99);
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    let ticks = 0;
    while (s.world.eidByWireId.has('npc-1') && ticks++ < 100) s.step();
    return { s, id, other };
  }

  it('entity:death to the killer, the death shown to viewers, removal, loot seen by the killer only for 60 s, npcKills counted', () => {
    const { s, id, other } = killRat();
    const deathTick = s.lastEvent(id, 'entityDeath');
    expect(deathTick?.data).toMatchObject({ id: 'npc-1', killerId: id });
    expect(s.lastEvent(other, 'entityDeath')).toBeUndefined();
    const rat = s.world.despawned.find((d) => d.wireId === 'npc-1')?.eid as number;
    expect(shownOf(s.world, rat)?.death).toEqual({ killerId: id });
    expect(s.world.despawned.some((d) => d.wireId === 'npc-1') || !s.world.eidByWireId.has('npc-1')).toBe(
      true,
    );
    const loot = [...s.world.get(GROUND_ITEMS).byEid.values()];
    const ids = loot.map((g) => g.itemId);
    expect(ids.slice(0, 2)).toEqual(['bones', 'feather']);
    for (const g of loot) {
      expect(g.ownerId).toBe(id);
      expect(groundItemVisibleTo(s.world, g.eid, id)).toBe(true);
      expect(groundItemVisibleTo(s.world, g.eid, other)).toBe(false);
    }
    expect(s.player(id).state.slices?.npcKills).toEqual({ rat: 1 });
    s.step(100); // 60 s at 600 ms
    for (const g of loot) expect(groundItemVisibleTo(s.world, g.eid, other)).toBe(true);
  });

  it('a dead NPC respawns at its spawn after respawnTicks', () => {
    const { s } = killRat();
    const died = s.world.tick;
    s.step(9);
    expect([...s.world.get(NPCS).byEid.values()].filter((n) => n.npcId === 'rat')).toHaveLength(0);
    s.step(1);
    const back = [...s.world.get(NPCS).byEid.values()].filter((n) => n.npcId === 'rat');
    expect(back).toHaveLength(1);
    expect(s.world.tick - died).toBe(10);
    const eid = back[0]!.eid;
    expect([s.world.c.Position.x[eid], s.world.c.Position.z[eid]]).toEqual([101, 100]);
    expect(health(s, eid)).toBe(5);
  });
});

describe('NPC behaviour', () => {
  it('an aggressive NPC attacks a player within aggroRange, not one beyond it', () => {
    const s = world([{ npcId: 'wolf', x: 150, z: 50, count: 1, radius: 0 }]);
    const far = s.addPlayer({ name: 'Far', x: 155, z: 50 });
    s.step(3);
    expect(s.world.get(COMBAT).fights.size).toBe(0);
    const near = s.addPlayer({ name: 'Near', x: 153, z: 50 });
    s.step(8);
    const wolf = npcEid(s, 'npc-1');
    expect(s.world.get(COMBAT).fights.get(wolf)?.targetId).toBe(near);
    expect(s.eventsOf(near, 'combatHit').some((e) => e.data.attackerId === 'npc-1')).toBe(true);
    expect(s.eventsOf(far, 'combatHit').every((e) => e.data.targetId !== far)).toBe(true);
  });

  it('aggression looks through the spatial grid: the cost is the nearby entities, not every player', () => {
    const s = world([{ npcId: 'wolf', x: 150, z: 50, count: 1, radius: 0 }]);
    for (let i = 0; i < 30; i++) s.addPlayer({ name: `Crowd${i}`, x: 20 + i, z: 180 });
    let visited = 0;
    const grid = s.world.grid;
    const original = grid.forEachInSquare.bind(grid);
    grid.forEachInSquare = (x, z, r, visit) =>
      original(x, z, r, (e) => {
        visited++;
        visit(e);
      });
    s.step();
    expect(visited).toBeLessThan(5);
  });

  it('an attacked NPC retaliates; a player with auto-retaliate off does not hit back', () => {
    const s = world([{ npcId: 'rat', x: 101, z: 100, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Poker', x: 100, z: 100 });
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(2);
    expect(s.world.get(COMBAT).fights.get(npcEid(s, 'npc-1'))?.targetId).toBe(id);
    const s2 = world([{ npcId: 'wolf', x: 150, z: 50, count: 1, radius: 0 }]);
    const idle = s2.addPlayer({ name: 'Idle', x: 152, z: 50 });
    s2.push({ type: 'combatAutoRetaliate', characterId: idle, enabled: false });
    s2.step(10);
    expect(s2.eventsOf(idle, 'combatHit').some((e) => e.data.attackerId === 'npc-1')).toBe(true);
    expect(s2.world.get(COMBAT).fights.has(s2.player(idle).eid)).toBe(false);
    const s3 = world([{ npcId: 'wolf', x: 150, z: 50, count: 1, radius: 0 }]);
    const fighter = s3.addPlayer({ name: 'Fighter', x: 152, z: 50 });
    s3.step(10);
    expect(s3.world.get(COMBAT).fights.get(s3.player(fighter).eid)?.targetId).toBe('npc-1');
  });

  it('an NPC pulled beyond leashRange walks home and heals fully', () => {
    const s = world([{ npcId: 'wolf', x: 150, z: 50, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Lure', x: 152, z: 50 });
    s.push({ type: 'combatAutoRetaliate', characterId: id, enabled: false });
    s.step(2);
    const wolf = npcEid(s, 'npc-1');
    expect(s.world.get(COMBAT).fights.get(wolf)?.targetId).toBe(id);
    s.world.c.Health.current[wolf] = 10;
    s.push({ type: 'move', characterId: id, x: 175, z: 50, run: true });
    s.step(12);
    expect(s.world.get(COMBAT).fights.has(wolf)).toBe(false);
    s.step(15);
    expect([s.world.c.Position.x[wolf], s.world.c.Position.z[wolf]]).toEqual([150, 50]);
    expect(health(s, wolf)).toBe(30);
    expect(s.world.get(COMBAT).npcHomes.get(wolf)?.returning).toBe(false);
  });
});

describe('drop tables', () => {
  it('10,000 seeded rolls land within the expected bounds', () => {
    const rng = new Rng(2024);
    const table: DropTable = {
      defaultDrop: { itemId: 'bones', quantity: 1 },
      always: [{ itemId: 'feather', minQuantity: 1, maxQuantity: 3, chance: 1 }],
      tiers: [
        [
          { itemId: 'coins', minQuantity: 1, maxQuantity: 10, chance: 0.5 },
          { itemId: 'logs', minQuantity: 1, maxQuantity: 1, chance: 0.2 },
        ],
        [],
        [{ itemId: 'steel_sword', minQuantity: 1, maxQuantity: 1, chance: 0.02 }],
        [],
      ],
    };
    const n = 10_000;
    const count = new Map<string, number>();
    let coins = 0;
    for (let i = 0; i < n; i++) {
      const drops = rollDrops(rng, table);
      expect(drops.filter((d) => d.itemId === 'coins' || d.itemId === 'logs').length).toBeLessThanOrEqual(1);
      for (const d of drops) {
        count.set(d.itemId, (count.get(d.itemId) ?? 0) + 1);
        if (d.itemId === 'coins') coins += d.quantity;
        if (d.itemId === 'feather') expect(d.quantity).toBeGreaterThanOrEqual(1);
      }
    }
    expect(count.get('bones')).toBe(n);
    expect(count.get('feather')).toBe(n);
    // Binomial bounds at about 4 standard deviations.
    const within = (k: number | undefined, p: number) => {
      const sd = Math.sqrt(n * p * (1 - p));
      expect(k ?? 0).toBeGreaterThan(n * p - 4 * sd);
      expect(k ?? 0).toBeLessThan(n * p + 4 * sd);
    };
    within(count.get('coins'), 0.5);
    within(count.get('logs'), 0.2);
    within(count.get('steel_sword'), 0.02);
    // Uniform 1..10: mean 5.5.
    expect(coins / (count.get('coins') ?? 1)).toBeGreaterThan(5.3);
    expect(coins / (count.get('coins') ?? 1)).toBeLessThan(5.7);
  });
});

describe('deaths in combat', () => {
  it('a player killed by an NPC: entity:death with the killer, shown to viewers, respawn in town, the NPC stops', () => {
    const s = world([{ npcId: 'brute', x: 151, z: 100, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Doomed', x: 150, z: 100 });
    const watcher = s.addPlayer({ name: 'Witness', x: 150, z: 104 });
    s.push({ type: 'combatAutoRetaliate', characterId: watcher, enabled: false });
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    let ticks = 0;
    while (!s.lastEvent(id, 'entityDeath') && ticks++ < 200) s.step();
    expect(s.lastEvent(id, 'entityDeath')?.data).toMatchObject({ id, killerId: 'npc-1' });
    expect(s.lastEvent(watcher, 'entityDeath')).toBeUndefined();
    expect(shownOf(s.world, s.player(id).eid)?.death).toEqual({ killerId: 'npc-1' });
    expect(s.position(id)).toEqual(s.world.content.spawn);
    expect(health(s, s.player(id).eid)).toBe(100);
    expect(s.world.get(COMBAT).fights.size).toBe(0);
  });

  it('a kill runs the npcKilled reaction (quests count kills)', () => {
    const killed: string[] = [];
    const probe = defineFeature({
      name: 'probe',
      on: { npcKilled: (_w: GameWorld, p, npcId) => killed.push(`${p.characterId}:${npcId}`) },
    });
    const s = new Scenario({
      content: combatContent([{ npcId: 'rat', x: 101, z: 100, count: 1, radius: 0 }]),
      features: [probe],
    });
    populateWorld(s.world);
    const id = s.addPlayer({ name: 'Quester', x: 100, z: 100 });
    setLevel(s, id, 'attack', 99);
    setLevel(s, id, 'strength', 99);
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: 'npc-1' });
    s.step(40);
    expect(killed[0]).toBe(`${id}:rat`);
  });
});

describe('the world hash', () => {
  it('includes fights, styles, spells and NPC homes', () => {
    const s = world([{ npcId: 'wolf', x: 150, z: 50, count: 1, radius: 0 }]);
    const id = s.addPlayer({ name: 'Hashed', x: 100, z: 100 });
    const h0 = worldHash(s.world);
    s.push({ type: 'combatStyle', characterId: id, style: 'defensive' });
    s.step();
    const h1 = worldHash(s.world);
    expect(h1).not.toBe(h0);
    s.push({ type: 'combatSpell', characterId: id, spellId: 'wind_strike' });
    s.step();
    expect(worldHash(s.world)).not.toBe(h1);
    const h2 = worldHash(s.world);
    s.world.get(COMBAT).fights.set(s.player(id).eid, { targetEid: 0, targetId: 'x', chaseX: 0, chaseZ: 0 });
    expect(worldHash(s.world)).not.toBe(h2);
  });
});
