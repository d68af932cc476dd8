import type { CommandOf } from '../../core/commands.ts';
import type { SimEventData } from '../../core/events.ts';
import type { LeaveReason } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import { emit, emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import { MAX_FRIENDS, MAX_IGNORED, type SocialAction, type SocialLists } from './lists.ts';
import {
  type CachedLists,
  MAX_PENDING_ACTIONS,
  SOCIAL,
  type SocialOp,
  TAKEOVER_GRACE_TICKS,
} from './state.ts';

/**
 * Friends, friend requests and the ignore list (docs/social.md). The database is the authority: each
 * action is checked here against the player's cached lists (cheap refusals), then run by persistence in
 * one transaction outside the tick (`act` op); its outcome comes back as `socialResult` for the actor and
 * as `socialUpdate` (through the messaging port) for the other character. Presence goes out as a
 * `presence` op and comes back from the messaging port as `socialPresence`, the same in every world.
 */

function pushOp(world: GameWorld, op: SocialOp): void {
  const state = world.get(SOCIAL);
  if (state.opsTick !== world.tick) {
    state.ops = [];
    state.opsTick = world.tick;
  }
  state.ops.push(op);
}

/** This tick's requests to the outside; the bridge takes them after the tick. */
export function takeSocialOps(world: GameWorld): SocialOp[] {
  const state = world.get(SOCIAL);
  if (state.opsTick !== world.tick) return [];
  const ops = state.ops;
  state.ops = [];
  return ops;
}

/** The world a character is in as presence announced it (this one or another), or undefined when offline. */
export function onlineWorld(world: GameWorld, characterId: string): number | undefined {
  return world.get(SOCIAL).online.get(characterId)?.world;
}

/** Whether `receiverId` (in this world) ignores `senderId`: its chat never reaches the receiver. */
export function ignores(world: GameWorld, receiverId: string, senderId: string): boolean {
  return world.get(SOCIAL).lists.get(receiverId)?.ignored.has(senderId) ?? false;
}

function cache(lists: SocialLists): CachedLists {
  return {
    friends: new Map(lists.friends.map((f) => [f.id, f.name])),
    ignored: new Map(lists.ignored.map((f) => [f.id, f.name])),
    requests: new Map(lists.requests.map((r) => [r.requestId, r])),
    outgoing: new Map(lists.outgoing.map((f) => [f.id, f.name])),
  };
}

function setLists(world: GameWorld, id: string, lists: SocialLists): CachedLists {
  const state = world.get(SOCIAL);
  const old = state.lists.get(id);
  if (old) unwatch(world, id, old);
  const fresh = cache(lists);
  state.lists.set(id, fresh);
  for (const friendId of fresh.friends.keys()) {
    let set = state.watchers.get(friendId);
    if (!set) {
      set = new Set();
      state.watchers.set(friendId, set);
    }
    set.add(id);
  }
  return fresh;
}

/** `id` stops watching its friends' presence (empty watcher sets are dropped). */
function unwatch(world: GameWorld, id: string, lists: CachedLists): void {
  const watchers = world.get(SOCIAL).watchers;
  for (const friendId of lists.friends.keys()) {
    const set = watchers.get(friendId);
    if (!set) continue;
    set.delete(id);
    if (set.size === 0) watchers.delete(friendId);
  }
}

function sendList(world: GameWorld, id: string, lists: CachedLists): void {
  const online = world.get(SOCIAL).online;
  emit(world, id, 'socialList', {
    friends: [...lists.friends].map(([fid, name]) => {
      const where = online.get(fid);
      return where ? { id: fid, name, online: true, world: where.world } : { id: fid, name, online: false };
    }),
    ignored: [...lists.ignored].map(([iid, name]) => ({ id: iid, name })),
    requests: [...lists.requests.values()].map((r) => ({ ...r })),
  });
}

/**
 * A player's lists, set up on its first need in this world (entering, or a command in its join tick):
 * from the loaded slice, then the list is sent, presence announced (not after a takeover: the friends
 * never saw it leave) and its messages hosted here.
 */
function entered(world: GameWorld, player: PlayerData): CachedLists {
  const state = world.get(SOCIAL);
  const known = state.lists.get(player.characterId);
  if (known) return known;
  const id = player.characterId;
  const loaded = player.state.slices?.social;
  if (loaded && player.state.slices) delete player.state.slices.social;
  const lists = setLists(world, id, loaded ?? { friends: [], ignored: [], requests: [], outgoing: [] });
  sendList(world, id, lists);
  pushOp(world, { op: 'host', id, hosted: true });
  if (!state.takeovers.delete(id))
    pushOp(world, { op: 'presence', id, name: player.state.name, online: true });
  return lists;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const hasName = (m: Map<string, string>, name: string) => [...m.values()].some((n) => sameName(n, name));

/** Hands the action out, unless the player already has MAX_PENDING_ACTIONS waiting for an answer. */
function act(world: GameWorld, origin: string | undefined, action: SocialAction): void {
  const pending = world.get(SOCIAL).pending;
  const n = pending.get(action.actorId) ?? 0;
  if (n >= MAX_PENDING_ACTIONS) {
    emitError(world, action.actorId, 'BUSY', 'wait for the answer to your last friend actions', origin);
    return;
  }
  pending.set(action.actorId, n + 1);
  pushOp(world, { op: 'act', origin, action });
}

export function handleFriendRequest(world: GameWorld, cmd: CommandOf<'friendRequest'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const lists = entered(world, player);
  const id = player.characterId;
  if (sameName(cmd.name, player.state.name)) {
    emitError(world, id, 'INVALID_TARGET', 'you cannot add yourself as a friend', cmd.origin);
    return;
  }
  if (hasName(lists.friends, cmd.name)) {
    emitError(world, id, 'BUSY', `${cmd.name.trim()} is already your friend`, cmd.origin);
    return;
  }
  if (hasName(lists.outgoing, cmd.name)) {
    emitError(world, id, 'BUSY', `you already asked ${cmd.name.trim()}`, cmd.origin);
    return;
  }
  if (lists.friends.size >= MAX_FRIENDS) {
    emitError(world, id, 'REQUIREMENT_NOT_MET', `at most ${MAX_FRIENDS} friends`, cmd.origin);
    return;
  }
  act(world, cmd.origin, { kind: 'request', actorId: id, name: cmd.name.trim() });
}

export function handleFriendRespond(world: GameWorld, cmd: CommandOf<'friendRespond'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const lists = entered(world, player);
  const id = player.characterId;
  if (!lists.requests.has(cmd.requestId)) {
    emitError(world, id, 'NOT_FOUND', 'no such friend request', cmd.origin);
    return;
  }
  if (cmd.accept && lists.friends.size >= MAX_FRIENDS) {
    emitError(world, id, 'REQUIREMENT_NOT_MET', `at most ${MAX_FRIENDS} friends`, cmd.origin);
    return;
  }
  act(world, cmd.origin, { kind: 'respond', actorId: id, requestId: cmd.requestId, accept: cmd.accept });
}

export function handleFriendRemove(world: GameWorld, cmd: CommandOf<'friendRemove'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const lists = entered(world, player);
  if (!hasName(lists.friends, cmd.name) && !hasName(lists.outgoing, cmd.name)) {
    emitError(world, player.characterId, 'NOT_FOUND', `${cmd.name.trim()} is not your friend`, cmd.origin);
    return;
  }
  act(world, cmd.origin, { kind: 'remove', actorId: player.characterId, name: cmd.name.trim() });
}

export function handleIgnoreAdd(world: GameWorld, cmd: CommandOf<'ignoreAdd'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const lists = entered(world, player);
  const id = player.characterId;
  if (sameName(cmd.name, player.state.name)) {
    emitError(world, id, 'INVALID_TARGET', 'you cannot ignore yourself', cmd.origin);
    return;
  }
  if (hasName(lists.ignored, cmd.name)) {
    emitError(world, id, 'BUSY', `${cmd.name.trim()} is already ignored`, cmd.origin);
    return;
  }
  if (lists.ignored.size >= MAX_IGNORED) {
    emitError(world, id, 'REQUIREMENT_NOT_MET', `at most ${MAX_IGNORED} ignored players`, cmd.origin);
    return;
  }
  act(world, cmd.origin, { kind: 'ignoreAdd', actorId: id, name: cmd.name.trim() });
}

export function handleIgnoreRemove(world: GameWorld, cmd: CommandOf<'ignoreRemove'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const lists = entered(world, player);
  if (!hasName(lists.ignored, cmd.name)) {
    emitError(world, player.characterId, 'NOT_FOUND', `${cmd.name.trim()} is not ignored`, cmd.origin);
    return;
  }
  act(world, cmd.origin, { kind: 'ignoreRemove', actorId: player.characterId, name: cmd.name.trim() });
}

/** The committed outcome of the actor's action: an error, or its fresh lists. */
export function handleSocialResult(world: GameWorld, cmd: CommandOf<'socialResult'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  entered(world, player);
  const pending = world.get(SOCIAL).pending;
  const n = pending.get(player.characterId) ?? 0;
  if (n <= 1) pending.delete(player.characterId);
  else pending.set(player.characterId, n - 1);
  const { outcome } = cmd;
  if (!outcome.ok) {
    emitError(world, player.characterId, outcome.code, outcome.message, cmd.origin);
    return;
  }
  const mine = outcome.lists[player.characterId];
  if (mine) sendList(world, player.characterId, setLists(world, player.characterId, mine));
}

function sameLists(cached: CachedLists, lists: SocialLists): boolean {
  const same = (m: Map<string, string>, entries: { id: string; name: string }[]) =>
    m.size === entries.length && entries.every((e) => m.get(e.id) === e.name);
  return (
    same(cached.friends, lists.friends) &&
    same(cached.ignored, lists.ignored) &&
    same(cached.outgoing, lists.outgoing) &&
    cached.requests.size === lists.requests.length &&
    lists.requests.every((r) => cached.requests.has(r.requestId))
  );
}

/**
 * Another character's action changed this player's lists (a request arrived, a friendship began or
 * ended), or the lists as they are now after entering (a change between loading and hosting). The list
 * is sent when it differs from what the player has.
 */
export function handleSocialUpdate(world: GameWorld, cmd: CommandOf<'socialUpdate'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const cached = entered(world, player);
  if (cmd.received) emit(world, player.characterId, 'friendRequestReceived', { ...cmd.received });
  else if (sameLists(cached, cmd.lists)) return;
  sendList(world, player.characterId, setLists(world, player.characterId, cmd.lists));
}

/**
 * A character entered or left a world: its friends here hear it once per change, and when it moves to
 * another world. An offline from a world it is no longer in (it already entered another) is stale.
 */
export function handleSocialPresence(world: GameWorld, cmd: CommandOf<'socialPresence'>): void {
  const state = world.get(SOCIAL);
  const id = cmd.characterId;
  const known = state.online.get(id);
  if (cmd.online) {
    if (known?.world === cmd.world && known.name === cmd.name) return;
    if (known) state.onlineByName.delete(known.name.toLowerCase());
    state.online.set(id, { name: cmd.name, world: cmd.world });
    state.onlineByName.set(cmd.name.toLowerCase(), id);
    tellWatchers(world, id, { id, name: cmd.name, online: true, world: cmd.world });
  } else {
    if (!known || known.world !== cmd.world) return;
    goOffline(world, id, known.name);
  }
}

function goOffline(world: GameWorld, id: string, name: string): void {
  const state = world.get(SOCIAL);
  state.online.delete(id);
  state.onlineByName.delete(name.toLowerCase());
  tellWatchers(world, id, { id, name, online: false });
}

function tellWatchers(world: GameWorld, id: string, presence: SimEventData['friendPresence']): void {
  const watchers = world.get(SOCIAL).watchers.get(id);
  if (!watchers) return;
  for (const w of watchers) emit(world, w, 'friendPresence', { ...presence });
}

/** A world stopped: everyone announced there went with it (in id order: deterministic). */
export function handleSocialWorldDown(world: GameWorld, cmd: CommandOf<'socialWorldDown'>): void {
  const state = world.get(SOCIAL);
  const gone = [...state.online].filter(([, where]) => where.world === cmd.world).map(([id]) => id);
  for (const id of gone.sort()) goOffline(world, id, state.online.get(id)?.name ?? '');
}

/** An admin's message to every player of every world (out through the messaging port, back as `announcement`). */
export function announceEverywhere(world: GameWorld, from: PlayerData, message: string): void {
  pushOp(world, {
    op: 'announce',
    fromId: from.characterId,
    fromName: from.state.name,
    message,
    timestamp: Math.round(world.nowMs),
  });
}

/** An announcement reached this world: every player here gets it on the `system` channel. */
export function handleAnnouncement(world: GameWorld, cmd: CommandOf<'announcement'>): void {
  // One object for every receiver: delivery encodes it once.
  const line: SimEventData['chat'] = {
    fromId: 'system',
    fromName: 'Announcement',
    message: `${cmd.fromName}: ${cmd.message}`,
    channel: 'system',
    timestamp: cmd.timestamp,
  };
  for (const id of world.players.keys()) emit(world, id, 'chat', line);
}

/**
 * A private message to a player who is not in this world: when it is online elsewhere, it goes out
 * through the messaging port (true); false when no online player has that name.
 */
export function sendPrivateElsewhere(world: GameWorld, toName: string, line: SimEventData['chat']): boolean {
  const toId = world.get(SOCIAL).onlineByName.get(toName.trim().toLowerCase());
  if (toId === undefined || world.players.has(toId)) return false;
  const { fromId, fromName, message, timestamp } = line;
  pushOp(world, { op: 'privateMessage', toId, fromId, fromName, message, timestamp });
  return true;
}

/** A private message arrived from another world: delivered unless the receiver ignores the sender. */
export function handlePrivateMessage(world: GameWorld, cmd: CommandOf<'privateMessage'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || ignores(world, player.characterId, cmd.fromId)) return;
  const { fromId, fromName, message, timestamp } = cmd;
  emit(world, player.characterId, 'chat', { fromId, fromName, message, channel: 'private', timestamp });
}

/** System: players who entered this tick get their lists; takeovers that never came back go offline. */
export function socialSystem(world: GameWorld): void {
  for (const eid of world.spawned) {
    const player = world.playerByEid.get(eid);
    if (player) entered(world, player);
  }
  const state = world.get(SOCIAL);
  if (state.takeovers.size === 0) return;
  for (const [id, until] of state.takeovers) {
    if (world.tick < until) continue;
    state.takeovers.delete(id);
    pushOp(world, { op: 'presence', id, name: state.online.get(id)?.name ?? '', online: false });
  }
}

/**
 * Leaving: the lists are dropped and the messages no longer hosted here; friends hear it, except after
 * a takeover, where the new connection's join follows at once (no offline/online flicker). A takeover
 * that does not come back within TAKEOVER_GRACE_TICKS is announced offline then.
 */
export function onLeave(world: GameWorld, player: PlayerData, reason: LeaveReason): void {
  const state = world.get(SOCIAL);
  const id = player.characterId;
  const lists = state.lists.get(id);
  if (!lists) return;
  unwatch(world, id, lists);
  state.lists.delete(id);
  state.pending.delete(id);
  pushOp(world, { op: 'host', id, hosted: false });
  if (reason === 'takeover') state.takeovers.set(id, world.tick + TAKEOVER_GRACE_TICKS);
  else pushOp(world, { op: 'presence', id, name: player.state.name, online: false });
}

export function hashSocial(world: GameWorld, h: Hasher): void {
  const state = world.get(SOCIAL);
  for (const [id, lists] of state.lists) {
    h.str(id);
    for (const m of [lists.friends, lists.ignored, lists.outgoing]) {
      h.int(m.size);
      for (const k of m.keys()) h.str(k);
    }
    h.int(lists.requests.size);
    for (const k of lists.requests.keys()) h.str(k);
  }
  for (const [id, n] of state.pending) {
    h.str(id);
    h.int(n);
  }
  h.int(state.online.size);
  for (const [id, where] of state.online) {
    h.str(id);
    h.int(where.world);
  }
  for (const [id, until] of state.takeovers) {
    h.str(id);
    h.int(until);
  }
}
