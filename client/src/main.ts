import { PickupQueue, tileMenu } from './actions.ts';
import type { App, Panel } from './app.ts';
import { parseChat } from './commands.ts';
import { ITEM_WORDS } from './content.ts';
import { bindSocialEvents, type SocialMemory } from './events-social.ts';
import { bindWorldEvents } from './events-world.ts';
import { GameState } from './game.ts';
import { Hud } from './hud.ts';
import { GroundMap } from './map.ts';
import { Progress, TickClock } from './progress.ts';
import { camera, toScreen, toTile, zoom } from './render/camera.ts';
import { drawMinimap, minimapTile } from './render/minimap.ts';
import { drawView, lastFrame } from './render/view.ts';
import { Session } from './session.ts';
import { Story } from './story.ts';
import { Chrome } from './ui/chrome.ts';
import { renderCombat, renderMagic, renderPrayer } from './ui/combat.ts';
import { $ } from './ui/dom.ts';
import { renderInventory } from './ui/inventory.ts';
import { renderFriends, renderQuests } from './ui/social.ts';
import { renderEquipment, renderMe, renderSkills } from './ui/stats.ts';
import { renderTrade } from './ui/trade.ts';
import { renderBank, renderDialogue, renderShop, renderStation } from './ui/windows.ts';

/**
 * The web client: logs in (anonymously, or with the session token kept in localStorage) and stays in
 * (reconnecting when the connection drops), draws the world and turns clicks into the server's verbs.
 */

const view = $<HTMLCanvasElement>('view');
const minimap = $<HTMLCanvasElement>('minimap');
const ctx = view.getContext('2d') as CanvasRenderingContext2D;
const miniCtx = minimap.getContext('2d') as CanvasRenderingContext2D;
const params = new URLSearchParams(location.search);
const state = new GameState();
const ui = new Chrome();
const story = new Story((line) => ui.chatLine(line, 'system'), ITEM_WORDS);
let approaching: { id: string; then: () => void } | null = null;

const RENDER: Record<Panel, (a: App) => void> = {
  me: renderMe,
  inventory: renderInventory,
  equipment: renderEquipment,
  skills: renderSkills,
  combat: renderCombat,
  magic: renderMagic,
  prayer: renderPrayer,
  quests: renderQuests,
  friends: renderFriends,
  bank: renderBank,
  trade: renderTrade,
  station: renderStation,
  shop: renderShop,
  dialogue: renderDialogue,
};

const app: App = {
  state,
  ui,
  progress: new Progress(),
  clock: new TickClock(),
  map: null,
  send(event, payload) {
    const c = session.conn;
    if (!c?.open) {
      ui.chatLine('You are not connected right now.', 'error');
      return;
    }
    story.sent(event, payload as Record<string, unknown>);
    if (event === 'player:move' || event === 'player:action') approaching = null;
    // A friend request is told once the server's list shows it went out (or an error says why not).
    if (event === 'friend:request') memory.friendAsked = (payload as { name: string }).name;
    c.send(event, payload);
  },
  cause: (c) => story.set(c),
  refresh(...panels) {
    for (const p of panels) RENDER[p](app);
  },
  walk(x, z) {
    pickups.cancel();
    state.walkTarget = { x, z };
    app.send('player:move', state.run ? { x, z, run: true } : { x, z });
  },
  approach(id, then) {
    const e = state.entities.get(id);
    const me = state.me;
    if (!e || !me) return;
    if (Math.max(Math.abs(e.x - me.position.x), Math.abs(e.z - me.position.z)) <= 1) return then();
    // The free tile next to it nearest to me; then act once there.
    const around = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dz) => ({ x: e.x + dx, z: e.z + dz })));
    const free = around
      .filter((t) => (t.x !== e.x || t.z !== e.z) && app.map?.walkable(t.x, t.z) !== false)
      .sort(
        (a, b) =>
          Math.hypot(a.x - me.position.x, a.z - me.position.z) -
          Math.hypot(b.x - me.position.x, b.z - me.position.z),
      );
    const to = free[0];
    if (!to) return then();
    app.walk(to.x, to.z);
    approaching = { id, then };
  },
  homeTeleport: () => app.send('player:homeTeleport', {}),
  toggleRun() {
    state.run = !state.run;
    ui.chatLine(state.run ? 'You will run.' : 'You will walk.', 'system');
    app.refresh('me');
  },
  logout() {
    ui.chatLine('Logging out…', 'system');
    session.logout();
  },
};
const pickups = new PickupQueue(app);
const hud = new Hud(app, () => session);
const memory: SocialMemory = { privateTo: [], friendAsked: null, voiceRoom: () => void hud.fetchVoiceRoom() };

