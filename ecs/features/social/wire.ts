import { z } from 'zod';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** The social wire face: friends, friend requests, the ignore list and presence (docs/social.md). */

const name = z.string().trim().min(1).max(64);
const entry = z.object({ id: z.string(), name: z.string() });
export const friendRequest = z.object({ requestId: z.string(), fromId: z.string(), fromName: z.string() });

export const socialList = z.object({
  friends: z.array(entry.extend({ online: z.boolean(), world: z.number().int().optional() })),
  ignored: z.array(entry),
  requests: z.array(friendRequest),
});
export const friendPresence = z.object({
  id: z.string(),
  name: z.string(),
  online: z.boolean(),
  world: z.number().int().optional(),
});

export const socialWire = defineWire({
  client: {
    'friend:request': clientEvent({
      schema: z.object({ name }),
      doc: 'Ask the named player (online or not) to be friends; it sees `friend:requestReceived` at once when online, or on its next `social:list`. When it had already asked you, you become friends at once. Errors: `NOT_FOUND` (no such name), `BUSY` (already asked or already friends), `INVALID_TARGET` (yourself), `REQUIREMENT_NOT_MET` (200 friends).',
      translate: (base, p) => command({ ...base, type: 'friendRequest', name: p.name }),
    }),
    'friend:respond': clientEvent({
      schema: z.object({ requestId: z.string().min(1).max(200), accept: z.boolean() }),
      doc: 'Answer a pending request: `accept: true` makes you both friends, `false` drops it. `NOT_FOUND` for an unknown request, `REQUIREMENT_NOT_MET` when either side has 200 friends.',
      translate: (base, p) =>
        command({ ...base, type: 'friendRespond', requestId: p.requestId, accept: p.accept }),
    }),
    'friend:remove': clientEvent({
      schema: z.object({ name }),
      doc: 'End a friendship, for both sides (or withdraw your own pending request). `NOT_FOUND` when that player is not your friend.',
      translate: (base, p) => command({ ...base, type: 'friendRemove', name: p.name }),
    }),
    'ignore:add': clientEvent({
      schema: z.object({ name }),
      doc: 'Ignore the named player: its local chat and private messages no longer reach you (it is not told). The list belongs to your account. Errors: `NOT_FOUND`, `BUSY` (already ignored), `INVALID_TARGET` (yourself), `REQUIREMENT_NOT_MET` (100 ignored).',
      translate: (base, p) => command({ ...base, type: 'ignoreAdd', name: p.name }),
    }),
    'ignore:remove': clientEvent({
      schema: z.object({ name }),
      doc: 'Stop ignoring the named player. `NOT_FOUND` when it is not on your list.',
      translate: (base, p) => command({ ...base, type: 'ignoreRemove', name: p.name }),
    }),
  },
  server: {
    'social:list': serverEvent({
      schema: socialList,
      doc: 'Your friends (with whether each is in the game and, when it is, `world`: the id of the world it is in, as `GET /api/worlds` lists them), your ignore list and the requests waiting for your answer; on entering the world and after every change.',
      from: 'socialList',
    }),
    'friend:requestReceived': serverEvent({
      schema: friendRequest,
      doc: 'Someone asked you to be friends; answer with `friend:respond {requestId, accept}`.',
      from: 'friendRequestReceived',
    }),
    'friend:presence': serverEvent({
      schema: friendPresence,
      doc: 'A friend entered a world (`online: true`, with `world` its id), moved to another world (again `online: true`, the new `world`) or left the game (`online: false`; also when its world stops answering). A reconnection that takes over a session is not announced.',
      from: 'friendPresence',
    }),
  },
});
