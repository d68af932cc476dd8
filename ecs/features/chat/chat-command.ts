import type { CommandOf } from '../../core/commands.ts';
import type { SimEventData } from '../../core/events.ts';
import { emit, emitError, type GameWorld } from '../../core/world.ts';
import { ignores, sendPrivateElsewhere } from '../social/index.ts';
import { localHearers } from './hearers.ts';
import { PRIVATE_MESSAGE_BURST, PRIVATE_MESSAGES_PER_SECOND, takePrivateAllowance } from './private-limit.ts';

export const MAX_CHAT_LENGTH = 255;

/**
 * Removed from what is delivered: control characters (C0, DEL, C1) and invisible format characters
 * (Unicode category Cf: direction overrides and isolates such as U+202E, zero-width spaces and joiners,
 * the BOM, soft hyphens, tag characters), which could hide a line or turn its text around. One format
 * character stays: a zero-width joiner between two emoji, which is what makes a family or a profession
 * emoji one picture.
 */
const INVISIBLE =
  /\p{Cc}|[^\P{Cf}\u200D]|(?<!\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

/**
 * A line that shows nothing: whitespace and characters meant to be ignored when displayed (variation
 * selectors, the combining grapheme joiner, Hangul fillers), and the blank Braille pattern.
 */
const SHOWS_NOTHING = /^[\s\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/** The deliverable form of a chat line: control and invisible format characters removed, trimmed. */
export function cleanChat(message: string): string {
  return message.replace(INVISIBLE, '').trim();
}

/** Why a cleaned chat line cannot be sent (length in characters, not UTF-16 units), or null. */
export function chatProblem(clean: string): string | null {
  if (SHOWS_NOTHING.test(clean)) return 'chat message is blank';
  // Code points: an emoji is one character. Counted only when UTF-16 units could exceed the limit.
  if (clean.length > MAX_CHAT_LENGTH && [...clean].length > MAX_CHAT_LENGTH)
    return `chat message is longer than ${MAX_CHAT_LENGTH} characters`;
  return null;
}

/** Trimmed, control and invisible format characters removed; null when blank or over 255 characters. */
export function sanitizeChat(message: string): string | null {
  const clean = cleanChat(message);
  return chatProblem(clean) === null ? clean : null;
}

/** A chat line as every receiver gets it (one object: delivery encodes it once for all hearers). */
export function chatLine(
  world: GameWorld,
  fromId: string,
  fromName: string,
  message: string,
  channel: 'local' | 'private' | 'system',
): SimEventData['chat'] {
  return { fromId, fromName, message, channel, timestamp: Math.round(world.nowMs) };
}

/**
 * `chat`: local chat reaches the players in view of the sender, the sender included, the nearest 100 in
 * a crowd (hearers.ts). With `to`, a private message goes to the player of that name and is echoed to
 * the sender.
 */
export function chatCommand(world: GameWorld, cmd: CommandOf<'chat'>): void {
  const sender = world.players.get(cmd.characterId);
  if (!sender) return;
  const message = sanitizeChat(cmd.message);
  if (message === null) {
    emitError(world, cmd.characterId, 'BAD_MESSAGE', 'a message is 1 to 255 characters', cmd.origin);
    return;
  }
  const fromId = sender.characterId;
  const fromName = sender.state.name;
  if (cmd.to !== undefined) {
    // Counted whether or not the name is found: looking names up is no cheaper for the sender to repeat.
    if (!takePrivateAllowance(world, fromId)) {
      emitError(
        world,
        fromId,
        'RATE_LIMITED',
        `at most ${PRIVATE_MESSAGES_PER_SECOND} private messages a second (${PRIVATE_MESSAGE_BURST} at once)`,
        cmd.origin,
      );
      return;
    }
    const target = world.playersByName.get(cmd.to.trim().toLowerCase());
    if (!target) {
      // Online in another world: through the messaging port (social), echoed here.
      const line = chatLine(world, fromId, fromName, message, 'private');
      if (sendPrivateElsewhere(world, cmd.to, line)) emit(world, fromId, 'chat', line);
      else emitError(world, fromId, 'NOT_FOUND', 'no player of that name is online', cmd.origin);
      return;
    }
    const data = chatLine(world, fromId, fromName, message, 'private');
    // Ignored: the receiver gets nothing, the sender still sees its line (it is not told).
    if (!ignores(world, target.characterId, fromId)) emit(world, target.characterId, 'chat', data);
    if (target !== sender) emit(world, fromId, 'chat', data);
    return;
  }
  const order = localHearers(world, sender.eid, fromId);
  // One data object for every hearer: delivery encodes it once for all of them.
  const data = chatLine(world, fromId, fromName, message, 'local');
  for (const eid of order)
    emit(world, (world.playerByEid.get(eid) as { characterId: string }).characterId, 'chat', data);
}
