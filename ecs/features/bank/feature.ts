import { defineFeature } from '../../core/feature.ts';
import { inventory } from '../inventory/index.ts';
import { npcs } from '../npcs/index.ts';
import { stations } from '../stations/index.ts';
import { handleBankDeposit, handleBankWithdraw, openBank } from './bank.ts';
import { bankWire } from './wire.ts';

/** The bank: open it near a banker or bank booth, deposit and withdraw through item transactions. */
export const bank = defineFeature({
  name: 'bank',
  commands: { bankDeposit: handleBankDeposit, bankWithdraw: handleBankWithdraw },
  actions: {
    bank: { reach: 1, run: openBank },
  },
  uses: [npcs, stations, inventory],
  wire: bankWire,
});
