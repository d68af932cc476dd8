import type { PersistencePort } from '../../persistence/port.ts';

/**
 * This world's holds on the characters it hosts (several worlds on one database, docs/scaling.md). A
 * login takes the character's hold before loading it, and is refused when another world holds it; the
 * hold is renewed every third of the TTL while the character stays, and released once it left and was
 * saved. A hold the world finds lost at renewal (it could not renew in time and another world took the
 * character) is reported: the database refuses that world's writes of the character from then on.
 */

export type LockPort = Pick<
  PersistencePort,
  'claimCharacters' | 'renewCharacterLocks' | 'releaseCharacterLocks' | 'characterWorlds'
>;

export type ClaimResult = { ok: true } | { ok: false; heldBy: number | undefined };

export class WorldLocks {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;

  constructor(
    private readonly port: LockPort,
    readonly worldId: number,
    readonly ttlMs: number,
    private readonly onLost: (characterIds: string[]) => void = () => {},
    private readonly log: { error(obj: object, msg?: string): void } = { error: () => {} },
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.renew(), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  /**
   * Takes the character's hold. Refused with the world that holds it; when no world holds it any more by
   * the time that is looked up (its world let go in between), the claim is tried again, so a character
   * just released is not refused as if it were still in another world.
   */
  async claim(characterId: string): Promise<ClaimResult> {
    let heldBy: number | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const got = await this.port.claimCharacters(this.worldId, [characterId], this.ttlMs);
      if (got.has(characterId)) {
        this.held.add(characterId);
        return { ok: true };
      }
      heldBy = (await this.port.characterWorlds([characterId])).get(characterId);
      if (heldBy !== undefined) break;
    }
    return { ok: false, heldBy };
  }

  async release(characterId: string): Promise<void> {
    this.held.delete(characterId);
    await this.port.releaseCharacterLocks(this.worldId, [characterId]);
  }

  holds(characterId: string): boolean {
    return this.held.has(characterId);
  }

  /** One renewal round (the timer runs it; tests call it). */
  renew(): Promise<void> {
    this.renewing ??= (async () => {
      const ids = [...this.held];
      try {
        const lost = (await this.port.renewCharacterLocks(this.worldId, ids, this.ttlMs)).filter((id) =>
          this.held.has(id),
        );
        if (lost.length > 0) {
          for (const id of lost) this.held.delete(id);
          this.onLost(lost);
        }
      } catch (err) {
        this.log.error({ err, characters: ids.length }, 'renewing character locks failed');
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  /** Shutdown, after everyone was saved: every hold let go at once. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.renewing;
    const ids = [...this.held];
    this.held.clear();
    await this.port.releaseCharacterLocks(this.worldId, ids);
  }
}
