import type { Command } from '../../ecs/core/commands.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { type SocialOp, type SocialOutcome, takeSocialOps } from '../../ecs/features/social/index.ts';
import type { PersistencePort } from '../../persistence/port.ts';
import type { CharacterMessage, MessagingPort, Subscription } from '../messaging/port.ts';

/**
 * The social feature's way out of the tick (docs/social.md): after each tick it takes the feature's
 * requests and runs them asynchronously. Actions go to persistence (one transaction each); the outcome
 * comes back to the actor as a `socialResult` command for a later tick, and the other character's fresh
 * lists are published to it through the messaging port. Presence changes and private messages to other
 * worlds go through the port too, and announcements to every world; what the port delivers to characters
 * hosted here, every presence change and every announcement is queued as commands. It answers other
 * worlds' "who is online?" with the characters this world announced.
 */

export interface SocialBridgeDeps {
  port: Pick<PersistencePort, 'socialAct' | 'loadSocialLists'>;
  messaging: MessagingPort;
  /** This world's id (WORLD_ID): presence says where a character is. */
  worldId: number;
  enqueue(cmd: Command): void;
  log: { error(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
}

export class SocialBridge {
  private readonly hosted = new Map<string, Subscription>();
  /** Who this world announced online (answers other worlds' "who is online?"). */
  private readonly announced = new Map<string, string>();
  private readonly subs: Subscription[];
  private readonly inflight = new Set<Promise<void>>();

  constructor(private readonly deps: SocialBridgeDeps) {
    const { messaging, enqueue, worldId } = deps;
    this.subs = [
      messaging.onPresence((p) =>
        enqueue({
          type: 'socialPresence',
          characterId: p.characterId,
          name: p.name,
          online: p.online,
          world: p.world,
        }),
      ),
      messaging.servePresence(() =>
        [...this.announced].map(([characterId, name]) => ({
          characterId,
          name,
          online: true,
          world: worldId,
        })),
      ),
      messaging.onAnnouncement((a) => enqueue({ type: 'announcement', characterId: '', ...a })),
    ];
    // Those already in other worlds (this world may start after them).
    messaging.requestPresence();
  }

  /**
   * Another world came up (first heard, or back after missing heartbeats): ask again who is online; or
   * it went down: the characters announced there are offline (a killed world never says so itself).
   */
  worldStatus(world: number, status: 'online' | 'offline'): void {
    if (world === this.deps.worldId) return;
    if (status === 'online') this.deps.messaging.requestPresence();
    else this.deps.enqueue({ type: 'socialWorldDown', characterId: '', world });
  }

  /** After every tick (the runtime calls it). */
  afterTick(world: GameWorld): void {
    const entered: string[] = [];
    for (const op of takeSocialOps(world)) {
      this.run(op);
      if (op.op === 'host' && op.hosted) entered.push(op.id);
    }
    // What changed between loading these characters and hosting them here (published to nobody) is
    // read again, in one query for all of them; the world sends a list only where it differs.
    if (entered.length > 0) this.track(this.refresh(entered));
  }

  private async refresh(ids: string[]): Promise<void> {
    try {
      const lists = await this.deps.port.loadSocialLists(ids);
      for (const [characterId, l] of lists)
        this.deps.enqueue({ type: 'socialUpdate', characterId, lists: l });
    } catch (err) {
      this.deps.log.error({ err, characters: ids.length }, 'reading friend lists after entering failed');
    }
  }

  private run(op: SocialOp): void {
    const { messaging } = this.deps;
    switch (op.op) {
      case 'host':
        if (op.hosted) this.host(op.id);
        else {
          this.hosted.get(op.id)?.unsubscribe();
          this.hosted.delete(op.id);
        }
        return;
      case 'presence':
        if (op.online) this.announced.set(op.id, op.name);
        else this.announced.delete(op.id);
        messaging.presenceChanged({
          characterId: op.id,
          name: op.name,
          online: op.online,
          world: this.deps.worldId,
        });
        return;
      case 'announce': {
        const { fromId, fromName, message, timestamp } = op;
        this.deps.log.info({ characterId: fromId, message }, 'admin announcement to every world');
        messaging.announce({ fromName, message, timestamp });
        return;
      }
      case 'privateMessage': {
        const { toId, fromId, fromName, message, timestamp } = op;
        messaging.publish(toId, { kind: 'privateMessage', fromId, fromName, message, timestamp });
        return;
      }
      case 'act':
        this.track(this.act(op));
        return;
    }
  }

  private host(id: string): void {
    this.hosted.get(id)?.unsubscribe();
    const { enqueue } = this.deps;
    this.hosted.set(
      id,
      this.deps.messaging.subscribe(id, (m: CharacterMessage) => {
        if (m.kind === 'socialUpdate')
          enqueue({ type: 'socialUpdate', characterId: id, lists: m.lists, received: m.received });
        else enqueue({ type: 'privateMessage', characterId: id, ...withoutKind(m) });
      }),
    );
  }

  private async act(op: Extract<SocialOp, { op: 'act' }>): Promise<void> {
    const { action, origin } = op;
    const actorId = action.actorId;
    let outcome: SocialOutcome;
    try {
      outcome = await this.deps.port.socialAct(action);
    } catch (err) {
      this.deps.log.error({ err, characterId: actorId, action: action.kind }, 'social action failed');
      outcome = { ok: false, code: 'BUSY', message: 'the server could not do that now: try again' };
    }
    const reply = (o: SocialOutcome) =>
      this.deps.enqueue({
        type: 'socialResult',
        characterId: actorId,
        outcome: o,
        ...(origin ? { origin } : {}),
      });
    if (!outcome.ok) return reply(outcome);
    const mine = outcome.lists[actorId];
    reply({ ...outcome, lists: mine ? { [actorId]: mine } : {} });
    // Everyone else whose lists changed (the other player; for an ignore, the account's other characters).
    for (const [characterId, lists] of Object.entries(outcome.lists)) {
      if (characterId === actorId) continue;
      const received =
        outcome.result === 'requested' && characterId === outcome.otherId
          ? lists.requests.find((r) => r.fromId === actorId)
          : undefined;
      this.deps.messaging.publish(characterId, {
        kind: 'socialUpdate',
        lists,
        ...(received ? { received } : {}),
      });
    }
  }

  private track(p: Promise<void>): void {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  /** Resolves when every action started so far has been answered and its messages handed on. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
    await this.deps.messaging.flush();
  }

  close(): void {
    for (const s of this.subs) s.unsubscribe();
    for (const s of this.hosted.values()) s.unsubscribe();
    this.hosted.clear();
  }
}

function withoutKind(m: Extract<CharacterMessage, { kind: 'privateMessage' }>) {
  const { kind: _kind, ...rest } = m;
  return rest;
}
