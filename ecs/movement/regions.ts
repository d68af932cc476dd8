import type { TileMap } from '../tile-map.ts';

/**
 * Connected regions of walkable tiles (4-neighbour flood fill; with no corner cutting, 8-direction
 * moves connect exactly the same tiles). Lets the pathfinder answer "unreachable" for a target in another
 * region at once instead of exhausting its search box. Label 0 = blocked.
 */
export function labelRegions(map: TileMap): Int32Array {
  const { width, depth, blocked } = map;
  const labels = new Int32Array(width * depth);
  const queue = new Int32Array(width * depth);
  let next = 0;
  for (let start = 0; start < labels.length; start++) {
    if (blocked[start] !== 0 || labels[start] !== 0) continue;
    next++;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    labels[start] = next;
    while (head < tail) {
      const i = queue[head++] as number;
      const x = i % width;
      const visit = (j: number) => {
        if (blocked[j] === 0 && labels[j] === 0) {
          labels[j] = next;
          queue[tail++] = j;
        }
      };
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (i >= width) visit(i - width);
      if (i < width * (depth - 1)) visit(i + width);
    }
  }
  return labels;
}

export function regionAt(map: TileMap, labels: Int32Array, x: number, z: number): number {
  if (!map.inBounds(x, z)) return 0;
  return labels[(z - map.minZ) * map.width + (x - map.minX)] as number;
}
