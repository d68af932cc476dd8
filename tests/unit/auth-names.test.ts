import { describe, expect, it } from 'vitest';
import {
  generateCharacterName,
  generateGuestName,
  isReservedName,
  nameProblem,
  RESERVED_NAMES,
} from '../../net/auth/names.ts';

describe('character name rules', () => {
  it.each(['A', 'Bob', 'Zezima 99', 'x_y-z', 'Twelve Chars'])('accepts %j', (name) => {
    expect(nameProblem(name)).toBeNull();
  });
  it.each([
    ['', /empty/],
    ['Thirteen Char', /at most 12/],
    [' Lead', /space/],
    ['Trail ', /space/],
    ['Bad!name', /letters/],
    ['Émile', /letters/],
    ['tab\tname', /letters/],
  ])('refuses %j', (name, why) => {
    expect(nameProblem(name)).toMatch(why);
  });
  it.each([
    'Server',
    'Announcement',
    'Admin',
    'System',
    'Moderator',
    'admin',
    'ADMIN',
    'Admin1',
    'Admin 007',
    '4dm1n',
    'Admln',
    'S y s_t-e m',
    '5erver',
    'M0derator',
    'Mod',
    'GM 2',
    'Game Master',
  ])('refuses the reserved %j, whatever its case, separators, digits or look-alikes', (name) => {
    expect(nameProblem(name)).toMatch(/reserved/);
  });
  it.each(['Modesty', 'Adminsson', 'Devon', 'Ali', 'Systema', 'Serverus'])(
    'accepts %j, which only contains a reserved word',
    (name) => {
      expect(nameProblem(name)).toBeNull();
    },
  );
  it('every reserved word is refused as written', () => {
    for (const w of RESERVED_NAMES) expect(isReservedName(w), w).toBe(true);
  });
  it('refuses a non-string', () => {
    expect(nameProblem(42)).toMatch(/string/);
  });
});

describe('generated names', () => {
  it('always pass the name rules, whatever the random draws', () => {
    for (const pick of [() => 0, (max: number) => max - 1, (max: number) => Math.floor(max / 2)]) {
      const name = generateCharacterName(pick);
      expect(nameProblem(name)).toBeNull();
      expect(name.length).toBe(12);
    }
    for (let i = 0; i < 200; i++) expect(nameProblem(generateCharacterName())).toBeNull();
  });
  it('guest names never read as a reserved word', () => {
    for (const pick of [() => 0, (max: number) => max - 1])
      expect(isReservedName(generateGuestName(pick))).toBe(false);
  });
  it('guest names are distinct enough', () => {
    const names = new Set(Array.from({ length: 50 }, () => generateGuestName()));
    expect(names.size).toBeGreaterThan(40);
  });
});
