import type { GameState } from './game.ts';
import type { GroundMap } from './map.ts';
import type { Cause } from './narrator.ts';
import type { Progress, TickClock } from './progress.ts';
import type { Chrome } from './ui/chrome.ts';
import type { ClientEventName, ClientPayload } from './wire.ts';

/** What the client's parts share: the state, the page's chrome, and the ways to act. Built in main.ts. */
export interface App {
  readonly state: GameState;
  readonly ui: Chrome;
  readonly progress: Progress;
  readonly clock: TickClock;
  map: GroundMap | null;
  /** Send to the server (dropped while disconnected); also tells the story what the next changes come from. */
  send<E extends ClientEventName>(event: E, payload: ClientPayload<E>): void;
  /** What the next changes to my items come from (see narrator.ts). */
  cause(c: Cause): void;
  /** Draw the panels again after a change. */
  refresh(...panels: Panel[]): void;
  /** Walk (or run, when running is on) to a tile. */
  walk(x: number, z: number): void;
  /** Walk next to an entity and then do something there (items used on it). */
  approach(targetId: string, then: () => void): void;
  homeTeleport(): void;
  toggleRun(): void;
  logout(): void;
}

export type Panel =
  | 'me'
  | 'inventory'
  | 'equipment'
  | 'skills'
  | 'combat'
  | 'magic'
  | 'prayer'
  | 'quests'
  | 'friends'
  | 'bank'
  | 'trade'
  | 'station'
  | 'shop'
  | 'dialogue';
