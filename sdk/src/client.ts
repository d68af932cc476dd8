import { pack, unpack } from 'msgpackr';
import WebSocket from 'ws';
import type {
  ClientEventName,
  ClientPayload,
  Encoding,
  ServerEventName,
  ServerPayload,
} from './protocol.generated.ts';
import { WorldView } from './world-view.ts';

/**
 * A game connection: authenticate, typed events in both directions (the payload types are generated
 * from the server's own schemas: protocol.generated.ts), a local WorldView, promise helpers for common
 * actions, and reconnection with the session token the server handed out.
 */

export interface ConnectOptions {
  /** `ws://host:port/ws` */
  url: string;
  /** Frame encoding the server writes in (both are always accepted from the client). Default msgpack. */
  encoding?: Encoding;
  /** A server session token or identity-provider token; left out in anonymous mode: a new guest account. */
  token?: string;
  /** Play this character of the account. */
  characterId?: string;
  /** Name of the character to create when the account has none. */
  name?: string;
  /** Reconnect (with the session token) when the connection drops unexpectedly. Default false. */
  reconnect?: boolean;
  /** Milliseconds to wait for authResult. Default 15000. */
  timeoutMs?: number;
}

export type AuthResult =
  Extract<ServerPayload<'authResult'>, { success: true }> extends never
    ? ServerPayload<'authResult'>
    : Extract<ServerPayload<'authResult'>, { success: true }>;

type Handler<E extends ServerEventName> = (payload: ServerPayload<E>) => void;

export class GameError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly event: string | null,
  ) {
    super(`${code}: ${message}`);
    this.name = 'GameError';
  }
}

export class GameClient {
  readonly world = new WorldView();
  private socket: WebSocket | undefined;
  private readonly handlers = new Map<string, Set<(p: unknown) => void>>();
  private closing = false;
  /** The session token of the last successful authentication (used to reconnect). */
  sessionToken: string | undefined;
  accountId: string | undefined;
  characterId: string | undefined;

  /** The agent's goal as last told by `agent:goal` (undefined until the first; agents only). */
  agentGoal: ServerPayload<'agent:goal'> | undefined;
  /** `agent:message`s not yet taken with takeMessages() (kept ones arrive right after connecting). */
  private readonly agentInbox: ServerPayload<'agent:message'>[] = [];

  private constructor(private readonly opts: ConnectOptions) {
    this.on('player:sync', (p) => this.world.applySync(p));
    this.on('world:update', (p) => this.world.applyUpdate(p));
    this.on('agent:goal', (p) => {
      this.agentGoal = p;
    });
    this.on('agent:message', (p) => {
      this.agentInbox.push(p);
    });
  }

  /** The agent messages received since the last call, oldest first. */
  takeMessages(): ServerPayload<'agent:message'>[] {
    return this.agentInbox.splice(0);
  }

  /** Connects and authenticates; resolves after `authResult` success and the first `player:sync`. */
  static async connect(opts: ConnectOptions): Promise<GameClient> {
    const client = new GameClient(opts);
    await client.open(opts.token, opts.characterId, opts.name);
    return client;
  }

