import type { ServerEventName, ServerPayload } from '../protocol/index.ts';
import type { WsConnection } from '../ws/types.ts';

/**
 * Who is connected as which character: at most one live connection per character. The outbound path
 * of the world (replication, errors, chat) delivers through it by character id.
 */

export interface Delivery {
  /** Sends one event to the character's connection; a no-op when the character is not connected. */
  send<E extends ServerEventName>(characterId: string, event: E, payload: ServerPayload<E>): void;
}

export class SessionRegistry implements Delivery {
  private readonly byCharacter = new Map<string, WsConnection>();

  bind(characterId: string, connection: WsConnection): void {
    this.byCharacter.set(characterId, connection);
  }

  /** Unbinds only when `connection` is still the character's connection (a takeover may have replaced it). */
  unbind(characterId: string, connection: WsConnection): boolean {
    if (this.byCharacter.get(characterId) !== connection) return false;
    this.byCharacter.delete(characterId);
    return true;
  }

  connection(characterId: string): WsConnection | undefined {
    return this.byCharacter.get(characterId);
  }

  get size(): number {
    return this.byCharacter.size;
  }

  characterIds(): IterableIterator<string> {
    return this.byCharacter.keys();
  }

  send<E extends ServerEventName>(characterId: string, event: E, payload: ServerPayload<E>): void {
    this.byCharacter.get(characterId)?.send(event, payload);
  }

  /** A frame already encoded in the connection's encoding (see `connection(id).encoding`). */
  sendRaw(characterId: string, frame: Uint8Array | string): void {
    this.byCharacter.get(characterId)?.sendRaw(frame);
  }
}
