/**
 * A thin protocol module: one WebSocket to the game server in the JSON encoding, events as
 * `[event, payload]`. Typed by hand from docs/protocol.md for the events this client uses.
 */

export interface ItemStack {
  itemId: string;
  quantity: number;
}

export interface SkillValue {
  level: number;
  xp: number;
}

export interface PlayerSync {
  id: string;
  name: string;
  position: { x: number; y: number; z: number };
  health: number;
  maxHealth: number;
  combatLevel: number;
  coins: number;
  questPoints?: number;
  skills: Record<string, SkillValue>;
  inventory: (ItemStack | null)[];
  equipment: Record<string, ItemStack | null>;
  voice?: { enabled: boolean };
}

export type EntityType = 'player' | 'npc' | 'item' | 'resource' | 'station';

export interface WireEntity {
  id: string;
  type: EntityType;
  x: number;
  z: number;
  name?: string;
  level?: number;
  health?: number;
  maxHealth?: number;
  moving?: number;
  npcId?: string;
  itemId?: string;
  quantity?: number;
  resourceId?: string;
  kind?: string;
  depleted?: boolean;
  stationType?: string;
  /** Whom a fighting player or NPC is attacking (`null` in the update where it stops). */
  targetId?: string | null;
}

export type QuestStatus = 'not_started' | 'in_progress' | 'completed';

export interface ShopItem {
  itemId: string;
  price: number;
  /** -1: unlimited. */
  stock: number;
}

export interface TradeOffer {
  items: { tradeSlot: number; inventorySlot: number; itemId: string; quantity: number }[];
  coins: number;
  accepted: boolean;
}

export interface ServerEvents {
  authResult:
    | { success: true; accountId: string; characterId: string; anonymous: boolean; sessionToken: string }
    | { success: false; error: string };
  loginQueue: { position: number };
  'player:sync': PlayerSync;
  'world:update': { tick: number; entities: WireEntity[]; removed: string[] };
  'combat:hit': {
    attackerId: string;
    targetId: string;
    damage: number;
    targetHealth: number;
    tick: number;
    style?: string;
  };
  'entity:death': { id: string; killerId: unknown; tick: number };
  'prayer:state': { points: number; maxPoints: number; active: string[] };
  'gathering:start': { resourceId: string; skill: string };
  'gathering:stop': { reason: string };
  'processing:start': { recipeId: string; quantity: number };
  'processing:stop': { recipeId: string; made: number; reason: string };
  'station:open': {
    targetId: string;
    stationType: string;
    recipes: { recipeId: string; kind: string; level: number }[];
  };
  'shop:open': { shopId: string; name: string; items: ShopItem[]; buyback: boolean; sellRate: number };
  'shop:update': { shopId: string; items: ShopItem[] };
  'shop:closed': { shopId: string };
  'quest:update': { questId: string; status: QuestStatus; stageId: string; progress: number; count: number };
  'quest:list': {
    quests: {
      questId: string;
      name: string;
      status: QuestStatus;
      stageId: string;
      progress: number;
      count: number;
    }[];
    questPoints: number;
  };
  'dialogue:node': {
    npcId: string;
    entityId: string;
    nodeId: string;
    text: string;
    options: { id: string; text: string }[];
  };
  'dialogue:close': Record<string, never>;
  'social:list': {
    friends: { id: string; name: string; online: boolean; world?: number }[];
    ignored: { id: string; name: string }[];
    requests: { requestId: string; fromId: string; fromName: string }[];
  };
  'friend:requestReceived': { requestId: string; fromId: string; fromName: string };
  'friend:presence': { id: string; name: string; online: boolean; world?: number };
  'skill:xp': { skill: string; xp: number; gained: number; level: number };
  error: { code: string; message: string; event: unknown };
  'chat:message': { fromId: string; fromName: string; message: string; channel: string; timestamp: number };
  'bank:update': { items: ItemStack[] };
  tradeIncoming: { tradeId: string; fromPlayerId: string; fromPlayerName: string; fromPlayerLevel: number };
  tradeStarted: {
    tradeId: string;
    partnerId: string;
    partnerName: string;
    partnerLevel: number;
    partnerFreeSlots: number;
  };
  tradeUpdated: { tradeId: string; myOffer: TradeOffer; theirOffer: TradeOffer; partnerFreeSlots: number };
  tradeConfirmScreen: {
    tradeId: string;
    myOffer: TradeOffer;
    theirOffer: TradeOffer;
    values: { myOffer: number; theirOffer: number };
  };
  tradeCompleted: { tradeId: string; receivedItems: ItemStack[] };
  tradeCancelled: { tradeId: string; reason: string };
  tradeError: { tradeId?: string; code: string; message: string };
  'teleport:start': { ticks: number };
  'teleport:done': { x: number; z: number };
  'teleport:interrupted': { reason: string };
  'voice:room': { room: string };
}

export type ServerEventName = keyof ServerEvents;
type Handler<E extends ServerEventName> = (payload: ServerEvents[E]) => void;

export class GameConnection {
  private readonly ws: WebSocket;
  private readonly handlers = new Map<string, ((p: unknown) => void)[]>();
  private closeHandler: ((code: number, reason: string) => void) | undefined;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.addEventListener('message', (ev) => {
      if (typeof ev.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (!Array.isArray(frame) || typeof frame[0] !== 'string') return;
      for (const h of this.handlers.get(frame[0]) ?? []) h(frame[1]);
    });
    this.ws.addEventListener('close', (ev) => this.closeHandler?.(ev.code, ev.reason));
  }

  /** The game server's WebSocket address for a page served by it. */
  static urlFor(loc: Location): string {
    return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws?encoding=json`;
  }

  opened(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.ws.addEventListener('open', () => resolve(), { once: true });
      this.ws.addEventListener('error', () => reject(new Error('WebSocket failed')), { once: true });
    });
  }

  on<E extends ServerEventName>(event: E, handler: Handler<E>): void {
    const list = this.handlers.get(event) ?? [];
    list.push(handler as (p: unknown) => void);
    this.handlers.set(event, list);
  }

  onClose(handler: (code: number, reason: string) => void): void {
    this.closeHandler = handler;
  }

  send(event: string, payload: object = {}): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify([event, payload]));
  }

  close(): void {
    this.ws.close(1000);
  }
}
