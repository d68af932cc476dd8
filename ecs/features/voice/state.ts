import type { WorldArea } from '../../core/content.ts';
import { defineState } from '../../core/feature.ts';

/** The room of a player standing in no area of the content. */
export const OUTSIDE_AREA = 'outside';

export interface VoiceState {
  /** Area id (or OUTSIDE_AREA) each tracked player stood in at the end of its last tick. */
  readonly areaOf: Map<string, string>;
}

export const VOICE = defineState<VoiceState>('voice', () => ({ areaOf: new Map() }));

/** The area a tile lies in: the first area of the content whose bounds hold it, else OUTSIDE_AREA. */
export function areaAt(areas: readonly WorldArea[], x: number, z: number): string {
  for (const a of areas) {
    if (x >= a.minX && x <= a.maxX && z >= a.minZ && z <= a.maxZ) return a.id;
  }
  return OUTSIDE_AREA;
}

/** The voice room of an area of a world: `<world>-<areaId>`. */
export function voiceRoomName(worldName: string, areaId: string): string {
  return `${worldName}-${areaId}`;
}
