import { z } from 'zod';
import type { PlayerAction } from '../../ecs/core/commands.ts';
import { clientEvent, command, defineWire, serverEvent, type WireFace } from '../../ecs/core/faces/wire.ts';
import { SKILLS } from '../../ecs/core/skills.ts';
import { FEATURES, PLAN } from '../../ecs/schedule.ts';
import { id, itemStack, skillValue, WIRE_EQUIP_SLOTS, type WireEquipSlot, wireEntity } from './shared.ts';

/** The `player:action` verbs some feature of the schedule answers: nothing is accepted that is not built. */
export const BUILT_ACTIONS = [...PLAN.actions.keys()] as [PlayerAction, ...PlayerAction[]];

/** Each answered verb's protocol line, from the wire face of the feature that answers it. */
function verbLine(verb: PlayerAction): string {
  for (const f of FEATURES) {
    const wire: WireFace | undefined = f.wire;
    const line = wire?.verbs?.[verb];
    if (line !== undefined) return line;
  }
  throw new Error(`player:action verb ${verb} has no protocol line in its feature's wire face`);
}

/** `player:action`'s reference: what it does, then each verb the schedule answers, in plan order. */
const PLAYER_ACTION_DOC = [
  'Act on a world entity (`targetId`: its wire id). A target out of reach is walked to first along a server path and the verb runs on arrival; a `player:move` cancels that, and a target that disappears on the way ends it silently.',
  `Verbs: ${BUILT_ACTIONS.map((v) => `\`${v}\` ${verbLine(v)}`).join('; ')}.`,
  'For every verb, a target the player does not see (farther than the view distance, a ground item still private to another player, or no entity at all) is `NOT_FOUND`, the same answer whichever it is, and the player takes no step.',
  'The schema accepts only the verbs this server answers.',
].join(' ');

/**
 * The events net builds itself, around the features' faces: logging in, the player's own state and the
 * world around it (both built after the tick by net/session and net/replication), and `player:action`,
 * which dispatches to whichever feature answers the verb.
 */
export const SESSION_WIRE = defineWire({
  client: {
    authenticate: clientEvent({
      schema: z.object({
        authToken: z.string().min(1).max(8192).optional(),
        characterId: id.optional(),
        name: z.string().min(1).max(64).optional(),
      }),
      doc: 'First message when the URL carries no `authToken`; within 30 s. In anonymous mode `authToken` may be left out. `characterId` picks a character, `name` names one to create.',
      translate: () => ({ kind: 'error', code: 'BAD_MESSAGE', message: 'already authenticated' }),
    }),
    'player:logout': clientEvent({
      schema: z.object({}),
      doc: 'Leave the game: the character leaves the world and is saved (friends see it go offline), then the server closes the socket with 1000. Nothing sent after it reaches the world. Closing the socket without it does the same, as a disconnect.',
      translate: () => ({ kind: 'logout' }),
    }),
    'player:action': clientEvent({
      schema: z.object({
        action: z.enum(BUILT_ACTIONS),
        targetId: id,
      }),
      doc: PLAYER_ACTION_DOC,
      translate: (base, p) => command({ ...base, type: 'action', action: p.action, targetId: p.targetId }),
    }),
  },
  server: {
    authResult: serverEvent({
      schema: z.union([
        z.object({
          success: z.literal(true),
          accountId: z.string(),
          characterId: z.string(),
          anonymous: z.boolean(),
          sessionToken: z.string(),
        }),
        z.object({ success: z.literal(false), error: z.string() }),
      ]),
      doc: "Outcome of authentication. On success followed, in the tick the player enters the world, by that tick's events, `world:update` and `player:sync`.",
    }),
    loginQueue: serverEvent({
      schema: z.object({ position: z.number().int().min(1) }),
      doc: 'Sent while an `authenticate` waits in the login queue (many logins at once, e.g. after a restart): `position` is 1 for the next login to start. Sent when queued and then at most once a second when the position changes; the login goes on by itself and ends with `authResult`. Keep the connection open: a queued login does not time out. A full queue answers `authResult` with `success:false` and closes with 1013 (try again later).',
    }),
    'player:sync': serverEvent({
      schema: z.object({
        id: z.string(),
        name: z.string(),
        position: z.object({ x: z.number(), y: z.number(), z: z.number() }),
        health: z.number(),
        maxHealth: z.number(),
        combatLevel: z.number().int(),
        coins: z.number().int().min(0),
        questPoints: z.number().int().min(0),
        skills: z.object(
          Object.fromEntries(SKILLS.map((s) => [s, skillValue])) as Record<
            (typeof SKILLS)[number],
            typeof skillValue
          >,
        ),
        inventory: z.array(itemStack.nullable()).length(28),
        equipment: z.object(
          Object.fromEntries(WIRE_EQUIP_SLOTS.map((s) => [s, itemStack.nullable()])) as Record<
            WireEquipSlot,
            ReturnType<typeof itemStack.nullable>
          >,
        ),
        voice: z.object({ enabled: z.boolean() }),
        runEnergy: z.number().int().min(0).max(100),
      }),
      doc: "The receiving player's full state. On entering the world, then at most once a tick when its inventory, equipment, coins, skills or health change. Within a tick it comes last, after the tick's events and its `world:update`: events say what happened during the tick (a hit to 0 health, a death), `world:update` and `player:sync` the state at its end, so a client applying a tick's messages in order is left in the tick's final state. `voice.enabled` tells whether voice chat is configured (then `GET /api/voice/token` answers a token for the player's room). `runEnergy` is the run energy in whole percent; between syncs its changes come as `player:energy`.",
    }),
    'world:update': serverEvent({
      schema: z.object({
        tick: z.number().int(),
        entities: z.array(wireEntity),
        removed: z.array(z.string()),
      }),
      doc: "What changed this tick among entities within the receiver's view: entered (all public fields) or changed (changed fields) in `entities`, left view or despawned in `removed`. What the tick showed on an entity rides in its entry, for everyone who sees it, once, in the tick it happened: `hits` (every hit it took, in order: `attackerId`, `damage`, 0 for a miss, `style`; its `health` in the same entry is what is left) and `death` (`killerId`, its last hitter). They belong to that tick: do not keep them on the entity. An entity that died and despawned (an NPC), or left view in the same tick it was hit (a player waking at the spawn), has its last entry in `entities` and its id in `removed`: apply `entities` first, then `removed`.",
    }),
  },
});
