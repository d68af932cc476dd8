import { countItems, itemDelta } from '../activity.ts';
import { GameClient } from '../client.ts';
import type { Encoding, ServerPayload } from '../protocol.generated.ts';
import { type Content, loadContent } from './content.ts';
import { Tiles } from './tiles.ts';

/**
 * One character played for an MCP client: the game connection (an ordinary player's WebSocket through
 * GameClient), the world's public content, and a journal of what happened that the client has not been
 * told yet (chat, xp, items gained and lost, quest steps, refusals, trade requests...), which every tool
 * answer ends with. Also the state of the open interfaces: the dialogue, the shop, the bank, the trade.
 */

export interface SessionOptions {
  /** `ws://host:port/ws` of the game server. */
  url: string;
  /** Session or identity-provider token; left out on anonymous servers: a new guest account. */
  token?: string;
  characterId?: string;
  /** Name of the character to create when the account has none. */
  name?: string;
  encoding?: Encoding;
  /** `http://host:port` for the public content; derived from `url` when left out. */
  httpBase?: string;
}

export interface TradeState {
  tradeId: string;
  partnerId: string;
  partnerName: string;
  stage: 'requested' | 'incoming' | 'offer' | 'confirm';
  mine?: ServerPayload<'tradeUpdated'>['myOffer'];
  theirs?: ServerPayload<'tradeUpdated'>['theirOffer'];
}

/** What a journal line is about; wait_for waits by kind. */
export type NoteKind =
  | 'chat'
  | 'xp'
  | 'items'
  | 'quest'
  | 'dialogue'
  | 'attacked'
  | 'trade'
  | 'refused'
  | 'event';

interface Entry {
  seq: number;
  kind: NoteKind;
  /** Lines with the same merge key replace each other until told (a running total). */
  merge: string | undefined;
  text: string;
}

const JOURNAL_SIZE = 200;
/** At most this many journal lines end a tool answer (the oldest are summarised as a count). */
export const NEWS_LINES = 15;

export function httpBaseOf(wsUrl: string): string {
  const u = new URL(wsUrl);
  u.protocol = u.protocol === 'wss:' ? 'https:' : 'http:';
  u.pathname = '';
  u.search = '';
  return u.toString().replace(/\/$/, '');
}

export class GameSession {
  private readonly journal: Entry[] = [];
  private seq = 0;
  private reported = 0;
  dialogue: ServerPayload<'dialogue:node'> | undefined;
  shop: ServerPayload<'shop:open'> | undefined;
  bank: ServerPayload<'bank:update'>['items'] | undefined;
  trade: TradeState | undefined;
  prayer: ServerPayload<'prayer:state'> | undefined;
  station: ServerPayload<'station:open'> | undefined;
  readonly quests = new Map<string, ServerPayload<'quest:update'>>();
  private inventory: Map<string, number>;
  /** Item and xp changes since the last report, each written as one running line. */
  private readonly pendingItems = new Map<string, number>();
  private readonly pendingXp = new Map<string, number>();
  private readonly levels = new Map<string, number>();
  private pendingHurt = { swings: 0, damage: 0, by: new Set<string>() };

  private constructor(
    readonly game: GameClient,
    readonly content: Content,
    readonly tiles: Tiles,
  ) {
    this.inventory = countItems(game.world.self?.inventory);
    for (const [skill, v] of Object.entries(game.world.self?.skills ?? {})) this.levels.set(skill, v.level);
    this.watch();
  }

  static async open(opts: SessionOptions): Promise<GameSession> {
    const httpBase = opts.httpBase ?? httpBaseOf(opts.url);
    const game = await GameClient.connect({
      url: opts.url,
      encoding: opts.encoding ?? 'msgpack',
      reconnect: true,
      ...(opts.token !== undefined ? { token: opts.token } : {}),
      ...(opts.characterId !== undefined ? { characterId: opts.characterId } : {}),
      ...(opts.name !== undefined ? { name: opts.name } : {}),
    });
    // The content routes are read with the session's token: counted in its own REST budget, so a
    // dozen agents starting on one machine do not use up their address's (17 files each at start).
    const content = await loadContent(httpBase, undefined, game.sessionToken);
    return new GameSession(game, content, new Tiles(httpBase, game.sessionToken));
  }

  close(): Promise<void> {
    return this.game.close();
  }

  /**
   * Writes a journal line. A keyed line replaces the unreported line with the same key (a running
   * total: xp of a skill, items gained, a quest's progress), so a long run reads as one line.
   */
  note(kind: NoteKind, text: string, merge?: string): void {
    if (merge !== undefined) {
      const i = this.journal.findIndex((e) => e.merge === merge && e.seq > this.reported);
      if (i >= 0) this.journal.splice(i, 1);
    }
    this.journal.push({ seq: ++this.seq, kind, merge, text });
    if (this.journal.length > JOURNAL_SIZE) this.journal.shift();
  }

