import type { ClientEventName, ClientPayload, ServerEventName, ServerPayload } from './wire.ts';

/**
 * One WebSocket to the game server in the JSON encoding, events as `[event, payload]`, typed by the
 * server's protocol. Reconnecting is the session's business (session.ts): a connection lives once.
 */

type Handler<E extends ServerEventName> = (payload: ServerPayload<E>) => void;

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

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
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

  send<E extends ClientEventName>(event: E, payload: ClientPayload<E>): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify([event, payload]));
  }

  close(code = 1000): void {
    this.ws.close(code);
  }
}
