import { describe, expect, it } from 'vitest';
import {
  cooldownSeconds,
  ERROR_SENTENCES,
  errorSentence,
  GATHER_STOP_REASONS,
  MAKE_STOP_REASONS,
  TELEPORT_INTERRUPTIONS,
  TRADE_CANCEL_REASONS,
  TRADE_ERROR_SENTENCES,
  tradeErrorSentence,
} from '../../client/src/messages.ts';
import { serverEvents } from '../../net/protocol/server-events.ts';
import { errorCodes } from '../../net/protocol/shared.ts';

/**
 * The web client's words for every code and reason the server sends (client/src/messages.ts): each
 * table covers exactly the protocol's own list, so a code added to the protocol fails here until the
 * client can say it.
 */

const options = (event: keyof typeof serverEvents, field: string): string[] => {
  const shape = (serverEvents[event] as unknown as { shape: Record<string, { options?: string[] }> }).shape;
  return shape[field]?.options ?? [];
};
const tradeErrorCodes = options('tradeError', 'code') as Parameters<typeof tradeErrorSentence>[0][];
const tradeCancelReasons = options('tradeCancelled', 'reason');

describe('client messages', () => {
  it('has a sentence for every error code of the protocol, and none for codes it lacks', () => {
    expect(Object.keys(ERROR_SENTENCES).sort()).toEqual([...errorCodes].sort());
    for (const code of errorCodes) expect(ERROR_SENTENCES[code]).toMatch(/^[A-Z].*[.!]$/);
  });

  it('has a sentence for every trade error code and every cancel reason', () => {
    expect(Object.keys(TRADE_ERROR_SENTENCES).sort()).toEqual([...tradeErrorCodes].sort());
    expect(Object.keys(TRADE_CANCEL_REASONS).sort()).toEqual([...tradeCancelReasons].sort());
  });

  it('says every stop reason of gathering and processing, and every teleport interruption', () => {
    expect(Object.keys(GATHER_STOP_REASONS).sort()).toEqual(options('gathering:stop', 'reason').sort());
    expect(Object.keys(MAKE_STOP_REASONS).sort()).toEqual(options('processing:stop', 'reason').sort());
    expect(Object.keys(TELEPORT_INTERRUPTIONS).sort()).toEqual(
      options('teleport:interrupted', 'reason').sort(),
    );
  });

  it('never shows a raw code: a server sentence as is, else the code in words with the detail', () => {
    for (const code of errorCodes) {
      const line = errorSentence(code, 'some detail', 'inventory:use');
      expect(line).not.toContain(code);
      expect(line).toMatch(/^[A-Z]/);
    }
    expect(errorSentence('INVALID_TARGET', 'Nothing interesting happens.', 'inventory:use')).toBe(
      'Nothing interesting happens.',
    );
    expect(errorSentence('INVALID_TARGET', 'that tile cannot be reached', 'player:move')).toBe(
      "You can't reach that spot.",
    );
    expect(errorSentence('LEVEL_TOO_LOW', 'Woodcutting level 15 required', 'player:action')).toBe(
      'Your level is too low for that. Woodcutting level 15 required.',
    );
    expect(errorSentence('INVENTORY_FULL', '', null)).toBe('Your inventory is full.');
    for (const code of tradeErrorCodes) expect(tradeErrorSentence(code, 'x')).not.toContain(code);
  });

  it('reads the seconds left of a cooldown', () => {
    expect(cooldownSeconds('home teleport ready in 1740 seconds')).toBe(1740);
    expect(cooldownSeconds('no number')).toBeNull();
  });
});
