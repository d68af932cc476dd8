import { defineWire } from '../../core/faces/wire.ts';

/** Ground items' wire face: the `pickup` verb (what lies on the ground is replicated in world:update). */
export const groundItemsWire = defineWire({
  verbs: { pickup: 'a ground item (reach 1)' },
});
