/**
 * The wire types, from the server's own protocol (net/protocol: the zod schemas both sides share), so
 * the client never keeps a hand copy. Type-only: nothing of the server is bundled. Imported from the two
 * event modules rather than net/protocol/index.ts, whose codec needs Node's Buffer.
 */
import type { ClientEventName, ClientPayload } from '../../net/protocol/client-events.ts';
import type { ServerEventName, ServerPayload } from '../../net/protocol/server-events.ts';

export type { ClientEventName, ClientPayload, ServerEventName, ServerPayload };
export type ErrorCode = ServerPayload<'error'>['code'];
export type TradeErrorCode = ServerPayload<'tradeError'>['code'];

/** `player:sync`; `runEnergy` (0..100) comes from servers with run energy and is absent elsewhere. */
export type PlayerSync = ServerPayload<'player:sync'> & { runEnergy?: number };
export type WireEntity = ServerPayload<'world:update'>['entities'][number];
export type ItemStack = ServerPayload<'bank:update'>['items'][number];
export type TradeOffer = ServerPayload<'tradeUpdated'>['myOffer'];
export type QuestView = ServerPayload<'quest:list'>['quests'][number];
