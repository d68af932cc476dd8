import { AREAS, NPC_VERBS } from 'virtual:content';
import { GameState, prettyId, type ViewEntity } from './game.ts';
import { GroundMap } from './map.ts';
import { GameConnection } from './protocol.ts';
import { camera, drawMinimap, drawView, toTile } from './render.ts';
import { type MenuItem, Ui } from './ui.ts';

/**
 * The web client: logs in (anonymously, or with the session token kept in localStorage), draws the
 * ground and what world:update says is in view, and turns clicks into player:move / player:action.
 */

const TOKEN_KEY = 'hyperscape.sessionToken';
const state = new GameState();
let conn: GameConnection | null = null;
const ui = new Ui(state, () => conn);
const view = document.getElementById('view') as HTMLCanvasElement;
const minimap = document.getElementById('minimap') as HTMLCanvasElement;
const ctx = view.getContext('2d') as CanvasRenderingContext2D;
const miniCtx = minimap.getContext('2d') as CanvasRenderingContext2D;
const params = new URLSearchParams(location.search);
let map: GroundMap | null = null;
let playersOnline: number | null = null;
let pingMs: number | null = null;
let connected = false;
/** Recipients of my private messages not echoed back yet, oldest first. */
const privateTo: string[] = [];

// Read-only handle for tests and the browser console.
(window as unknown as { __game: unknown }).__game = { state, connected: () => connected };

