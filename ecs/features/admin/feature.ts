import type { CommandOf } from '../../core/commands.ts';
import { defineFeature } from '../../core/feature.ts';
import type { GameWorld } from '../../core/world.ts';
import { chat } from '../chat/index.ts';
import { inventory } from '../inventory/index.ts';
import { movement } from '../movement/index.ts';
import { npcs } from '../npcs/index.ts';
import { shops } from '../shops/index.ts';
import { handleChatCommand } from './admin.ts';

/** Admin chat commands (/give, /coins, /tp, /spawn, /xp, /stock) for sessions that passed `/admin <code>`. */
export const admin = defineFeature({
  name: 'admin',
  commands: { chatCommand: handleChatCommand, setAdmin },
  uses: [movement, npcs, inventory, chat, shops],
});

function setAdmin(world: GameWorld, cmd: CommandOf<'setAdmin'>): void {
  const p = world.players.get(cmd.characterId);
  if (p) p.admin = true;
}
