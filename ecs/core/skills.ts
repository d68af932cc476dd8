/**
 * The game's 17 skills (contract §2), their experience curve and the combat level. Names are the wire
 * names; manifests that spell `defence` mean `defense`.
 */
export const SKILLS = [
  'attack',
  'strength',
  'defense',
  'constitution',
  'ranged',
  'magic',
  'prayer',
  'woodcutting',
  'mining',
  'fishing',
  'cooking',
  'firemaking',
  'smithing',
  'agility',
  'crafting',
  'fletching',
  'runecrafting',
] as const;

export type Skill = (typeof SKILLS)[number];

export interface SkillValue {
  level: number;
  xp: number;
}

export type Skills = Record<Skill, SkillValue>;

export const MAX_LEVEL = 99;
export const MAX_XP = 200_000_000;

const SKILL_SET: ReadonlySet<string> = new Set(SKILLS);

/** `defence` (British spelling in some manifests) is `defense`; anything else must be a known skill. */
export function normalizeSkill(name: string): Skill | undefined {
  const lower = name.trim().toLowerCase();
  const s = lower === 'defence' ? 'defense' : lower;
  return SKILL_SET.has(s) ? (s as Skill) : undefined;
}

/** XP_FOR_LEVEL[n] = total xp needed for level n (the classic curve). Index 0 and 1 are 0. */
export const XP_FOR_LEVEL: readonly number[] = (() => {
  const table = [0, 0];
  let points = 0;
  for (let level = 1; level < MAX_LEVEL; level++) {
    points += Math.floor(level + 300 * 2 ** (level / 7));
    table.push(Math.floor(points / 4));
  }
  return table;
})();

export function levelForXp(xp: number): number {
  let level = 1;
  while (level < MAX_LEVEL && xp >= (XP_FOR_LEVEL[level + 1] as number)) level++;
  return level;
}

export function xpForLevel(level: number): number {
  return XP_FOR_LEVEL[Math.max(1, Math.min(MAX_LEVEL, level))] as number;
}

/** A new character: constitution 10, every other skill 1 (contract §2). */
export function newSkills(): Skills {
  const skills = {} as Skills;
  for (const s of SKILLS) {
    const level = s === 'constitution' ? 10 : 1;
    skills[s] = { level, xp: xpForLevel(level) };
  }
  return skills;
}

/** Combat level from the classic formula; a new character is 3. */
export function combatLevel(skills: Skills): number {
  const base =
    0.25 * (skills.defense.level + skills.constitution.level + Math.floor(skills.prayer.level / 2));
  const melee = 0.325 * (skills.attack.level + skills.strength.level);
  const ranged = 0.325 * Math.floor(skills.ranged.level * 1.5);
  const magic = 0.325 * Math.floor(skills.magic.level * 1.5);
  return Math.floor(base + Math.max(melee, ranged, magic));
}

/** Hit points: one per constitution level times ten, as the client shows them. */
export function maxHealthFor(skills: Skills): number {
  return skills.constitution.level * 10;
}