function connect(useStoredToken: boolean): void {
  const stored = useStoredToken ? localStorage.getItem(TOKEN_KEY) : null;
  const c = new GameConnection(GameConnection.urlFor(location));
  conn = c;
  c.opened()
    .then(() => {
      const auth: Record<string, string> = {};
      if (stored) auth['authToken'] = stored;
      const name = params.get('name');
      if (name) auth['name'] = name;
      c.send('authenticate', auth);
    })
    .catch(() => ui.chatLine('Cannot reach the server.', 'error'));
  c.onClose((code) => {
    connected = false;
    if (conn !== c) return;
    ui.chatLine(code === 4002 ? 'Logged in elsewhere.' : `Disconnected (${code}).`, 'error');
  });
  c.on('authResult', (r) => {
    if (!r.success) {
      if (stored) {
        // A stale token (expired, or the server's secret changed): forget it and log in anew.
        localStorage.removeItem(TOKEN_KEY);
        conn = null;
        connect(false);
      } else ui.chatLine(`Login failed: ${r.error}`, 'error');
      return;
    }
    connected = true;
    state.sessionToken = r.sessionToken;
    localStorage.setItem(TOKEN_KEY, r.sessionToken);
    void poll(); // count myself among the players online at once
  });
  c.on('loginQueue', (q) => ui.chatLine(`In the login queue: position ${q.position}`, 'system'));
  c.on('player:sync', (s) => {
    const first = state.me === null;
    state.me = s;
    const self = state.entities.get(s.id);
    if (self) {
      self.health = s.health;
      self.maxHealth = s.maxHealth;
    }
    if (first) {
      ui.chatLine(`Welcome, ${s.name}.`, 'system');
      state.voice.enabled = s.voice?.enabled === true;
      if (state.voice.enabled) void fetchVoiceRoom();
    }
    ui.renderMe();
    ui.renderInventory();
    ui.renderEquipment();
    ui.renderSkills();
    ui.renderCombat();
    ui.renderPrayer();
    if (state.shop) ui.renderShop(); // the coins line
  });
  c.on('world:update', (u) => {
    state.tick = u.tick;
    state.applyUpdate(u.entities, u.removed);
  });
  c.on('combat:hit', (h) => {
    state.splats.push({ targetId: h.targetId, damage: h.damage, until: performance.now() + 1000 });
    const t = state.lookup(h.targetId);
    if (t) t.health = h.targetHealth;
    if (state.me && h.targetId === state.me.id) {
      state.me.health = h.targetHealth;
      ui.renderMe();
    }
  });
  c.on('entity:death', (d) => {
    const e = state.lookup(d.id);
    if (e) {
      e.health = 0;
      state.deaths.set(d.id, { e: { ...e }, until: performance.now() + 2000 });
    }
    if (d.id === state.me?.id) ui.chatLine('Oh dear, you are dead!', 'error');
    else if (e && d.killerId === state.me?.id) ui.chatLine(`You killed ${e.name ?? 'it'}.`, 'system');
  });
  c.on('prayer:state', (p) => {
    state.prayer = p;
    ui.renderPrayer();
  });
  c.on('gathering:start', (g) =>
    ui.chatLine(`You start ${prettyId(g.skill).toLowerCase()} (${prettyId(g.resourceId)}).`, 'system'),
  );
  c.on('gathering:stop', (g) =>
    ui.chatLine(`You stop gathering (${STOP_REASONS[g.reason] ?? g.reason}).`, 'system'),
  );
  c.on('processing:start', (p) =>
    ui.chatLine(`You start making ${p.quantity} × ${prettyId(p.recipeId)}.`, 'system'),
  );
  c.on('processing:stop', (p) =>
    ui.chatLine(
      `You stop making ${prettyId(p.recipeId)}: ${p.made} made (${STOP_REASONS[p.reason] ?? p.reason}).`,
      'system',
    ),
  );
  c.on('station:open', (s) => {
    state.station = s;
    ui.renderStation();
  });
  c.on('shop:open', (s) => {
    state.shop = s;
    ui.renderShop();
    ui.renderInventory();
  });
  c.on('shop:update', (s) => {
    if (state.shop?.shopId !== s.shopId) return;
    state.shop.items = s.items;
    ui.renderShop();
  });
  c.on('shop:closed', (s) => {
    if (state.shop?.shopId !== s.shopId) return;
    state.shop = null;
    ui.renderShop();
    ui.renderInventory();
  });
  c.on('dialogue:node', (d) => {
    state.dialogue = d;
    ui.renderDialogue();
  });
  c.on('dialogue:close', () => {
    state.dialogue = null;
    ui.renderDialogue();
  });
  c.on('quest:list', (q) => {
    state.quests = q;
    ui.renderQuests();
  });
  c.on('quest:update', (q) => {
    const known = state.quests?.quests.find((v) => v.questId === q.questId);
    const name = known?.name ?? prettyId(q.questId);
    if (known) Object.assign(known, q);
    ui.renderQuests();
    if (q.status === 'completed') ui.chatLine(`Quest complete: ${name}!`, 'system');
    else if (known?.status !== q.status || q.count === 0)
      ui.chatLine(`Quest ${name}: ${prettyId(q.stageId)}`, 'system');
    else ui.chatLine(`Quest ${name}: ${q.progress}/${q.count}`, 'system');
    // Quest points come with the list: ask for it again once a quest is done.
    if (q.status === 'completed') conn?.send('quest:list');
  });
  c.on('social:list', (s) => {
    state.social = s;
    ui.renderFriends();
  });
  c.on('friend:requestReceived', (r) =>
    ui.chatLine(`${r.fromName} wants to be your friend (see the Friends tab).`, 'system'),
  );
  c.on('friend:presence', (p) => {
    const f = state.social.friends.find((v) => v.id === p.id);
    const moved = f?.online === true && p.online;
    if (f) {
      f.online = p.online;
      if (p.world === undefined) delete f.world;
      else f.world = p.world;
    }
    ui.renderFriends();
    const line = moved
      ? `${p.name} moved to world ${p.world}.`
      : p.online
        ? `${p.name} has logged in${p.world === undefined ? '' : ` (world ${p.world})`}.`
        : `${p.name} has logged out.`;
    ui.chatLine(line, 'system');
  });
  c.on('skill:xp', (x) => ui.chatLine(`+${x.gained} ${prettyId(x.skill)} xp (level ${x.level})`, 'system'));
  c.on('error', (e) => {
    // A refused private message is never echoed: drop its recipient.
    if (e.event === 'player:chat' && e.code === 'NOT_FOUND') privateTo.shift();
    ui.chatLine(`${e.code}: ${e.message}`, 'error');
  });
  c.on('chat:message', (m) => {
    if (m.channel === 'system') ui.chatLine(m.message, 'system');
    else if (m.channel === 'private' && m.fromId === state.me?.id) {
      // The server echoes my private messages back to me.
      ui.chatLine(`To ${privateTo.shift() ?? '?'}: ${m.message}`, 'private');
    } else if (m.channel === 'private') ui.chatLine(`From ${m.fromName}: ${m.message}`, 'private');
    else ui.chatLine(`${m.fromName}: ${m.message}`, m.channel);
  });
  c.on('bank:update', (b) => {
    state.bank = b.items;
    ui.renderBank();
    ui.renderInventory();
  });
  c.on('tradeIncoming', (t) =>
    ui.notice(`${t.fromPlayerName} (level ${t.fromPlayerLevel}) wants to trade.`, [
      {
        label: 'Accept trade',
        run: () => conn?.send('tradeRequestRespond', { tradeId: t.tradeId, accept: true }),
      },
      {
        label: 'Decline',
        run: () => conn?.send('tradeRequestRespond', { tradeId: t.tradeId, accept: false }),
      },
    ]),
  );
  c.on('tradeStarted', (t) => {
    const empty = { items: [], coins: 0, accepted: false };
    state.trade = {
      kind: 'offer',
      tradeId: t.tradeId,
      partnerName: t.partnerName,
      myOffer: empty,
      theirOffer: empty,
    };
    ui.renderTrade();
    ui.renderInventory();
  });
  c.on('tradeUpdated', (t) => {
    if (state.trade?.tradeId !== t.tradeId) return;
    state.trade = {
      kind: 'offer',
      tradeId: t.tradeId,
      partnerName: state.trade.partnerName,
      myOffer: t.myOffer,
      theirOffer: t.theirOffer,
    };
    ui.renderTrade();
  });
  c.on('tradeConfirmScreen', (t) => {
    if (state.trade?.tradeId !== t.tradeId) return;
    state.trade = {
      kind: 'confirm',
      tradeId: t.tradeId,
      partnerName: state.trade.partnerName,
      myOffer: t.myOffer,
      theirOffer: t.theirOffer,
      values: t.values,
    };
    ui.renderTrade();
  });
  c.on('tradeCompleted', (t) => {
    const got = t.receivedItems.map((i) => `${i.quantity} × ${prettyId(i.itemId)}`).join(', ') || 'nothing';
    ui.chatLine(`Trade completed. You received: ${got}.`, 'system');
    endTrade();
  });
  c.on('tradeCancelled', (t) => {
    ui.chatLine(`Trade cancelled (${t.reason}).`, 'system');
    endTrade();
  });
  c.on('tradeError', (t) => ui.chatLine(`Trade: ${t.code}: ${t.message}`, 'error'));
  c.on('teleport:start', (t) => ui.chatLine(`Teleporting home in ${t.ticks} ticks…`, 'system'));
  c.on('teleport:interrupted', (t) => ui.chatLine(`Teleport interrupted (${t.reason}).`, 'system'));
  c.on('voice:room', (v) => {
    state.voice.room = v.room;
    void fetchVoiceRoom();
  });
}

