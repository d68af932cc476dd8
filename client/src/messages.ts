import type { ErrorCode, ServerPayload, TradeErrorCode } from './wire.ts';

/**
 * Every code and reason the server sends, in words a player understands. One table per kind; the
 * compiler checks each covers the protocol's list, and tests/unit/client-messages.test.ts checks them
 * against the lists themselves.
 */

export const ERROR_SENTENCES: Record<ErrorCode, string> = {
  BAD_MESSAGE: 'The server did not understand that.',
  RATE_LIMITED: 'Slow down a little: you are doing that too often.',
  NOT_AUTHENTICATED: 'You are not logged in yet.',
  TOO_FAR: 'You are too far away.',
  INVALID_TARGET: "You can't do that there.",
  INVALID_SLOT: 'There is nothing in that slot.',
  INTERFACE_BLOCKED: 'Close the open window first.',
  REQUIREMENT_NOT_MET: "You don't meet the requirements for that yet.",
  INVENTORY_FULL: 'Your inventory is full.',
  NOT_FOUND: 'That is not here any more.',
  FORBIDDEN: 'You are not allowed to do that.',
  INVALID_QUANTITY: "That amount doesn't work.",
  BUSY: 'You are busy with something else.',
  INSUFFICIENT_FUNDS: "You don't have enough coins.",
  OUT_OF_STOCK: 'The shop has run out of that.',
  UNTRADEABLE: "That item can't be traded.",
  IN_COMBAT: "You can't do that during a fight.",
  COOLDOWN: 'You have to wait before doing that again.',
  LEVEL_TOO_LOW: 'Your level is too low for that.',
  MISSING_TOOL: "You don't have the tool for that.",
  MISSING_ITEMS: "You don't have the items for that.",
  INTERNAL: 'Something went wrong on the server; try again.',
};

export const TRADE_ERROR_SENTENCES: Record<TradeErrorCode, string> = {
  NOT_FOUND: 'That trade no longer exists.',
  NOT_PARTICIPANT: 'That is not your trade.',
  WRONG_STATE: 'The trade has moved on: look at the trade window again.',
  TOO_FAR: 'You are too far away to trade: stand within two tiles.',
  SELF_TRADE: "You can't trade with yourself.",
  TARGET_OFFLINE: 'That player is not online.',
  PLAYER_BUSY: 'That player is busy right now.',
  INVALID_SLOT: 'There is nothing in that slot to offer.',
  INVALID_QUANTITY: "That amount doesn't work.",
  UNTRADEABLE: "That item can't be traded.",
  INVENTORY_FULL: 'One of you has no room for what the trade would give.',
  RATE_LIMITED: 'Slow down: too many trade actions at once.',
  FAILED: 'The trade failed; nothing changed hands.',
};

export const TRADE_CANCEL_REASONS: Record<ServerPayload<'tradeCancelled'>['reason'], string> = {
  declined: 'The trade was declined.',
  cancelled: 'The trade was cancelled.',
  expired: 'The trade request expired.',
  disconnected: 'The other player left, so the trade was cancelled.',
  moved: 'Someone walked away, so the trade was cancelled.',
  died: 'Someone died, so the trade was cancelled.',
  failed: 'The trade failed; nothing changed hands.',
};

export const GATHER_STOP_REASONS: Record<ServerPayload<'gathering:stop'>['reason'], string> = {
  depleted: 'You stop gathering: nothing is left here for now.',
  inventory_full: 'You stop gathering: your inventory is full.',
  moved: 'You stop gathering.',
  interrupted: 'You stop gathering: you were interrupted.',
};

export const MAKE_STOP_REASONS: Record<ServerPayload<'processing:stop'>['reason'], string> = {
  done: 'done',
  missing_items: 'you ran out of materials',
  inventory_full: 'your inventory is full',
  moved: 'you walked away',
  interrupted: 'you were interrupted',
};

export const TELEPORT_INTERRUPTIONS: Record<ServerPayload<'teleport:interrupted'>['reason'], string> = {
  moved: 'Your teleport was interrupted because you moved.',
  hit: 'Your teleport was interrupted because you were hit.',
  action: 'Your teleport was interrupted because you did something else.',
  left: 'Your teleport was interrupted.',
};

/** What some refusals mean for one event in particular. */
const BY_EVENT: Partial<Record<string, Partial<Record<ErrorCode, string>>>> = {
  'player:move': {
    INVALID_TARGET: "You can't reach that spot.",
    TOO_FAR: 'That is too far to walk in one go: pick a closer spot.',
  },
  'player:homeTeleport': { IN_COMBAT: "You can't teleport during a fight." },
  'player:chat': { NOT_FOUND: 'Nobody of that name is online.' },
  'friend:request': { NOT_FOUND: 'There is no player of that name.' },
};

/** A full sentence of the server's (starts with a capital, ends with a stop) speaks for itself. */
const isSentence = (s: string) => /^[A-Z].*[.!?]$/.test(s.trim());

/** An `error` event as a line for the chat: never the raw code. */
export function errorSentence(code: ErrorCode, message: string, event: string | null): string {
  const special = event ? BY_EVENT[event]?.[code] : undefined;
  if (special) return special;
  if (isSentence(message)) return message.trim();
  const base = ERROR_SENTENCES[code] ?? 'That did not work.';
  const detail = message.trim();
  if (detail === '') return base;
  return `${base} ${detail.charAt(0).toUpperCase()}${detail.slice(1)}${/[.!?]$/.test(detail) ? '' : '.'}`;
}

export function tradeErrorSentence(code: TradeErrorCode, message: string): string {
  return TRADE_ERROR_SENTENCES[code] ?? (isSentence(message) ? message : 'The trade did not work.');
}

/** Seconds left in a COOLDOWN message (`home teleport ready in 1740 seconds`), or null. */
export function cooldownSeconds(message: string): number | null {
  const m = /(\d+)\s*(?:s\b|sec|second)/i.exec(message) ?? /(\d+)/.exec(message);
  return m ? Number(m[1]) : null;
}

/** 95 → `1:35`; 3700 → `1:01:40`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}
