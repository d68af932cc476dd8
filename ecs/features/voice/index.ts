/** What other features (and net/) may use of voice chat. */
export { voice } from './feature.ts';
export { areaAt, OUTSIDE_AREA, voiceRoomName } from './state.ts';
