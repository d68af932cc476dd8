import type { PlayerSync, QuestView, ServerPayload, TradeOffer, WireEntity } from './wire.ts';

/** What the client knows of the world: its own state, the entities in view, and what it is doing. */

export interface ViewEntity extends WireEntity {
  /** Drawn position, easing toward (x, z). */
  rx: number;
  rz: number;
}

export interface HitSplat {
  targetId: string;
  damage: number;
  until: number;
  drawn?: boolean;
}

export type TradeScreen =
  | { kind: 'offer'; tradeId: string; partnerName: string; myOffer: TradeOffer; theirOffer: TradeOffer }
  | {
      kind: 'confirm';
      tradeId: string;
      partnerName: string;
      myOffer: TradeOffer;
      theirOffer: TradeOffer;
      values: { myOffer: number; theirOffer: number };
    };

export class GameState {
  me: PlayerSync | null = null;
  sessionToken: string | null = null;
  tick = 0;
  readonly entities = new Map<string, ViewEntity>();
  readonly splats: HitSplat[] = [];
  /** How many hit splats have been drawn (read by the browser tests). */
  splatsDrawn = 0;
  /** Floating `+25 Woodcutting` over my head. */
  readonly xpDrops: { text: string; start: number }[] = [];
  bank: ServerPayload<'bank:update'>['items'] | null = null;
  trade: TradeScreen | null = null;
  voice: { enabled: boolean; room: string | null } = { enabled: false, room: null };
  /** The attack style, auto-retaliate and autocast spell as last set by this client (server defaults first). */
  combat: { style: string; autoRetaliate: boolean; spell: string | null } = {
    style: 'accurate',
    autoRetaliate: true,
    spell: null,
  };
  /** Whether walks are sent as runs. */
  run = false;
  prayer: ServerPayload<'prayer:state'> = { points: 0, maxPoints: 0, active: [] };
  /** The recipes of the station opened with `use`, or of the items in hand (no targetId). */
  station: ServerPayload<'station:open'> | null = null;
  shop: ServerPayload<'shop:open'> | null = null;
  dialogue: ServerPayload<'dialogue:node'> | null = null;
  quests: { quests: QuestView[]; questPoints: number } | null = null;
  social: ServerPayload<'social:list'> = { friends: [], ignored: [], requests: [] };
  /** The item picked with `Use`, waiting for what to use it on. */
  using: { slot: number; itemId: string } | null = null;
  /** Where my last walk goes (a flag on the map). */
  walkTarget: { x: number; z: number } | null = null;
  /** Home teleport: the cast in progress, and when it is ready again (ms, performance.now), if known. */
  teleport: { start: number; ms: number } | null = null;
  teleportReadyAt: number | null = null;
  teleportCooling = false;
  /**
   * Entities that died, drawn greyed out until `until`. The server removes a dead NPC in the same
   * tick's world:update that shows its killing hit and its death, so the last removed entities are
   * kept in `gone` to draw them where it fell.
   */
  readonly deaths = new Map<string, { e: ViewEntity; until: number }>();
  readonly gone = new Map<string, ViewEntity>();

  applyUpdate(entities: WireEntity[], removed: string[]): void {
    for (const id of removed) {
      const e = this.entities.get(id);
      if (!e) continue;
      this.entities.delete(id);
      this.gone.delete(id);
      this.gone.set(id, e);
      if (this.gone.size > 64) this.gone.delete(this.gone.keys().next().value as string);
    }
    for (const entry of entities) {
      // Hits and a death belong to their tick (events-world.ts draws them): not kept on the entity.
      const { hits: _hits, death: _death, ...e } = entry;
      this.gone.delete(e.id);
      const known = this.entities.get(e.id);
      if (known) Object.assign(known, e);
      else this.entities.set(e.id, { ...e, rx: e.x, rz: e.z });
    }
    // My own entity is in world:update too: keep my position in step with it.
    const self = this.me ? this.entities.get(this.me.id) : undefined;
    if (this.me && self) {
      this.me.position.x = self.x;
      this.me.position.z = self.z;
      if (this.walkTarget && self.x === this.walkTarget.x && self.z === this.walkTarget.z)
        this.walkTarget = null;
    }
  }

  /** Everything in view is sent again after a reconnection. */
  forgetWorld(): void {
    this.entities.clear();
    this.gone.clear();
    this.deaths.clear();
    this.splats.length = 0;
    this.trade = null;
    this.bank = null;
    this.shop = null;
    this.station = null;
    this.dialogue = null;
    this.using = null;
    this.teleport = null;
    this.walkTarget = null;
  }

  /** An entity in view, or one removed lately (see `gone`). */
  lookup(id: string): ViewEntity | undefined {
    return this.entities.get(id) ?? this.gone.get(id);
  }

  /** Where the camera centres: my drawn position. */
  focus(): { x: number; z: number } {
    const self = this.me ? this.entities.get(this.me.id) : undefined;
    if (self) return { x: self.rx, z: self.rz };
    return this.me ? { x: this.me.position.x, z: this.me.position.z } : { x: 0, z: 0 };
  }

  /** Entities standing on a tile, players and NPCs first. */
  at(x: number, z: number): ViewEntity[] {
    const order: Record<string, number> = { player: 0, npc: 1, item: 2, station: 3, resource: 4 };
    return [...this.entities.values()]
      .filter((e) => e.x === x && e.z === z)
      .sort((a, b) => (order[a.type] ?? 9) - (order[b.type] ?? 9));
  }
}

/** `bronze_sword` → `Bronze sword`. */
export function prettyId(id: string): string {
  const s = id.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
