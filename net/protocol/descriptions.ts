import type { ClientEventName } from './client-events.ts';
import type { ServerEventName } from './server-events.ts';

/** One line per event for the generated protocol reference (docs/protocol.md). */

export const clientEventDocs: Record<ClientEventName, string> = {
  authenticate:
    'First message when the URL carries no `authToken`; within 30 s. In anonymous mode `authToken` may be left out. `characterId` picks a character, `name` names one to create.',
  'player:move':
    'Walk (2 tiles a tick) or run (4) to a tile along a server-computed path. More than 200 tiles away (Chebyshev): `error TOO_FAR`; unreachable: `INVALID_TARGET`. `{cancel:true}` stops. Cancels an open trade (`moved`).',
  'player:action':
    'Act on a world entity: `pickup` a ground item, `bank` (open: `bank:update`), `trade` (= tradeRequest).',
  'player:chat':
    'Local chat (heard within view) or, with `to`, a private message by player name. 1-255 characters after trimming. A message starting with `/` is a command (see docs/admin.md); `/admin <code>` unlocks admin commands.',
  'inventory:use':
    'Use the item in a slot: eat food, equip a wearable; optionally on another slot (`targetSlot`) or a world entity (`targetId`).',
  'inventory:drop':
    'Drop (part of) a stack to the ground at your tile. Only you see it for a while, then everyone.',
  'inventory:move': 'Swap the contents of two inventory slots.',
  'equipment:unequip': 'Take a worn item off into the inventory (`INVENTORY_FULL` when there is no room).',
  'bank:deposit': 'Within 2 tiles of a bank: deposit a slot (quantity defaults to the whole stack).',
  'bank:withdraw':
    'Within 2 tiles of a bank: withdraw an item id (quantity defaults to all of it that fits).',
  tradeRequest: 'Ask a player within 2 tiles to trade.',
  tradeRequestRespond: 'Accept or decline an incoming trade request.',
  tradeAddItem:
    'Offer an inventory slot (quantity defaults to the whole stack), or set the offered coins with `{tradeId, coins}`.',
  tradeRemoveItem: 'Take an entry off your offer by its trade slot.',
  tradeAccept: 'Accept the current trade screen.',
  tradeCancel: 'Cancel the trade.',
};

export const serverEventDocs: Record<ServerEventName, string> = {
  authResult: 'Outcome of authentication. On success followed by `player:sync` and `world:update`.',
  'player:sync':
    "The receiving player's full state. On entering the world, then at most once a tick when its inventory, equipment, coins, skills or health change.",
  'world:update':
    "What changed this tick among entities within the receiver's view: entered (all public fields) or changed (changed fields) in `entities`, left view or despawned in `removed`.",
  'combat:hit': 'A combat hit.',
  'skill:xp': 'Experience gained in a skill (`xp` is the new total).',
  'chat:message':
    'A chat line: `local` (heard within view), `private`, or `system` (the server, e.g. command replies).',
  'bank:update': "The player's bank contents, after opening the bank or any deposit or withdrawal.",
  error: 'A refused or malformed message. The connection stays open unless a close code follows.',
  tradeIncoming: 'Someone asks you to trade.',
  tradeStarted: 'The request was accepted: the offer screen opens for both players.',
  tradeUpdated: 'An offer or an accept changed (offer screen). Offers are relative to the receiver.',
  tradeConfirmScreen:
    'Both accepted the offer screen: the confirmation screen, with total values of each offer.',
  tradeCompleted: 'The items were swapped in one database transaction; what you received.',
  tradeCancelled: 'The trade ended without a swap, with the reason.',
  tradeError: 'A trade command was refused, or the completion failed.',
};
