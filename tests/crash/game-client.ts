import WebSocket from 'ws';

/**
 * A player over a real WebSocket (JSON frames) for the server fault test: keeps the latest
 * `player:sync` and its own tile from `world:update`, and waits for messages matching a predicate
 * (only messages arriving after the wait starts, so stale events of an earlier trade never match).
 */

// biome-ignore lint/suspicious/noExplicitAny: the test reads payloads freely
export type Payload = any;
export interface Msg {
  event: string;
  payload: Payload;
}

interface Waiter {
  match: (m: Msg) => boolean;
  resolve: (m: Msg) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export interface Login {
  characterId: string;
  sessionToken: string;
}

export class GameClient {
  sync: Payload | undefined;
  /** The player's own tile as last replicated (world:update), else as in player:sync. */
  tile: { x: number; z: number } | undefined;
  bank: { itemId: string; quantity: number }[] | undefined;
  /** NPCs seen in world:update: wire id -> manifest npcId. */
  readonly npcs = new Map<string, string>();
  /** Resource nodes seen in world:update and not depleted then: wire id -> resourceId. */
  readonly resources = new Map<string, string>();
  /** Every message but world:update, in order of arrival (from the first, authResult included). */
  readonly log: Msg[] = [];
  closed = false;
  private waiters: Waiter[] = [];

  private constructor(
    private readonly socket: WebSocket,
    public login: Login,
  ) {}

  /**
   * Connects and authenticates: anonymously (a new account + character, named `name` when given), or
   * back as `login`.
   */
  static async connect(wsUrl: string, login?: Login, name?: string): Promise<GameClient> {
    const socket = new WebSocket(`${wsUrl}?encoding=json`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const client = new GameClient(socket, login ?? { characterId: '', sessionToken: '' });
    // Listening from the start: authResult and player:sync may arrive in one read.
    socket.on('message', (d) => client.onMessage(JSON.parse(d.toString()) as [string, Payload]));
    socket.on('close', () => client.onClose());
    socket.on('error', () => {});
    const auth = client.waitFor((m) => m.event === 'authResult', 15_000);
    const synced = client.waitFor((m) => m.event === 'player:sync', 15_000);
    synced.catch(() => {});
    socket.send(
      JSON.stringify([
        'authenticate',
        login
          ? { authToken: login.sessionToken, characterId: login.characterId }
          : name !== undefined
            ? { name }
            : {},
      ]),
    );
    const res = (await auth).payload;
    if (!res.success) throw new Error(`login failed: ${JSON.stringify(res)}`);
    client.login = { characterId: res.characterId, sessionToken: res.sessionToken };
    await synced;
    return client;
  }

  get id(): string {
    return this.login.characterId;
  }

  send(event: string, payload: object): void {
    if (!this.closed) this.socket.send(JSON.stringify([event, payload]));
  }

  /** Sends a chat command and waits for the system reply. */
  async command(text: string): Promise<string> {
    const reply = this.waitFor((m) => m.event === 'chat:message' && m.payload.channel === 'system');
    this.send('player:chat', { message: text });
    return (await reply).payload.message as string;
  }

  /** The first message received so far (world:update aside) that `match` accepts. */
  seen(match: (m: Msg) => boolean): Msg | undefined {
    return this.log.find(match);
  }

  /** The next message (from now on) that `match` accepts. */
  waitFor(match: (m: Msg) => boolean, timeoutMs = 5000): Promise<Msg> {
    if (this.closed) return Promise.reject(new Error('socket closed'));
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        match,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((x) => x !== w);
          reject(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.push(w);
    });
  }

  close(): void {
    this.socket.terminate();
    this.onClose();
  }

  private onMessage([event, payload]: [string, Payload]): void {
    const msg = { event, payload };
    if (event !== 'world:update') this.log.push(msg);
    if (event === 'player:sync') {
      this.sync = payload;
      this.tile = { x: payload.position.x, z: payload.position.z };
    } else if (event === 'world:update') {
      for (const e of payload.entities as Payload[]) {
        if (e.id === this.id) this.tile = { x: e.x, z: e.z };
        if (e.type === 'npc' && typeof e.npcId === 'string') this.npcs.set(e.id, e.npcId);
        if (e.type === 'resource' && typeof e.resourceId === 'string') {
          if (e.depleted) this.resources.delete(e.id);
          else this.resources.set(e.id, e.resourceId);
        }
      }
    } else if (event === 'bank:update') {
      this.bank = payload.items;
    }
    for (const w of this.waiters.slice()) {
      if (!w.match(msg)) continue;
      clearTimeout(w.timer);
      this.waiters = this.waiters.filter((x) => x !== w);
      w.resolve(msg);
    }
  }

  private onClose(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error('socket closed'));
    }
  }
}
