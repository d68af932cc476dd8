import type { CharacterState } from '../../ecs/core/character-state.ts';
import type { AnonymousLogin, PersistencePort } from '../../persistence/port.ts';

/**
 * The database work of WebSocket logins, batched: calls made while the previous batch of the same kind
 * is in flight (or within one turn of the event loop) are written together, in one transaction, up to
 * `maxBatch`. A login storm then costs a few round trips per hundred logins instead of several per
 * login, on either driver. Each caller still gets its own result (or the batch's error).
 */

export class Batcher<I, O> {
  private waiting: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
  ) {}

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.running || this.waiting.length === 0) return;
    this.running = true;
    const batch = this.waiting.splice(0, this.maxBatch);
    try {
      const out = await this.run(batch.map((b) => b.input));
      for (const [i, b] of batch.entries()) b.resolve(out[i] as O);
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.running = false;
      if (this.waiting.length > 0) this.schedule();
    }
  }
}

export type LoginPort = Pick<PersistencePort, 'createAnonymousLogins' | 'loadCharacters' | 'recordLogins'>;

export class LoginBatches {
  private readonly anonymous: Batcher<AnonymousLogin, boolean>;
  private readonly loads: Batcher<string, CharacterState | null>;
  private readonly records: Batcher<{ characterId: string; accountId: string }, string | null>;

  constructor(port: LoginPort, maxBatch = 500) {
    this.anonymous = new Batcher(async (entries) => {
      const { taken } = await port.createAnonymousLogins(entries);
      return entries.map((e) => !taken.has(e.character.id));
    }, maxBatch);
    this.loads = new Batcher(async (ids) => {
      const found = await port.loadCharacters(ids);
      return ids.map((id) => found.get(id) ?? null);
    }, maxBatch);
    this.records = new Batcher((rows) => port.recordLogins(rows), maxBatch);
  }

  /** A temporary account and its first character; false when the character's name is taken. */
  createAnonymous(entry: AnonymousLogin): Promise<boolean> {
    return this.anonymous.call(entry);
  }

  loadCharacter(characterId: string): Promise<CharacterState | null> {
    return this.loads.call(characterId);
  }

  /** The playerSessions row (its id) and lastLoginAt; null when the character no longer exists. */
  recordLogin(characterId: string, accountId: string): Promise<string | null> {
    return this.records.call({ characterId, accountId });
  }
}
