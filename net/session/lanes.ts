/**
 * Per-character serialisation of login, takeover and logout, so the character never exists twice: work
 * for one character runs after the work queued before it, whatever that ended in. Also the work in
 * flight, for `idle()` (tests, shutdown).
 */
export class CharacterLanes {
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly inflight = new Set<Promise<void>>();

  run(characterId: string, work: () => Promise<void>): Promise<void> {
    const prev = this.lanes.get(characterId) ?? Promise.resolve();
    const next = prev.then(work, work);
    const tail = next.catch(() => {});
    this.lanes.set(characterId, tail);
    tail.then(() => {
      if (this.lanes.get(characterId) === tail) this.lanes.delete(characterId);
    });
    return next;
  }

  /** Keep `p` until it settles, for idle(). */
  track(p: Promise<void>): void {
    this.inflight.add(p);
    p.finally(() => this.inflight.delete(p));
  }

  /** Resolves when nothing tracked is in flight. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }
}
