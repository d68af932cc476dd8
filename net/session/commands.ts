import type { Command } from '../../ecs/commands.ts';
import type { ClientMessage, ErrorCode } from '../protocol/index.ts';

/**
 * Client message → simulation command (ARCHITECTURE rule 2: adapters only enqueue intents). Pure: the
 * session app decides what to do with the result. `origin` is the wire event, echoed in error events.
 */

export type Translation =
  | { kind: 'command'; command: Command }
  /** `/admin <code>`: checked in net (admin.ts), never seen by the simulation. */
  | { kind: 'admin'; code: string }
  | { kind: 'error'; code: ErrorCode; message: string };

export const CHAT_MAX_LENGTH = 255;

// C0 and C1 control characters (tabs and newlines included): never delivered.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The deliverable form of a chat line (contract §2.1): control characters removed, trimmed. */
export function cleanChat(message: string): string {
  return message.replace(CONTROL_CHARS, '').trim();
}

export function translate(characterId: string, m: ClientMessage): Translation {
  const origin = m.event;
  const base = { characterId, origin };
  const command = (c: Command): Translation => ({ kind: 'command', command: c });
  switch (m.event) {
    case 'authenticate':
      return { kind: 'error', code: 'BAD_MESSAGE', message: 'already authenticated' };
    case 'player:move': {
      const p = m.payload;
      if ('cancel' in p) return command({ ...base, type: 'moveCancel' });
      return command({ ...base, type: 'move', x: p.x, z: p.z, run: p.run ?? false });
    }
    case 'player:action':
      return command({ ...base, type: 'action', action: m.payload.action, targetId: m.payload.targetId });
    case 'player:chat':
      return chat(base, m.payload.message, m.payload.to);
    case 'inventory:use':
      return command({
        ...base,
        type: 'inventoryUse',
        slot: m.payload.slot,
        targetSlot: m.payload.targetSlot,
        targetId: m.payload.targetId,
      });
    case 'inventory:drop':
      return command({ ...base, type: 'inventoryDrop', slot: m.payload.slot, quantity: m.payload.quantity });
    case 'inventory:move':
      return command({ ...base, type: 'inventoryMove', from: m.payload.from, to: m.payload.to });
    case 'equipment:unequip':
      return command({ ...base, type: 'unequip', slot: m.payload.slot });
    case 'bank:deposit':
      return command({ ...base, type: 'bankDeposit', slot: m.payload.slot, quantity: m.payload.quantity });
    case 'bank:withdraw':
      return command({
        ...base,
        type: 'bankWithdraw',
        itemId: m.payload.itemId,
        quantity: m.payload.quantity,
      });
    case 'tradeRequest':
      return command({ ...base, type: 'tradeRequest', targetPlayerId: m.payload.targetPlayerId });
    case 'tradeRequestRespond':
      return command({
        ...base,
        type: 'tradeRespond',
        tradeId: m.payload.tradeId,
        accept: m.payload.accept,
      });
    case 'tradeAddItem': {
      const p = m.payload;
      if ('coins' in p)
        return command({ ...base, type: 'tradeSetCoins', tradeId: p.tradeId, coins: p.coins });
      return command({
        ...base,
        type: 'tradeAddItem',
        tradeId: p.tradeId,
        inventorySlot: p.inventorySlot,
        quantity: p.quantity,
      });
    }
    case 'tradeRemoveItem':
      return command({
        ...base,
        type: 'tradeRemoveItem',
        tradeId: m.payload.tradeId,
        tradeSlot: m.payload.tradeSlot,
      });
    case 'tradeAccept':
      return command({ ...base, type: 'tradeAccept', tradeId: m.payload.tradeId });
    case 'tradeCancel':
      return command({ ...base, type: 'tradeCancel', tradeId: m.payload.tradeId });
  }
}

function chat(
  base: { characterId: string; origin: string },
  raw: string,
  to: string | undefined,
): Translation {
  const message = cleanChat(raw);
  if (message.length === 0) return { kind: 'error', code: 'BAD_MESSAGE', message: 'chat message is blank' };
  if (message.length > CHAT_MAX_LENGTH) {
    return {
      kind: 'error',
      code: 'BAD_MESSAGE',
      message: `chat message is longer than ${CHAT_MAX_LENGTH} characters`,
    };
  }
  if (message.startsWith('/')) {
    // Commands are never broadcast (contract §2.4).
    const [head = '', ...args] = message.slice(1).split(/\s+/);
    const name = head.toLowerCase();
    if (name === '') return { kind: 'error', code: 'BAD_MESSAGE', message: 'empty command' };
    if (name === 'admin') return { kind: 'admin', code: args.join(' ') };
    return { kind: 'command', command: { ...base, type: 'chatCommand', name, args } };
  }
  return {
    kind: 'command',
    command: { ...base, type: 'chat', message, ...(to !== undefined ? { to } : {}) },
  };
}