/** The reasons of gathering:stop and processing:stop in words. */
const STOP_REASONS: Record<string, string> = {
  depleted: 'the node is depleted',
  inventory_full: 'your inventory is full',
  moved: 'you moved',
  interrupted: 'interrupted',
  done: 'done',
  missing_items: 'out of materials',
};

function endTrade(): void {
  state.trade = null;
  ui.renderTrade();
  ui.renderInventory();
}

/** Ask for a voice token to learn the room (this client shows the room; it does not send audio). */
async function fetchVoiceRoom(): Promise<void> {
  if (!state.sessionToken) return;
  const res = await fetch('/api/voice/token', { headers: { authorization: `Bearer ${state.sessionToken}` } });
  if (res.ok) state.voice.room = ((await res.json()) as { room: string }).room;
}

/** The verbs an entity answers (`player:action`), as menu entries. */
function entityActions(e: ViewEntity): MenuItem[] {
  const act = (action: string) => () => conn?.send('player:action', { action, targetId: e.id });
  const name = e.name ?? prettyId(e.npcId ?? e.type);
  switch (e.type) {
    case 'player': {
      const me = state.me;
      if (!me || e.id === me.id) return [];
      const items: MenuItem[] = [{ label: `Trade with ${name}`, run: act('trade') }];
      if (pvpAllowedAt(me.position.x, me.position.z) && pvpAllowedAt(e.x, e.z))
        items.unshift({ label: `Attack ${name}`, run: act('attack') });
      return items;
    }
    case 'item':
      return [{ label: `Take ${prettyId(e.itemId ?? 'item')}`, run: act('pickup') }];
    case 'resource':
      return e.depleted
        ? []
        : [
            {
              label: `${GATHER_VERBS[e.kind ?? ''] ?? 'Gather'} ${prettyId(e.resourceId ?? '')}`,
              run: act('gather'),
            },
          ];
    case 'station': {
      const type = e.stationType ?? '';
      if (type === 'bank') return [{ label: 'Bank', run: act('bank') }];
      const items: MenuItem[] = [{ label: `Use ${prettyId(type)}`, run: act('use') }];
      if (type === 'altar') items.push({ label: 'Pray at altar', run: act('pray') });
      return items;
    }
    case 'npc': {
      // An NPC the client's content does not know (another world): offer everything, the server says no.
      const verbs = NPC_VERBS[e.npcId ?? ''] ?? ['attack', 'talk'];
      const labels: Record<string, string> = {
        attack: `Attack ${name}`,
        talk: `Talk to ${name}`,
        shop: `Trade with ${name}`,
        bank: `Bank with ${name}`,
      };
      return verbs.map((v) => ({ label: labels[v] ?? v, run: act(v) }));
    }
    default:
      return [];
  }
}