  /** Journal lines since the last call (the newest NEWS_LINES), marked as told. */
  news(): string[] {
    const fresh = this.journal.filter((e) => e.seq > this.reported).map((e) => e.text);
    this.reported = this.seq;
    this.pendingItems.clear();
    this.pendingXp.clear();
    this.pendingHurt = { swings: 0, damage: 0, by: new Set() };
    if (fresh.length <= NEWS_LINES) return fresh;
    return [`(${fresh.length - NEWS_LINES} earlier events left out)`, ...fresh.slice(-NEWS_LINES)];
  }

  /** The journal's sequence number now: `since(mark)` lists what came after it. */
  mark(): number {
    return this.seq;
  }

  since(mark: number): string[] {
    return this.journal.filter((e) => e.seq > mark).map((e) => e.text);
  }

  /**
   * Resolves with the first journal line that passes `pred`, written since the last answer (or, with
   * `fromNow`, from now on), waiting for one when there is none yet; undefined on timeout or abort.
   */
  nextNote(
    pred: (kind: NoteKind) => boolean,
    timeoutMs: number,
    opts: { signal?: AbortSignal | undefined; fromNow?: boolean } = {},
  ): Promise<string | undefined> {
    const { signal } = opts;
    const from = opts.fromNow ? this.seq : this.reported;
    const find = () => this.journal.find((e) => e.seq > from && pred(e.kind))?.text;
    const now = find();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve) => {
      const poll = setInterval(() => {
        const hit = find();
        if (hit !== undefined) done(hit);
      }, 100);
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (v: string | undefined) => {
        clearInterval(poll);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(v);
      };
      const onAbort = () => done(undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private itemsChanged(sync: ServerPayload<'player:sync'>): void {
    const now = countItems(sync.inventory);
    const delta = itemDelta(this.inventory, now);
    this.inventory = now;
    if (delta.size === 0) return;
    for (const [id, d] of delta) this.pendingItems.set(id, (this.pendingItems.get(id) ?? 0) + d);
    const parts = [...this.pendingItems]
      .filter(([, d]) => d !== 0)
      .map(([id, d]) => `${d > 0 ? '+' : ''}${d} ${this.content.itemName(id)} [${id}]`);
    if (parts.length > 0) this.note('items', `Inventory: ${parts.join(', ')}`, 'items');
  }

  private watch(): void {
    const g = this.game;
    // Names of entities seen lately, kept after they leave view (a killed NPC leaves before its death line).
    const seen = new Map<string, string>();
    g.on('world:update', (u) => {
      for (const e of u.entities) if (e.name !== undefined) seen.set(e.id, e.name);
      while (seen.size > 2000) seen.delete(seen.keys().next().value as string);
    });
    const name = (id: string) =>
      id === g.world.selfId ? 'you' : (g.world.entities.get(id)?.name ?? seen.get(id) ?? id);
    g.on('player:sync', (s) => this.itemsChanged(s));
    g.on('chat:message', (m) => {
      if (m.fromId === g.world.selfId && m.channel !== 'system') return;
      this.note(
        'chat',
        m.channel === 'system' ? `[server] ${m.message}` : `[${m.channel}] ${m.fromName}: ${m.message}`,
      );
    });
    g.on('skill:xp', (x) => {
      const total = (this.pendingXp.get(x.skill) ?? 0) + x.gained;
      this.pendingXp.set(x.skill, total);
      this.note(
        'xp',
        `+${round(total)} ${x.skill} xp (level ${x.level}, ${round(x.xp)} xp in all)`,
        `xp:${x.skill}`,
      );
      const before = this.levels.get(x.skill);
      this.levels.set(x.skill, x.level);
      if (before !== undefined && x.level > before)
        this.note('xp', `${cap(x.skill)} level ${x.level} reached!`);
    });
    g.on('error', (e) =>
      this.note('refused', `Refused${e.event ? ` (${e.event})` : ''}: ${e.code}: ${e.message}`),
    );
    g.on('quest:update', (q) => {
      this.quests.set(q.questId, q);
      const quest = this.content.quests.get(q.questId);
      const stage = quest?.stages.find((s) => s.id === q.stageId);
      const label = quest?.name ?? q.questId;
      this.note(
        'quest',
        q.status === 'completed'
          ? `Quest "${label}" completed!`
          : `Quest "${label}": ${stage?.description ?? q.stageId} (${q.progress}/${q.count})`,
        `quest:${q.questId}`,
      );
    });
    g.on('quest:list', (l) => {
      for (const q of l.quests) this.quests.set(q.questId, q);
    });
    g.on('dialogue:node', (d) => {
      this.dialogue = d;
      this.note('dialogue', `${this.content.npcName(d.npcId)} says: "${d.text}"`);
    });
    g.on('dialogue:close', () => {
      this.dialogue = undefined;
    });
    g.on('shop:open', (s) => {
      this.shop = s;
      this.note('event', `The shop "${s.name}" is open (see the shop tool).`);
    });
    g.on('shop:update', (s) => {
      if (this.shop?.shopId === s.shopId) this.shop = { ...this.shop, items: s.items };
    });
    g.on('shop:closed', () => {
      this.shop = undefined;
    });
    g.on('bank:update', (b) => {
      this.bank = b.items;
    });
    g.on('station:open', (s) => {
      this.station = s;
    });
    g.on('prayer:state', (p) => {
      this.prayer = p;
    });
    g.on('combat:hit', (h) => {
      if (h.targetId !== g.world.selfId) return;
      const hurt = this.pendingHurt;
      hurt.swings++;
      hurt.damage += h.damage;
      hurt.by.add(name(h.attackerId));
      this.note(
        'attacked',
        `${[...hurt.by].join(', ')} swung at you ${hurt.swings} time(s) for ${hurt.damage} damage (health ${h.targetHealth})`,
        'hurt',
      );
    });
    g.on('entity:death', (d) => {
      if (d.id === g.world.selfId) this.note('attacked', 'You died and woke up at the spawn.');
      else if (d.killerId === g.world.selfId) this.note('event', `You killed ${name(d.id)}.`);
    });
    g.on('teleport:done', (t) => this.note('event', `Teleported home to ${t.x},${t.z}.`));
    g.on('agent:message', (m) => this.note('chat', `Message from your owner ${m.from.name}: ${m.content}`));
    g.on('friend:requestReceived', (r) => this.note('chat', `${r.fromName} asks to be your friend.`));
    g.on('gathering:stop', (s) => this.note('event', `Gathering stopped: ${s.reason}.`));
    g.on('processing:stop', (s) =>
      this.note('event', `Making ${this.content.itemName(s.recipeId)} stopped after ${s.made}: ${s.reason}.`),
    );
    this.watchTrades();
    g.on('close', (c) => this.note('event', `Disconnected from the game (code ${c.code}); reconnecting.`));
  }

  private watchTrades(): void {
    const g = this.game;
    g.on('tradeIncoming', (t) => {
      this.trade = {
        tradeId: t.tradeId,
        partnerId: t.fromPlayerId,
        partnerName: t.fromPlayerName,
        stage: 'incoming',
      };
      this.note('trade', `${t.fromPlayerName} (level ${t.fromPlayerLevel}) wants to trade with you.`);
    });
    g.on('tradeStarted', (t) => {
      this.trade = { tradeId: t.tradeId, partnerId: t.partnerId, partnerName: t.partnerName, stage: 'offer' };
      this.note('trade', `Trade with ${t.partnerName} opened: make your offer, then accept.`);
    });
    g.on('tradeUpdated', (t) => {
      if (this.trade?.tradeId !== t.tradeId) return;
      this.trade = { ...this.trade, stage: 'offer', mine: t.myOffer, theirs: t.theirOffer };
      this.note(
        'trade',
        `Trade offers changed (${this.trade.partnerName} accepted: ${t.theirOffer.accepted}).`,
      );
    });
    g.on('tradeConfirmScreen', (t) => {
      if (this.trade?.tradeId !== t.tradeId) return;
      this.trade = { ...this.trade, stage: 'confirm', mine: t.myOffer, theirs: t.theirOffer };
      this.note('trade', 'Both accepted the offers: accept again to confirm the trade.');
    });
    g.on('tradeCompleted', (t) => {
      this.trade = undefined;
      const got = t.receivedItems.map((i) => `${i.quantity} ${this.content.itemName(i.itemId)}`).join(', ');
      this.note('trade', `Trade completed; you received ${got || 'nothing'}.`);
    });
    g.on('tradeCancelled', (t) => {
      if (this.trade?.tradeId === t.tradeId) this.trade = undefined;
      this.note('trade', `Trade ended without a swap: ${t.reason}.`);
    });
    g.on('tradeError', (e) => this.note('trade', `Trade refused: ${e.code}: ${e.message}`));
  }
}

const round = (n: number) => Math.round(n * 10) / 10;
const cap = (s: string) => (s === '' ? s : `${s[0]?.toUpperCase()}${s.slice(1)}`);
