/** What other features may use of the dialogue. */

export { closeDialogue } from './dialogue.ts';
export { knownEffect, parseEffect } from './effects.ts';
export { dialogue } from './feature.ts';
export { DIALOGUE_RANGE } from './state.ts';
