import { z } from 'zod';
import { EQUIP_SLOTS } from '../../../ecs/core/character-state.ts';
import type { PlayerAction } from '../../../ecs/core/commands.ts';
import { SKILLS } from '../../../ecs/core/skills.ts';
import { PLAN } from '../../../ecs/schedule.ts';
import { clientEvent, command, serverEvent } from '../feature.ts';
import { errorCodes, id, itemStack, skillValue, wireEntity } from '../shared.ts';

/** The `player:action` verbs some feature of the schedule answers: nothing is accepted that is not built. */
export const BUILT_ACTIONS = [...PLAN.actions.keys()] as [PlayerAction, ...PlayerAction[]];

/** Logging in, the player's own state, the world around it, errors, and `player:action` dispatch. */

export const coreClientEvents = {
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
    doc: 'Act on a world entity (`targetId`: its wire id). A target out of reach is walked to first along a server path and the verb runs on arrival; a `player:move` cancels that, and a target that disappears on the way ends it silently. Verbs: `pickup` a ground item (reach 1); `bank` on a bank booth station or a banker NPC (reach 1; opens it: `bank:update`); `trade` a player (reach 2; = `trade:request`); `gather` at a resource node (reach 1: woodcutting, mining, fishing; `gathering:start` / `gathering:stop`); `use` a station (reach 1: furnace, anvil, range, fire, altar; answers `station:open` with what can be made there); `shop` on a shopkeeper NPC (reach 1; opens its shop: `shop:open`); `talk` to an NPC (reach 1; opens its dialogue: `dialogue:node`; an NPC with nothing to say is `INVALID_TARGET`); `attack` an attackable NPC, or a player where the area allows fighting (reach 1 for melee, the weapon range otherwise; a bow needs arrows in the ammo slot, else `MISSING_ITEMS`): the player swings every weapon speed ticks (default 4) while in reach and follows the target, until either dies, the player moves or the target leaves (`INVALID_TARGET` for what cannot be fought, `NOT_FOUND` for no such entity); `pray` at an altar station (reach 1) restores all prayer points. The schema accepts only the verbs this server answers.',
    translate: (base, p) => command({ ...base, type: 'action', action: p.action, targetId: p.targetId }),
  }),
} as const;

export const coreServerEvents = {
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
    doc: 'Outcome of authentication. On success followed by `player:sync` and `world:update`.',
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
        Object.fromEntries(EQUIP_SLOTS.map((s) => [s, itemStack.nullable()])) as Record<
          (typeof EQUIP_SLOTS)[number],
          ReturnType<typeof itemStack.nullable>
        >,
      ),
      voice: z.object({ enabled: z.boolean() }),
    }),
    doc: "The receiving player's full state. On entering the world, then at most once a tick when its inventory, equipment, coins, skills or health change. `voice.enabled` tells whether voice chat is configured (then `GET /api/voice/token` answers a token for the player's room).",
  }),
  'world:update': serverEvent({
    schema: z.object({
      tick: z.number().int(),
      entities: z.array(wireEntity),
      removed: z.array(z.string()),
    }),
    doc: "What changed this tick among entities within the receiver's view: entered (all public fields) or changed (changed fields) in `entities`, left view or despawned in `removed`.",
  }),
  'skill:xp': serverEvent({
    schema: z.object({
      skill: z.enum(SKILLS),
      xp: z.number(),
      gained: z.number(),
      level: z.number().int(),
    }),
    doc: 'Experience gained in a skill (`xp` is the new total).',
    from: 'skillXp',
  }),
  error: serverEvent({
    schema: z.object({ code: z.enum(errorCodes), message: z.string(), event: z.string().nullable() }),
    doc: 'A refused or malformed message. The connection stays open unless a close code follows.',
    from: 'error',
  }),
} as const;
