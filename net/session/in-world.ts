import { type ClientMessage, translate } from '../protocol/index.ts';
import type { WsConnection } from '../ws/types.ts';
import type { Session, SessionContext } from './session-types.ts';

/**
 * A joined session's messages: each becomes a command for the tick (refused when the player's backlog is
 * full), an error, an agent's progress report, the logout, or the `/admin <code>` elevation.
 */
export function onJoinedMessage(ctx: SessionContext, c: WsConnection, s: Session, m: ClientMessage): void {
  const { world, logger, agents } = ctx.deps;
  const characterId = s.characterId as string;
  const t = translate(characterId, m);
  if (t.kind === 'command') {
    if (!world.offer(t.command)) {
      refuseBacklog(ctx, c, s, m.event);
      return;
    }
    // The intent as the admin sent it; its outcome is the system chat line the simulation answers.
    if (t.command.type === 'chatCommand' && s.admin === true) {
      logger.info(
        { accountId: s.accountId, characterId, command: t.command.name, args: t.command.args },
        'admin command',
      );
    }
  } else if (t.kind === 'error') {
    c.send('error', { code: t.code, message: t.message, event: m.event });
  } else if (t.kind === 'agentProgress') {
    agents?.progress(characterId, t.progress, t.note);
  } else if (t.kind === 'logout') {
    logout(ctx, c, s, characterId);
  } else {
    elevate(ctx, c, s, t.code, m.event);
  }
}

/** The player has a full backlog of commands waiting for the tick: this one is refused, not queued. */
function refuseBacklog(ctx: SessionContext, c: WsConnection, s: Session, event: string): void {
  ctx.deps.metrics.limitRefusals.inc({ limit: 'ws_backlog' });
  // Once a minute per connection: a flood refuses hundreds of commands a second.
  const t = ctx.now();
  if (s.backlogLoggedAt === undefined || t - s.backlogLoggedAt >= 60_000) {
    s.backlogLoggedAt = t;
    ctx.deps.logger.warn(
      { ip: c.ip, characterId: s.characterId, limit: 'ws_backlog', event },
      'limit reached',
    );
  }
  c.send('error', {
    code: 'RATE_LIMITED',
    message: 'too many commands waiting for the next ticks: this one was not applied',
    event,
  });
}

/** `player:logout`: nothing more reaches the world; leave, saved, then close the socket with 1000. */
function logout(ctx: SessionContext, c: WsConnection, s: Session, characterId: string): void {
  s.phase = 'leaving';
  const p = ctx.lanes
    .run(characterId, () => ctx.leave(characterId, s, 'logout'))
    .catch((err: unknown) => ctx.deps.logger.error({ err, characterId }, 'logout failed'))
    .finally(() => {
      ctx.deps.registry.unbind(characterId, c);
      if (!c.closed) c.close(1000, 'logged out');
    });
  ctx.lanes.track(p);
}

/** `/admin <code>`: the admin gate decides; granted, the character gets admin rights in the world. */
function elevate(ctx: SessionContext, c: WsConnection, s: Session, code: string, event: string): void {
  const { admin, logger, world } = ctx.deps;
  const characterId = s.characterId as string;
  const verdict = admin.check(c.ip, code);
  if (verdict === 'blocked') {
    ctx.deps.metrics.limitRefusals.inc({ limit: 'auth_attempts' });
    logger.warn({ ip: c.ip, characterId, limit: 'auth_attempts' }, 'limit reached');
  } else if (verdict !== 'granted') {
    logger.warn({ ip: c.ip, accountId: s.accountId, characterId, verdict }, 'admin code refused');
  }
  if (verdict !== 'granted') {
    const message = verdict === 'blocked' ? 'too many failed attempts; try again later' : 'not allowed';
    c.send('error', { code: 'FORBIDDEN', message, event });
    return;
  }
  s.admin = true;
  logger.info({ ip: c.ip, accountId: s.accountId, characterId }, 'admin elevation');
  world.enqueue({ type: 'setAdmin', characterId, origin: event });
  c.send('chat:message', {
    fromId: 'system',
    fromName: 'Server',
    message: 'Admin commands enabled.',
    channel: 'system',
    timestamp: ctx.now(),
  });
}