  private async open(token: string | undefined, characterId: string | undefined, name: string | undefined) {
    const encoding = this.opts.encoding ?? 'msgpack';
    const socket = new WebSocket(`${this.opts.url}?encoding=${encoding}`);
    this.socket = socket;
    socket.on('message', (data: Buffer, isBinary: boolean) => this.onFrame(data, isBinary));
    socket.on('close', (code: number) => {
      this.emit('close', { code });
      if (!this.closing && this.opts.reconnect && code !== 4002 && code !== 4003 && socket === this.socket) {
        setTimeout(() => {
          this.open(this.sessionToken, this.characterId, undefined).catch((err: unknown) =>
            this.emit('reconnectFailed', { error: String(err) }),
          );
        }, 1000).unref();
      }
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const synced = this.next('player:sync', this.opts.timeoutMs ?? 15_000);
    const authed = this.next('authResult', this.opts.timeoutMs ?? 15_000);
    this.send('authenticate', {
      ...(token !== undefined ? { authToken: token } : {}),
      ...(characterId !== undefined ? { characterId } : {}),
      ...(name !== undefined ? { name } : {}),
    });
    const auth = await authed;
    if (!auth.success) {
      synced.catch(() => {});
      throw new Error(`authentication failed: ${auth.error}`);
    }
    this.sessionToken = auth.sessionToken;
    this.accountId = auth.accountId;
    this.characterId = auth.characterId;
    this.world.selfId = auth.characterId;
    // A new session sees everything in view afresh: what the old one knew may have left meanwhile.
    this.world.entities.clear();
    await synced;
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    let event: string;
    let payload: unknown;
    try {
      [event, payload] = (isBinary ? unpack(data) : JSON.parse(data.toString('utf8'))) as [string, unknown];
    } catch {
      return;
    }
    this.emit(event, payload);
  }

  private emit(event: string, payload: unknown): void {
    for (const h of this.handlers.get(event) ?? []) h(payload);
    for (const h of this.handlers.get('*') ?? []) h({ event, payload });
  }

  /** Listens to a server event; returns the function that stops listening. */
  on<E extends ServerEventName>(event: E, handler: Handler<E>): () => void;
  on(event: 'close', handler: (p: { code: number }) => void): () => void;
  on(event: '*', handler: (p: { event: string; payload: unknown }) => void): () => void;
  on(event: string, handler: (p: never) => void): () => void {
    const set = this.handlers.get(event) ?? new Set();
    set.add(handler as (p: unknown) => void);
    this.handlers.set(event, set);
    return () => set.delete(handler as (p: unknown) => void);
  }

  /** The next `event` (matching `pred`), or a rejection after `timeoutMs`. */
  next<E extends ServerEventName>(
    event: E,
    timeoutMs = 10_000,
    pred: (p: ServerPayload<E>) => boolean = () => true,
  ): Promise<ServerPayload<E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${event}`));
      }, timeoutMs);
      const off = this.on(event, (p) => {
        if (!pred(p)) return;
        clearTimeout(timer);
        off();
        resolve(p);
      });
    });
  }

  /** Sends a client event in the connection's encoding. */
  send<E extends ClientEventName>(event: E, payload: ClientPayload<E>): void {
    const socket = this.socket;
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) throw new Error('not connected');
    socket.send(
      (this.opts.encoding ?? 'msgpack') === 'json'
        ? JSON.stringify([event, payload])
        : pack([event, payload]),
    );
  }

  /** Rejects when the server answers `error` for `event` before `done` settles. */
  private guarded<T>(event: string, done: Promise<T>, cancel?: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const off = this.on('error', (e) => {
        if (e.event !== event) return;
        off();
        cancel?.();
        reject(new GameError(e.code, e.message, e.event));
      });
      done.then(
        (v) => {
          off();
          resolve(v);
        },
        (err: unknown) => {
          off();
          reject(err);
        },
      );
    });
  }

  // helpers, one per client event

  /** Walks (or runs) to a tile; resolves with the tile once the character stands on it. */
  moveTo(
    x: number,
    z: number,
    opts: { run?: boolean; timeoutMs?: number } = {},
  ): Promise<{ x: number; z: number }> {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    let off = () => {};
    const arrived = new Promise<{ x: number; z: number }>((resolve, reject) => {
      const check = () => {
        const p = this.world.position;
        if (p !== undefined && p.x === x && p.z === z) {
          off();
          clearTimeout(timer);
          resolve({ x, z });
        }
      };
      const timer = setTimeout(() => {
        off();
        reject(new Error(`did not reach (${x}, ${z}) within ${timeoutMs} ms`));
      }, timeoutMs);
      off = this.on('world:update', check);
    });
    const here = this.world.position;
    if (here !== undefined && here.x === x && here.z === z) {
      off();
      arrived.catch(() => {});
      return Promise.resolve({ x, z });
    }
    this.send('player:move', { x, z, ...(opts.run ? { run: true } : {}) });
    return this.guarded('player:move', arrived, () => off());
  }

  stop(): void {
    this.send('player:move', { cancel: true });
  }

  say(message: string): void {
    this.send('player:chat', { message });
  }

  whisper(to: string, message: string): void {
    this.send('player:chat', { message, to });
  }

  action(action: ClientPayload<'player:action'>['action'], targetId: string): void {
    this.send('player:action', { action, targetId });
  }

  /** Opens the bank at a banker or booth (walking there first); resolves with its contents. */
  bank(targetId: string, timeoutMs = 30_000): Promise<ServerPayload<'bank:update'>> {
    const opened = this.next('bank:update', timeoutMs);
    this.action('bank', targetId);
    return this.guarded('player:action', opened);
  }

  deposit(slot: number, quantity?: number): Promise<ServerPayload<'bank:update'>> {
    const done = this.next('bank:update');
    this.send('bank:deposit', { slot, ...(quantity !== undefined ? { quantity } : {}) });
    return this.guarded('bank:deposit', done);
  }

  withdraw(itemId: string, quantity?: number): Promise<ServerPayload<'bank:update'>> {
    const done = this.next('bank:update');
    this.send('bank:withdraw', { itemId, ...(quantity !== undefined ? { quantity } : {}) });
    return this.guarded('bank:withdraw', done);
  }

  /** Starts gathering at a resource node (where the server offers gathering). */
  gather(targetId: string): void {
    this.action('gather', targetId);
  }

  /** Attacks an NPC or player (where the server offers combat). */
  attack(targetId: string): void {
    this.action('attack', targetId);
  }

  pickup(targetId: string): void {
    this.action('pickup', targetId);
  }

  use(slot: number, target: { targetSlot?: number; targetId?: string } = {}): void {
    this.send('inventory:use', { slot, ...target });
  }

  drop(slot: number, quantity?: number): void {
    this.send('inventory:drop', { slot, ...(quantity !== undefined ? { quantity } : {}) });
  }

  moveItem(from: number, to: number): void {
    this.send('inventory:move', { from, to });
  }

  unequip(slot: string): void {
    this.send('equipment:unequip', { slot });
  }

  homeTeleport(): void {
    this.send('player:homeTeleport', {});
  }

  /** Asks another player to trade; resolves when the trade starts (they accepted). */
  tradeRequest(targetPlayerId: string, timeoutMs = 30_000): Promise<ServerPayload<'tradeStarted'>> {
    const started = this.next('tradeStarted', timeoutMs);
    this.send('tradeRequest', { targetPlayerId });
    return started;
  }

  tradeRespond(tradeId: string, accept: boolean): void {
    this.send('tradeRequestRespond', { tradeId, accept });
  }

  tradeAddItem(tradeId: string, inventorySlot: number, quantity?: number): void {
    this.send('tradeAddItem', { tradeId, inventorySlot, ...(quantity !== undefined ? { quantity } : {}) });
  }

  tradeOfferCoins(tradeId: string, coins: number): void {
    this.send('tradeAddItem', { tradeId, coins });
  }

  tradeRemoveItem(tradeId: string, tradeSlot: number): void {
    this.send('tradeRemoveItem', { tradeId, tradeSlot });
  }

  tradeAccept(tradeId: string): void {
    this.send('tradeAccept', { tradeId });
  }

  tradeCancel(tradeId: string): void {
    this.send('tradeCancel', { tradeId });
  }

  /** Reports progress on the agent's current goal (0-100). */
  reportProgress(progress: number, note?: string): void {
    this.send('agent:progress', { progress, ...(note !== undefined ? { note } : {}) });
  }

  /** Closes the connection (no reconnection). */
  close(): Promise<void> {
    this.closing = true;
    const socket = this.socket;
    if (socket === undefined || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.close(1000);
    });
  }
}
