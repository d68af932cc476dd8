import { HAND_RECIPES, RESOURCES } from 'virtual:content';
import type { PickupQueue } from './actions.ts';
import type { App } from './app.ts';
import type { GameConnection } from './connection.ts';
import { itemName } from './content.ts';
import { prettyId } from './game.ts';
import {
  cooldownSeconds,
  errorSentence,
  GATHER_STOP_REASONS,
  MAKE_STOP_REASONS,
  TELEPORT_INTERRUPTIONS,
} from './messages.ts';
import type { Story } from './story.ts';

/**
 * The server's events about me and the world: my state, what is in view, fights and deaths, xp and
 * levels, prayer, gathering, making, the home teleport and errors, each turned into state and words.
 */

export interface Listeners {
  app: App;
  story: Story;
  pickups: PickupQueue;
}

export function bindWorldEvents(c: GameConnection, { app, story, pickups }: Listeners): void {
  const { state, ui, progress } = app;

  // Levels as skill:xp last told them: the sync of the same tick comes first and already has the new one.
  const levels = new Map<string, number>();

  c.on('player:sync', (s) => {
    for (const [skill, v] of Object.entries(s.skills)) if (!levels.has(skill)) levels.set(skill, v.level);
    state.me = s;
    const self = state.entities.get(s.id);
    if (self) {
      self.health = s.health;
      self.maxHealth = s.maxHealth;
    }
    story.sync(s);
    app.refresh('me', 'inventory', 'equipment', 'skills', 'combat', 'magic');
    if (state.shop) app.refresh('shop'); // the coins line
  });

  c.on('player:energy', (e) => {
    if (!state.me) return;
    state.me.runEnergy = e.runEnergy;
    app.refresh('me');
  });

  c.on('world:update', (u) => {
    state.tick = u.tick;
    const now = performance.now();
    app.clock.observe(u.tick, now);
    for (const id of u.removed) pickups.settled(id);
    // Hits and deaths ride in the entity's entry, once per tick for everyone who sees it. A dead NPC's
    // last entry comes with its id in `removed` too: shown where it fell, then gone.
    const gone = new Set(u.removed);
    for (const e of u.entities) {
      for (const h of e.hits ?? [])
        state.splats.push({ targetId: e.id, damage: h.damage, until: now + 1000 });
      if (e.death === undefined) continue;
      const seen = state.lookup(e.id);
      if (seen)
        state.deaths.set(e.id, { e: { ...seen, ...e, x: seen.x, z: seen.z, health: 0 }, until: now + 2000 });
    }
    state.applyUpdate(gone.size === 0 ? u.entities : u.entities.filter((e) => !gone.has(e.id)), u.removed);
  });

  // My own fights' events: the splats and deaths are drawn from world:update above.
  c.on('entity:death', (d) => {
    const e = state.lookup(d.id);
    if (d.id === state.me?.id) {
      story.set({ kind: 'quiet' });
      progress.end();
      ui.chatLine(
        'Oh dear, you are dead! What you carried lies where you fell; go back for it soon.',
        'error',
      );
    } else if (e && d.killerId === state.me?.id) ui.chatLine(`You killed ${e.name ?? 'it'}.`, 'system');
  });

  c.on('skill:xp', (x) => {
    const before = levels.get(x.skill);
    levels.set(x.skill, x.level);
    state.xpDrops.push({ text: `+${x.gained} ${prettyId(x.skill)}`, start: performance.now() });
    if (state.xpDrops.length > 6) state.xpDrops.shift();
    if (before !== undefined && x.level > before) {
      const line = `Congratulations, you just advanced ${/^[AEIOU]/.test(prettyId(x.skill)) ? 'an' : 'a'} ${prettyId(x.skill)} level. You are now level ${x.level}.`;
      ui.chatLine(line, 'level');
      ui.toast(`${prettyId(x.skill)} level ${x.level}!`);
    }
    if (progress.current?.kind === 'gather') progress.step(performance.now());
  });

  c.on('prayer:state', (p) => {
    const was = state.prayer;
    state.prayer = p;
    if (was.active.length > 0 && p.points === 0 && was.points > 0)
      ui.chatLine('You have run out of prayer points: your prayers stop.', 'error');
    // Back to full with the same maximum: an altar (a higher maximum is a level gained).
    if (p.points > was.points && p.points === p.maxPoints && p.maxPoints === was.maxPoints)
      ui.chatLine('You recharge your prayer points.', 'system');
    app.refresh('prayer', 'me');
  });

  c.on('gathering:start', (g) => {
    const node = RESOURCES[g.resourceId];
    const verb =
      g.skill === 'woodcutting'
        ? 'chop'
        : g.skill === 'mining'
          ? 'mine'
          : g.skill === 'fishing'
            ? 'fish at'
            : 'gather from';
    ui.chatLine(
      `You start ${prettyId(g.skill).toLowerCase()}: you ${verb} the ${node?.name ?? prettyId(g.resourceId)}.`,
      'system',
    );
    story.setOngoing({ kind: 'gather' });
    progress.begin('gather', prettyId(g.skill), 4 * app.clock.ms, performance.now());
  });
  c.on('gathering:stop', (g) => {
    story.ended({ kind: 'gather' });
    progress.end('gather');
    ui.chatLine(GATHER_STOP_REASONS[g.reason] ?? 'You stop gathering.', 'system');
  });

  c.on('processing:start', (p) => {
    const fire = HAND_RECIPES.some((r) => r.kind === 'firemaking' && r.recipeId === p.recipeId);
    story.setOngoing({ kind: 'make', fire });
    story.set({ kind: 'make', fire }, 500);
    ui.chatLine(
      fire
        ? `You try to light the ${itemName(p.recipeId)}.`
        : `You start making ${p.quantity} × ${itemName(p.recipeId)}.`,
      'system',
    );
    progress.begin(
      'make',
      fire ? 'Lighting a fire' : `Making ${itemName(p.recipeId)}`,
      4 * app.clock.ms,
      performance.now(),
      p.quantity,
    );
  });
  c.on('processing:stop', (p) => {
    progress.end('make');
    // Let the last item's story be told as made, then stop attributing.
    setTimeout(() => story.setOngoing(null), 300);
    const why = MAKE_STOP_REASONS[p.reason] ?? p.reason;
    if (HAND_RECIPES.some((r) => r.kind === 'firemaking' && r.recipeId === p.recipeId)) {
      if (p.reason !== 'done') ui.chatLine(`You could not light the fire: ${why}.`, 'error');
      return;
    }
    ui.chatLine(
      p.reason === 'done'
        ? `You finish making ${itemName(p.recipeId)}: ${p.made} done.`
        : `You stop making ${itemName(p.recipeId)} (${p.made} made): ${why}.`,
      'system',
    );
  });

  c.on('teleport:start', (t) => {
    const ms = t.ticks * app.clock.ms;
    state.teleport = { start: performance.now(), ms };
    progress.begin('teleport', 'Teleporting home', ms, performance.now());
    ui.chatLine('You start casting the home teleport: stand still.', 'system');
    app.refresh('magic');
  });
  c.on('teleport:done', () => {
    state.teleport = null;
    state.teleportCooling = true;
    state.teleportReadyAt = null;
    progress.end('teleport');
    ui.chatLine('You arrive home. The home teleport now needs time to cool down.', 'system');
    app.refresh('magic');
  });
  c.on('teleport:interrupted', (t) => {
    state.teleport = null;
    progress.end('teleport');
    ui.chatLine(TELEPORT_INTERRUPTIONS[t.reason] ?? 'Your teleport was interrupted.', 'error');
    app.refresh('magic');
  });

  c.on('error', (e) => {
    pickups.settled(null);
    if (e.code === 'COOLDOWN' && e.event === 'player:homeTeleport') {
      const s = cooldownSeconds(e.message);
      if (s !== null) {
        state.teleportReadyAt = performance.now() + s * 1000;
        state.teleportCooling = true;
        app.refresh('magic');
      }
    }
    ui.chatLine(errorSentence(e.code, e.message, e.event), 'error');
  });
}
