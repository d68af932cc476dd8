import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { groundItems } from '../ground-items/index.ts';
import { inventory } from '../inventory/index.ts';
import { movement } from '../movement/index.ts';
import { npcs } from '../npcs/index.ts';
import { prayer } from '../prayer/index.ts';
import { attackReach } from './attacker.ts';
import {
  fightSystem,
  handleAttack,
  handleAutoRetaliate,
  handleSpell,
  handleStyle,
  onLeave,
  onMove,
  onPlayerDeath,
} from './combat.ts';
import { combatContent } from './content.ts';
import { npcAiSystem } from './npc-ai.ts';
import { COMBAT } from './state.ts';
import { combatWire } from './wire.ts';

/** Fighting NPCs and players: attacks, styles, NPC aggression, leash and respawn, NPC deaths and loot. */
export const combat = defineFeature({
  name: 'combat',
  state: COMBAT,
  commands: { combatStyle: handleStyle, combatAutoRetaliate: handleAutoRetaliate, combatSpell: handleSpell },
  actions: { attack: { reach: (world, player) => attackReach(world, player.eid), run: handleAttack } },
  systems: [
    { name: 'npcCombat', phase: 'npcs', run: npcAiSystem },
    { name: 'combat', phase: 'combat', run: fightSystem },
  ],
  on: { move: onMove, leave: onLeave, death: onPlayerDeath },
  hash: hashCombat,
  uses: [movement, npcs, inventory, groundItems, prayer],
  wire: combatWire,
  content: combatContent,
});

function hashCombat(world: GameWorld, h: Hasher): void {
  const st = world.get(COMBAT);
  for (const [eid, f] of st.fights) {
    h.int(eid);
    h.str(f.targetId);
  }
  for (const [eid, t] of st.readyAt) {
    h.int(eid);
    h.int(t);
  }
  for (const [eid, home] of st.npcHomes) {
    h.int(eid);
    h.json(home);
  }
  h.json(st.respawns);
  h.json([...st.styles]);
  h.json([...st.noRetaliate]);
  h.json([...st.spells]);
}
