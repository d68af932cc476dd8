import { randomInt } from 'node:crypto';

/**
 * Character name rules: 1 to 12 characters, ASCII letters, digits, space, `_` and `-`, no leading or
 * trailing space, and not a reserved word. Uniqueness (one name per world, case-insensitive) is the
 * database's job.
 */

export const NAME_MAX_LENGTH = 12;
const NAME_CHARS = /^[A-Za-z0-9 _-]+$/;

/**
 * Words a name must not read as: the names the server speaks under in chat (`Server`, `Announcement`)
 * and the titles of the people who run the game. A name is refused when its skeleton (below) is one of
 * them exactly; a name that merely contains one (`Modesty`, `Adminsson`) is fine.
 */
export const RESERVED_NAMES = [
  'admin',
  'administrator',
  'announcement',
  'announcer',
  'developer',
  'dev',
  'gamemaster',
  'gm',
  'hyperscape',
  'mod',
  'moderator',
  'official',
  'server',
  'staff',
  'support',
  'system',
] as const;

/** Digits read as the letters they stand for in names (`4dm1n`, `5erver`); `l` and `i` look alike. */
const LOOKALIKE: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  l: 'i',
};

/** Lower case, without spaces, `_` and `-`, look-alike characters folded. */
function skeleton(name: string): string {
  return [...name.toLowerCase().replace(/[ _-]/g, '')].map((ch) => LOOKALIKE[ch] ?? ch).join('');
}

const RESERVED_SKELETONS = new Set(RESERVED_NAMES.map(skeleton));

/**
 * Whether a name reads as a reserved word: its skeleton, or its skeleton with the digits dropped
 * (`Admin1`, `Mod 007`), is one. Case, spaces, `_` and `-` never matter (`S y s_t-e m`).
 */
export function isReservedName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[ _-]/g, '');
  return (
    RESERVED_SKELETONS.has(skeleton(plain)) || RESERVED_SKELETONS.has(skeleton(plain.replace(/\d/g, '')))
  );
}

/** The reason a name is refused, or null when it is acceptable. */
export function nameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'name must be a string';
  if (name.length === 0) return 'name must not be empty';
  if (name.length > NAME_MAX_LENGTH) return `name must be at most ${NAME_MAX_LENGTH} characters`;
  if (!NAME_CHARS.test(name)) return 'name may contain only letters, digits, spaces, "_" and "-"';
  if (name.trim() !== name) return 'name must not start or end with a space';
  if (isReservedName(name)) return `the name "${name}" is reserved`;
  return null;
}

const PREFIXES = ['Wanderer', 'Traveler', 'Stranger', 'Nomad', 'Pilgrim'] as const;

/** A random character name that passes nameProblem, e.g. `Wanderer4821` (12 characters at most). */
export function generateCharacterName(random: (max: number) => number = randomInt): string {
  const prefix = PREFIXES[random(PREFIXES.length)] as string;
  const digits = NAME_MAX_LENGTH - prefix.length;
  const n = random(10 ** digits);
  return prefix + String(n).padStart(digits, '0');
}

/** Display name of a temporary (anonymous) account. */
export function generateGuestName(random: (max: number) => number = randomInt): string {
  return `Guest ${String(random(1_000_000)).padStart(6, '0')}`;
}
