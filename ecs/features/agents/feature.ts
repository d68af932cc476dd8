import { defineFeature } from '../../core/feature.ts';
import { movement } from '../movement/index.ts';
import { npcs } from '../npcs/index.ts';
import { resources } from '../resources/index.ts';
import { stations } from '../stations/index.ts';
import { handleAgentControl, handleAgentMessage } from './control.ts';
import { agentsWire } from './wire.ts';

/** AI agents: goal changes and messages reach the agent's connection; a stop ends path and action. */
export const agents = defineFeature({
  name: 'agents',
  commands: { agentControl: handleAgentControl, agentMessage: handleAgentMessage },
  // The owner's controls and messages reach the agent's connection whatever its character is doing.
  deliveries: ['agentControl', 'agentMessage'],
  uses: [movement, npcs, resources, stations],
  wire: agentsWire,
});
