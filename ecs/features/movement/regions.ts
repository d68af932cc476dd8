import type { TileMap } from '../../core/tile-map.ts';

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
      // Left, right, up, down (no closure: this loop runs once per tile of the map).
      for (let k = 0; k < 4; k++) {
        const j =
          k === 0
            ? x > 0
              ? i - 1
              : -1
            : k === 1
              ? x < width - 1
                ? i + 1
                : -1
              : k === 2
                ? i - width
                : i + width;
        if (j < 0 || j >= labels.length) continue;
        if (blocked[j] === 0 && labels[j] === 0) {
          labels[j] = next;
          queue[tail++] = j;
        }
      }
    }
  }
  return labels;
}

export function regionAt(map: TileMap, labels: Int32Array, x: number, z: number): number {
  if (!map.inBounds(x, z)) return 0;
  return labels[(z - map.minZ) * map.width + (x - map.minX)] as number;
}
