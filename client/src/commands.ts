/**
 * What a chat line means before it goes to the server: `@name message` is a private message; `/help`,
 * `/home`, `/run`, `/logout` are the client's own commands; any other `/...` line is a server command
 * (`/admin <code>` and the admin commands); the rest is said aloud.
 */

export type ChatIntent =
  | { kind: 'say'; message: string }
  | { kind: 'private'; to: string; message: string }
  | { kind: 'help' }
  | { kind: 'home' }
  | { kind: 'run' }
  | { kind: 'logout' }
  | { kind: 'server'; message: string };

export function parseChat(text: string): ChatIntent | null {
  const line = text.trim();
  if (line === '') return null;
  const priv = /^@(\S+)\s+(.+)$/.exec(line);
  if (priv) return { kind: 'private', to: priv[1] as string, message: priv[2] as string };
  if (!line.startsWith('/')) return { kind: 'say', message: line };
  const name = line.slice(1).split(/\s+/)[0]?.toLowerCase() ?? '';
  if (name === 'help' || name === '?') return { kind: 'help' };
  if (name === 'home') return { kind: 'home' };
  if (name === 'run') return { kind: 'run' };
  if (name === 'logout' || name === 'quit') return { kind: 'logout' };
  return { kind: 'server', message: line };
}

/** The answer to `/help`: what anyone may type, then what admins may. */
export const HELP_LINES: readonly string[] = [
  'Type a line and press Enter to say it to the players around you.',
  '@name message: a private message to that player, wherever they are.',
  '/home: cast the home teleport back to town (takes a few seconds; then it needs to cool down).',
  '/run: switch running on or off.',
  '/logout: leave the game (your character is saved).',
  '/help: this list.',
  '/admin <code>: unlock the admin commands (/give, /coins, /tp, /spawn, /xp, /level, /heal, /kill, /stock, /announce) if you have the code.',
];
