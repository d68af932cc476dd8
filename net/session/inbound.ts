import { COMMANDS_PER_PLAYER_PER_TICK, type QueueLimits } from '../../ecs/core/commands.ts';
import { WS_MESSAGES_PER_SECOND } from '../ws/message-rate.ts';

/**
 * How many of one connection's commands the tick takes, and how many may wait, for a tick length.
 *
 * The transport admits WS_MESSAGES_PER_SECOND a second per connection, so the tick takes at least that
 * many seconds' worth (ceil(60 * TICK_MS / 1000), 36 at 600 ms): a client at the documented rate is
 * never served late. What may wait is about two ticks' worth, and never less than one second's
 * admission, so a burst the transport lets through fits when nothing was waiting. Beyond it a command
 * is refused at once (`RATE_LIMITED`) instead of being applied seconds later.
 */
export function inboundLimits(tickMs: number, messagesPerSecond = WS_MESSAGES_PER_SECOND): QueueLimits {
  const perTick = Math.max(COMMANDS_PER_PLAYER_PER_TICK, Math.ceil((messagesPerSecond * tickMs) / 1000));
  return { perTick, backlog: Math.max(2 * perTick, messagesPerSecond) };
}
