import { randomInt } from 'node:crypto';

/**
 * Character name rules: 1 to 12 characters, ASCII letters, digits, space, `_` and `-`, no leading or
 * trailing space. Uniqueness (one name per world, case-insensitive) is the database's job.
 */

export const NAME_MAX_LENGTH = 12;
const NAME_CHARS = /^[A-Za-z0-9 _-]+$/;

/** The reason a name is refused, or null when it is acceptable. */
export function nameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'name must be a string';
  if (name.length === 0) return 'name must not be empty';
  if (name.length > NAME_MAX_LENGTH) return `name must be at most ${NAME_MAX_LENGTH} characters`;
  if (!NAME_CHARS.test(name)) return 'name may contain only letters, digits, spaces, "_" and "-"';
  if (name.trim() !== name) return 'name must not start or end with a space';
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