/** Whether players may fight each other on a tile (the server's rule, on the default world's areas). */
function pvpAllowedAt(x: number, z: number): boolean {
  let allowed = false;
  for (const a of AREAS) {
    if (x < a.minX || x > a.maxX || z < a.minZ || z > a.maxZ) continue;
    if (a.pvpEnabled) return true;
    if (a.safeZone) return false;
    allowed = true;
  }
  return allowed;
}

/** The menu verb of a resource node by its kind (as in world:update). */
const GATHER_VERBS: Record<string, string> = {
  tree: 'Chop',
  rock: 'Mine',
  ore: 'Mine',
  fishing_spot: 'Fish',
};

function describe(e: ViewEntity): string {
  if (e.type === 'player' || e.type === 'npc') return `${e.name ?? e.npcId} (level ${e.level ?? '?'})`;
  if (e.type === 'item') return `${prettyId(e.itemId ?? 'item')} × ${e.quantity ?? 1}`;
  if (e.type === 'resource')
    return `${prettyId(e.resourceId ?? 'resource')}${e.depleted ? ' (depleted)' : ''}`;
  return prettyId(e.stationType ?? 'station');
}

function walk(x: number, z: number): void {
  conn?.send('player:move', { x, z });
}

view.addEventListener('click', (ev) => {
  ev.stopPropagation();
  if (!state.me) return;
  const rect = view.getBoundingClientRect();
  const { x, z } = toTile(camera(state, view), ev.clientX - rect.left, ev.clientY - rect.top);
  const here = state.at(x, z).filter((e) => e.id !== state.me?.id);
  const actions = here.flatMap((e) => entityActions(e).map((item) => ({ ...item, targetId: e.id })));
  if (here.length === 0) {
    ui.hideMenu();
    walk(x, z);
    return;
  }
  // A resource node alone on its tile is gathered on a click (the menu would offer just that).
  const only = here[0] as ViewEntity;
  if (here.length === 1 && only.type === 'resource' && !only.depleted) {
    ui.hideMenu();
    conn?.send('player:action', { action: 'gather', targetId: only.id });
    return;
  }
  const items: MenuItem[] = [...actions, { label: 'Walk here', run: () => walk(x, z) }];
  for (const e of here)
    items.push({ label: `Examine ${describe(e)}`, run: () => ui.chatLine(describe(e), 'system') });
  ui.menu(ev.clientX - rect.left, ev.clientY - rect.top, describe(here[0] as ViewEntity), items);
});

(document.getElementById('chat-form') as HTMLFormElement).addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = document.getElementById('chat-input') as HTMLInputElement;
  const text = input.value.trim();
  input.value = '';
  if (!text || !conn) return;
  const priv = /^@(\S+)\s+(.+)$/.exec(text);
  if (priv) {
    conn.send('player:chat', { message: priv[2], to: priv[1] });
    privateTo.push(priv[1] as string);
  } else conn.send('player:chat', { message: text });
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
  if (map && state.me) {
    drawView(ctx, state, map, now);
    drawMinimap(miniCtx, state, map);
    const me = state.me;
    ui.status([
      `${me.name} at ${me.position.x}, ${me.position.z}`,
      `tick ${state.tick}  players ${playersOnline ?? '?'}  ping ${pingMs === null ? '?' : `${pingMs} ms`}`,
      `voice ${state.voice.enabled ? (state.voice.room ?? '…') : 'off'}`,
      ...fighting(),
    ]);
    document.body.dataset['position'] = `${me.position.x},${me.position.z}`;
  }
  requestAnimationFrame(frame);
}

/** `fighting <name>` while my entity has a target (world:update `targetId`). */
function fighting(): string[] {
  const id = state.me ? state.entities.get(state.me.id)?.targetId : null;
  if (!id) return [];
  const t = state.entities.get(id);
  return [`fighting ${t?.name ?? id}`];
}

/** Players online from /status and the round trip of /health, every 5 seconds (neither is rate limited). */
async function poll(): Promise<void> {
  try {
    const t0 = performance.now();
    await fetch('/health', { cache: 'no-store' });
    pingMs = Math.round(performance.now() - t0);
    const s = (await (await fetch('/status', { cache: 'no-store' })).json()) as { playersOnline: number };
    playersOnline = s.playersOnline;
  } catch {
    pingMs = null;
  }
}

async function start(): Promise<void> {
  map = await GroundMap.load();
  connect(true);
  requestAnimationFrame(frame);
  void poll();
  setInterval(() => void poll(), 5000);
}

start().catch((err: unknown) => ui.chatLine(`Cannot start: ${String(err)}`, 'error'));
