import type { CommandOf } from '../../core/commands.ts';
import { defineFeature } from '../../core/feature.ts';
import type { GameWorld } from '../../core/world.ts';
import { chat } from '../chat/index.ts';
import { combat } from '../combat/index.ts';
import { inventory } from '../inventory/index.ts';
import { movement } from '../movement/index.ts';
import { npcs } from '../npcs/index.ts';
import { prayer } from '../prayer/index.ts';
import { shops } from '../shops/index.ts';
import { social } from '../social/index.ts';
import { handleChatCommand } from './admin.ts';

/** Admin chat commands (/give or /item, /coins, /tp, /spawn, /xp, /stock, /heal, /kill, /level, /announce) for sessions that passed `/admin <code>`. */
export const admin = defineFeature({
  name: 'admin',
  commands: { chatCommand: handleChatCommand, setAdmin },
  // Net's verdict on `/admin <code>`, not an act in the world.
  deliveries: ['setAdmin'],
  uses: [movement, npcs, inventory, social, chat, shops, prayer, combat],
});

function setAdmin(world: GameWorld, cmd: CommandOf<'setAdmin'>): void {
  const p = world.players.get(cmd.characterId);
  if (p) p.admin = true;
}
