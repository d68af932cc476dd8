/**
 * Name labels that never overlap: a greedy placement. Labels are placed in priority order (you first,
 * then what you fight, then by distance); each takes the first of its candidate spots (above, below,
 * right, left of its entity, then further above) that overlaps no label already placed and no reserved
 * box (health bars, splats). A label with no free spot is left out this frame.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LabelRequest {
  id: string;
  text: string;
  /** Anchor: the entity's screen position and its glyph's half size. */
  sx: number;
  sy: number;
  r: number;
  /** Lower is placed first. */
  priority: number;
  width: number;
  height: number;
}

export interface PlacedLabel extends Box {
  id: string;
  text: string;
}

export const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

export function placeLabels(requests: LabelRequest[], reserved: Box[] = []): PlacedLabel[] {
  const placed: PlacedLabel[] = [];
  const taken: Box[] = [...reserved];
  for (const q of [...requests].sort((a, b) => a.priority - b.priority)) {
    const { sx, sy, r, width: w, height: h } = q;
    const gap = 3;
    const candidates: Box[] = [
      { x: sx - w / 2, y: sy - r - gap - h - 6, w, h }, // above, over the health bar
      { x: sx - w / 2, y: sy + r + gap, w, h }, // below
      { x: sx + r + gap, y: sy - h / 2, w, h }, // right
      { x: sx - r - gap - w, y: sy - h / 2, w, h }, // left
      { x: sx - w / 2, y: sy - r - gap - 2 * h - 8, w, h }, // higher above
      { x: sx - w / 2, y: sy + r + gap + h + 2, w, h }, // lower below
    ];
    const spot = candidates.find((c) => !taken.some((t) => overlaps(c, t)));
    if (!spot) continue;
    taken.push(spot);
    placed.push({ ...spot, id: q.id, text: q.text });
  }
  return placed;
}
