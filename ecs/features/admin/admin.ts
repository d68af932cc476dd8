import type { CommandOf } from '../../core/commands.ts';
import { Dirty } from '../../core/components.ts';
import { grantXp, itemsChanged, setSkillXp, stateChanged } from '../../core/players.ts';
import { playerMoving } from '../../core/reactions.ts';
import { MAX_LEVEL, normalizeSkill, xpForLevel } from '../../core/skills.ts';
import {
  emit,
  emitError,
  type GameWorld,
  markDirty,
  markPosition,
  type PlayerData,
  spawnEntity,
} from '../../core/world.ts';
import { chatLine } from '../chat/index.ts';
import { killNpc } from '../combat/index.ts';
import { addItem, COINS, itemsLocked, MAX_STACK, type Purse } from '../inventory/index.ts';
import { dropPath } from '../movement/index.ts';
import { NPCS } from '../npcs/index.ts';
import { restorePrayer } from '../prayer/index.ts';
import { restockShop } from '../shops/index.ts';
import { announceEverywhere } from '../social/index.ts';

/**
 * Admin chat commands for players whose session passed `/admin <code>` (setAdmin).
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
  const gained = grantXp(world, p, skill, amount);
  return `Added ${gained} ${skill} xp (level ${p.state.skills[skill].level}).`;
};

/** Full health and prayer points. */
const heal: Admin = (world, p) => {
  const h = world.c.Health;
  if (h.current[p.eid] !== h.max[p.eid]) {
    h.current[p.eid] = h.max[p.eid] as number;
    markDirty(world, p.eid, Dirty.health);
  }
  p.state.health = h.current[p.eid] as number;
  stateChanged(world, p, true);
  restorePrayer(world, p);
  return 'Healed.';
};

/** An NPC in view dies by the admin's hand (its loot is the admin's). */
const kill: Admin = (world, p, args) => {
  const eid = world.eidByWireId.get(args[0] ?? '');
  if (eid === undefined || !world.get(NPCS).byEid.has(eid)) return `No NPC ${args[0] ?? ''}.`;
  const pos = world.c.Position;
  const d = Math.max(
    Math.abs((pos.x[eid] as number) - (pos.x[p.eid] as number)),
    Math.abs((pos.z[eid] as number) - (pos.z[p.eid] as number)),
  );
  if (d > world.viewDistance) return `${args[0]} is not in view.`;
  killNpc(world, eid, p);
  return `Killed ${args[0]}.`;
};

/** Set a skill's xp to the first xp of that level. */
const level: Admin = (world, p, args) => {
  const skill = normalizeSkill(args[0] ?? '');
  const lv = int(args[1]);
  if (!skill || lv === null || lv < 1 || lv > MAX_LEVEL) return `Usage: /level <skill> <1..${MAX_LEVEL}>`;
  const sv = p.state.skills[skill];
  const target = xpForLevel(lv);
  setSkillXp(world, p, skill, target, Math.max(0, target - sv.xp));
  return `${skill} is now level ${sv.level}.`;
};

const stock: Admin = (world, _p, args) =>
  restockShop(world, args[0] ?? '') ? `Restocked ${args[0]}.` : `Unknown shop: ${args[0] ?? ''}`;

/** To every player of every world (through the messaging port: one world alone hears it itself). */
const announce: Admin = (world, p, args) => {
  const message = args.join(' ').trim();
  if (message === '') return 'Usage: /announce <message>';
  announceEverywhere(world, p, message);
  return null; // the announcement itself comes back to the admin too
};

const COMMANDS: Readonly<Record<string, Admin>> = {
  give,
  item: give,
  coins,
  tp,
  spawn,
  xp,
  stock,
  heal,
  kill,
  level,
  announce,
};

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
