import type { CommandOf } from '../../core/commands.ts';
import { itemsChanged, stateChanged } from '../../core/players.ts';
import { playerMoving } from '../../core/reactions.ts';
import { levelForXp, MAX_XP, maxHealthFor, normalizeSkill } from '../../core/skills.ts';
import {
  emit,
  emitError,
  type GameWorld,
  markPosition,
  type PlayerData,
  spawnEntity,
} from '../../core/world.ts';
import { chatLine } from '../chat/index.ts';
import { addItem, COINS, itemsLocked, MAX_STACK, type Purse } from '../inventory/index.ts';
import { dropPath } from '../movement/index.ts';
import { NPCS } from '../npcs/index.ts';
import { restockShop } from '../shops/index.ts';

/**
 * Admin chat commands (contract §2.4) for players whose session passed `/admin <code>` (setAdmin).
 * Everyone else gets FORBIDDEN. Every outcome is answered on the `system` chat channel; commands that
 * change items or coins obey the trade/transaction lock like any other.
 */

function say(world: GameWorld, to: string, message: string): void {
  emit(world, to, 'chat', chatLine(world, 'system', 'Server', message, 'system'));
}

const int = (s: string | undefined): number | null =>
  s !== undefined && /^-?\d+$/.test(s) ? Number(s) : null;

type Admin = (world: GameWorld, p: PlayerData, args: string[], origin?: string) => string | null;

const give: Admin = (world, p, args, origin) => {
  const itemId = args[0] ?? '';
  const quantity = args[1] === undefined ? 1 : int(args[1]);
  if (!world.content.items.has(itemId)) return `Unknown item: ${itemId}`;
  if (quantity === null || quantity <= 0) return 'Usage: /give <itemId> [quantity]';
  if (itemsLocked(world, p, origin)) return 'Finish your trade or transaction first.';
  const purse: Purse = { inventory: structuredClone(p.state.inventory), coins: p.state.coins };
  if (!addItem(world.content, purse, itemId, quantity)) {
    emitError(world, p.characterId, 'INVENTORY_FULL', 'your inventory is full', origin);
    return `No room for ${quantity} x ${itemId}.`;
  }
  p.state.inventory = purse.inventory;
  p.state.coins = purse.coins;
  itemsChanged(world, p);
  return `Gave ${quantity} x ${itemId}.`;
};

const coins: Admin = (world, p, args, origin) => {
  const amount = int(args[0]);
  if (amount === null) return 'Usage: /coins <amount>';
  if (itemsLocked(world, p, origin)) return 'Finish your trade or transaction first.';
  p.state.coins = Math.min(MAX_STACK, Math.max(0, p.state.coins + amount));
  itemsChanged(world, p);
  return `You now have ${p.state.coins} ${COINS}.`;
};

const tp: Admin = (world, p, args) => {
  const x = int(args[0]);
  const z = int(args[1]);
  if (x === null || z === null) return 'Usage: /tp <x> <z>';
  if (!world.content.map.isWalkable(x, z)) return `Tile ${x}, ${z} is not walkable.`;
  playerMoving(world, p);
  dropPath(world, p.eid);
  markPosition(world, p.eid, x, z);
  p.state.position = { x, y: 0, z };
  stateChanged(world, p);
  return `Teleported to ${x}, ${z}.`;
};

const spawn: Admin = (world, p, args) => {
  const info = world.content.npcs.get(args[0] ?? '');
  if (!info) return `Unknown NPC: ${args[0] ?? ''}`;
  const px = world.c.Position.x[p.eid] as number;
  const pz = world.c.Position.z[p.eid] as number;
  const tiles = [
    [px, pz],
    [px + 1, pz],
    [px - 1, pz],
    [px, pz + 1],
    [px, pz - 1],
  ] as const;
  const tile = tiles.find(([x, z]) => world.content.map.isWalkable(x, z));
  if (!tile) return 'No free tile here.';
  const npcs = world.get(NPCS);
  const wireId = `npc-${++npcs.spawned}`;
  const eid = spawnEntity(world, 'npc', wireId, tile[0], tile[1]);
  world.c.Health.max[eid] = info.health;
  world.c.Health.current[eid] = info.health;
  // spawnIndex -1: an admin spawn is not part of content and does not respawn.
  npcs.byEid.set(eid, { eid, npcId: info.id, name: info.name, level: info.level, spawnIndex: -1 });
  return `Spawned ${info.name} (${wireId}).`;
};

const xp: Admin = (world, p, args) => {
  const skill = normalizeSkill(args[0] ?? '');
  const amount = int(args[1]);
  if (!skill || amount === null || amount <= 0) return 'Usage: /xp <skill> <amount>';
  const sv = p.state.skills[skill];
  const gained = Math.min(amount, MAX_XP - sv.xp);
  sv.xp += gained;
  sv.level = levelForXp(sv.xp);
  world.c.Health.max[p.eid] = maxHealthFor(p.state.skills);
  emit(world, p.characterId, 'skillXp', { skill, xp: sv.xp, gained, level: sv.level });
  stateChanged(world, p, true);
  return `Added ${gained} ${skill} xp (level ${sv.level}).`;
};

const stock: Admin = (world, _p, args) =>
  restockShop(world, args[0] ?? '') ? `Restocked ${args[0]}.` : `Unknown shop: ${args[0] ?? ''}`;

const COMMANDS: Readonly<Record<string, Admin>> = { give, coins, tp, spawn, xp, stock };

export function handleChatCommand(world: GameWorld, cmd: CommandOf<'chatCommand'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const name = cmd.name.replace(/^\//, '').toLowerCase();
  const run = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!run) {
    say(world, player.characterId, `Unknown command: /${name}`);
    return;
  }
  if (!player.admin) {
    emitError(world, player.characterId, 'FORBIDDEN', 'admin commands need /admin first', cmd.origin);
    say(world, player.characterId, `/${name} is for admins only.`);
    return;
  }
  const reply = run(world, player, cmd.args, cmd.origin);
  if (reply) say(world, player.characterId, reply);
}