const session = new Session(
  {
    bind(c) {
      const listeners = { app, story, pickups };
      bindWorldEvents(c, listeners);
      bindSocialEvents(c, listeners, memory);
      c.on('loginQueue', (q) =>
        ui.chatLine(`Many players are logging in: you are number ${q.position} in the queue.`, 'system'),
      );
      c.on('authResult', (r) => {
        if (r.success) state.sessionToken = r.sessionToken;
      });
      let first = true;
      c.on('player:sync', (s) => {
        if (!first) return;
        first = false;
        state.voice.enabled = s.voice?.enabled === true;
        if (state.voice.enabled) void hud.fetchVoiceRoom();
        void hud.poll(); // count myself among the players online at once
      });
    },
    online(again) {
      story.reset();
      if (again) {
        state.forgetWorld();
        app.progress.end();
        app.refresh('bank', 'trade', 'shop', 'station', 'dialogue', 'inventory');
        ui.chatLine('Reconnected.', 'system');
      } else ui.chatLine('Welcome to Hyperscape. Type /help for the commands.', 'system');
      // The quest lines name their steps from the start, and the hint needs the list.
      app.send('quest:list', {});
    },
    phase: (p, detail) => hud.phase(p, detail),
  },
  params.get('name'),
);

// Read-only handle for the browser tests and the console.
(window as unknown as { __game: unknown }).__game = {
  state,
  frame: lastFrame,
  connected: () => session.phase === 'online',
  phase: () => session.phase,
  tile: () => zoom.tile,
  /** What I am busy with (gathering, making, teleporting) and how far along, or null. */
  progress: () =>
    app.progress.current && {
      kind: app.progress.current.kind,
      text: app.progress.text(),
      fraction: app.progress.fraction(performance.now()),
    },
  /** Page coordinates of a tile's centre on the stage. */
  screenOf(x: number, z: number) {
    const r = view.getBoundingClientRect();
    const { sx, sy } = toScreen(camera(state, view), x, z);
    return { x: r.left + sx, y: r.top + sy };
  },
};

view.addEventListener('click', (ev) => {
  ev.stopPropagation();
  if (!state.me) return;
  const rect = view.getBoundingClientRect();
  const { x, z } = toTile(camera(state, view), ev.clientX - rect.left, ev.clientY - rect.top);
  const menu = tileMenu(app, pickups, x, z);
  if (!menu) {
    ui.hideMenu();
    if (state.using) {
      state.using = null;
      app.refresh('inventory');
      return;
    }
    app.walk(x, z);
    return;
  }
  // A resource node alone on its tile is gathered on a click (the menu would offer just that).
  const here = state.at(x, z).filter((e) => e.id !== state.me?.id);
  const only = here[0];
  if (!state.using && here.length === 1 && only?.type === 'resource' && !only.depleted) {
    ui.hideMenu();
    app.send('player:action', { action: 'gather', targetId: only.id });
    return;
  }
  ui.menu(ev.clientX, ev.clientY, menu.title, menu.items);
});

view.addEventListener(
  'wheel',
  (ev) => {
    ev.preventDefault();
    zoom.tile = Math.max(zoom.min, Math.min(zoom.max, zoom.tile + (ev.deltaY < 0 ? 2 : -2)));
  },
  { passive: false },
);

minimap.addEventListener('click', (ev) => {
  ev.stopPropagation();
  // Inside the border, scaled to the canvas's own pixels (one a tile).
  const r = minimap.getBoundingClientRect();
  const px = ((ev.clientX - r.left - minimap.clientLeft) * minimap.width) / minimap.clientWidth;
  const py = ((ev.clientY - r.top - minimap.clientTop) * minimap.height) / minimap.clientHeight;
  const t = minimapTile(minimap, state, px, py);
  if (t) app.walk(t.x, t.z);
});

document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Escape' && state.using) {
    state.using = null;
    app.refresh('inventory');
  }
});

ui.onTab((tab) => {
  if (tab === 'quests') app.send('quest:list', {});
});

$<HTMLFormElement>('chat-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = $<HTMLInputElement>('chat-input');
  const intent = parseChat(input.value);
  input.value = '';
  if (!intent) return;
  switch (intent.kind) {
    case 'help':
      hud.help();
      return;
    case 'home':
      return app.homeTeleport();
    case 'run':
      return app.toggleRun();
    case 'logout':
      return app.logout();
    case 'private':
      memory.privateTo.push(intent.to);
      return app.send('player:chat', { message: intent.message, to: intent.to });
    case 'say':
    case 'server':
      return app.send('player:chat', { message: intent.message });
  }
});

function resize(): void {
  const r = view.getBoundingClientRect();
  if (view.width !== Math.floor(r.width) || view.height !== Math.floor(r.height)) {
    view.width = Math.floor(r.width);
    view.height = Math.floor(r.height);
  }
}

function frame(now: number): void {
  resize();
  const map = app.map;
  if (map && state.me) {
    const hint = hud.hint();
    drawView(ctx, state, map, app.progress, hint, now);
    drawMinimap(miniCtx, state, map, now);
    hud.tick(now, hint);
    document.body.dataset['position'] = `${state.me.position.x},${state.me.position.z}`;
    if (approaching) {
      const target = state.entities.get(approaching.id);
      const me = state.me.position;
      if (!target) approaching = null;
      else if (Math.max(Math.abs(target.x - me.x), Math.abs(target.z - me.z)) <= 1) {
        const { then } = approaching;
        approaching = null;
        then();
      }
    }
  }
  requestAnimationFrame(frame);
}

async function start(): Promise<void> {
  app.map = await GroundMap.load();
  session.start();
  requestAnimationFrame(frame);
  setInterval(() => void hud.poll(), 5000);
}

start().catch((err: unknown) => ui.chatLine(`Cannot start: ${String(err)}`, 'error'));
