import type { Ground, GroundMap, MapArea } from '../map.ts';
import { type Camera, toScreen } from './camera.ts';

/**
 * The ground, drawn from the world's own data: each area's terrain (grass, forest floor, quarry stone,
 * ash flats), water, paths, building roofs with their walls and doors, and the edges of areas where
 * players may fight. Drawn in blocks of 16 x 16 tiles kept as offscreen canvases, redrawn only when
 * the zoom changes or a map chunk arrives.
 */

const BLOCK = 16;

type Rgb = [number, number, number];

/** Base colour of a terrain (biomes.json `terrain`), and of the ground outside every area. */
const TERRAIN: Record<string, Rgb> = {
  plains: [86, 128, 60],
  forest: [50, 92, 44],
  mountains: [122, 114, 98],
  desert: [138, 122, 100],
  wild: [74, 112, 56],
};
const GROUND: Partial<Record<Ground, Rgb>> = {
  path: [156, 126, 84],
  water: [52, 110, 170],
  unknown: [22, 22, 22],
  void: [12, 14, 18],
};

/** A small stable number per tile, for variation that does not flicker. */
export function tileHash(x: number, z: number): number {
  let h = (x * 374761393 + z * 668265263) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

export function terrainOf(area: MapArea | undefined): string {
  return area?.terrain && TERRAIN[area.terrain] ? area.terrain : area ? 'plains' : 'wild';
}

/** The colour of a tile as the minimap shows it. */
export function groundColour(map: GroundMap, x: number, z: number): Rgb {
  const g = map.ground(x, z);
  if (g === 'building')
    return map.buildingOn(x, z)?.door?.x === x && map.buildingOn(x, z)?.door?.z === z
      ? [120, 90, 60]
      : [150, 70, 52];
  const fixed = GROUND[g];
  if (fixed) return fixed;
  const base = TERRAIN[terrainOf(map.areaAt(x, z))] as Rgb;
  return g === 'blocked' ? [base[0] - 25, base[1] - 25, base[2] - 25] : base;
}

const shade = ([r, g, b]: Rgb, k: number) => `rgb(${(r + k) | 0},${(g + k) | 0},${(b + k) | 0})`;

const ROOFS = ['#9c4a36', '#7a5a44', '#5f6670', '#8a6a3a'];

interface CachedBlock {
  canvas: HTMLCanvasElement;
  key: string;
}

export class TerrainLayer {
  private readonly blocks = new Map<string, CachedBlock>();

  draw(ctx: CanvasRenderingContext2D, cam: Camera, map: GroundMap): void {
    const t = cam.tile;
    const halfW = cam.width / t / 2 + 1;
    const halfH = cam.height / t / 2 + 1;
    const bx0 = Math.floor((cam.fx - halfW) / BLOCK);
    const bx1 = Math.floor((cam.fx + halfW) / BLOCK);
    const bz0 = Math.floor((cam.fz - halfH) / BLOCK);
    const bz1 = Math.floor((cam.fz + halfH) / BLOCK);
    for (let bz = bz0; bz <= bz1; bz++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        const block = this.block(map, bx, bz, t);
        // The block's north-west corner: tile (bx*B, bz*B + B - 1), whose centre toScreen gives.
        const { sx, sy } = toScreen(cam, bx * BLOCK, bz * BLOCK + BLOCK - 1);
        ctx.drawImage(block, Math.round(sx - t / 2), Math.round(sy - t / 2));
      }
    }
    if (this.blocks.size > 160) this.blocks.clear();
  }

  private block(map: GroundMap, bx: number, bz: number, t: number): HTMLCanvasElement {
    const id = `${bx},${bz}`;
    const key = `${t}:${map.version}`;
    const cached = this.blocks.get(id);
    if (cached && cached.key === key) return cached.canvas;
    const canvas = cached?.canvas ?? document.createElement('canvas');
    canvas.width = BLOCK * t;
    canvas.height = BLOCK * t;
    paintBlock(canvas.getContext('2d') as CanvasRenderingContext2D, map, bx * BLOCK, bz * BLOCK, t);
    this.blocks.set(id, { canvas, key });
    return canvas;
  }
}

function paintBlock(ctx: CanvasRenderingContext2D, map: GroundMap, x0: number, z0: number, t: number): void {
  // Tile (x, z) of the block sits at column x - x0 and row (z0 + BLOCK - 1 - z): north is up.
  const px = (x: number) => (x - x0) * t;
  const py = (z: number) => (z0 + BLOCK - 1 - z) * t;
  for (let z = z0; z < z0 + BLOCK; z++) {
    for (let x = x0; x < x0 + BLOCK; x++) {
      const g = map.ground(x, z);
      const h = tileHash(x, z);
      const area = map.areaAt(x, z);
      const terrain = terrainOf(area);
      // Water is drawn as pools below; its tiles get the land around it first.
      const base = g === 'water' ? (TERRAIN[terrain] as Rgb) : (GROUND[g] ?? (TERRAIN[terrain] as Rgb));
      ctx.fillStyle = shade(base, g === 'blocked' ? -22 : (h - 0.5) * 6);
      ctx.fillRect(px(x), py(z), t, t);
      decorate(ctx, g, terrain, px(x), py(z), t, h);
      if (area?.pvpEnabled) pvpEdge(ctx, map, area, x, z, px(x), py(z), t);
    }
  }
  // Water as round pools with a sandy shore, over the tiles (smoother than square tiles).
  const cx = (x: number) => px(x) + t / 2;
  const cy = (z: number) => py(z) + t / 2;
  // The pools that reach into this block: the shores are drawn first, so no pool's shore covers another's water.
  const pools = (map.info.water ?? []).filter(
    (w) =>
      w.x + w.radius + 1 >= x0 &&
      w.x - w.radius - 1 < x0 + BLOCK &&
      w.z + w.radius + 1 >= z0 &&
      w.z - w.radius - 1 < z0 + BLOCK,
  );
  for (const w of pools) {
    ctx.fillStyle = 'rgb(176,160,112)';
    ctx.beginPath();
    ctx.arc(cx(w.x), cy(w.z), (w.radius + 0.9) * t, 0, Math.PI * 2);
    ctx.fill();
  }
  for (const w of pools) {
    ctx.fillStyle = 'rgb(52,110,170)';
    ctx.beginPath();
    ctx.arc(cx(w.x), cy(w.z), (w.radius + 0.5) * t, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = 'rgba(255,255,255,.2)';
    ctx.lineWidth = 1;
    for (let k = 1; k <= w.radius; k++) {
      ctx.beginPath();
      ctx.arc(cx(w.x) + (k % 2) * t * 0.4, cy(w.z) - k * t * 0.5, t * 0.5, 0.2 * Math.PI, 0.8 * Math.PI);
      ctx.stroke();
    }
  }
  for (const b of map.info.buildings ?? []) {
    if (b.x + b.width <= x0 || b.x >= x0 + BLOCK || b.z + b.depth <= z0 || b.z >= z0 + BLOCK) continue;
    const left = px(b.x);
    const top = py(b.z + b.depth - 1);
    const w = b.width * t;
    const h = b.depth * t;
    ctx.fillStyle = ROOFS[Math.floor(tileHash(b.x, b.z) * ROOFS.length)] as string;
    ctx.fillRect(left, top, w, h);
    // Roof tiles, a ridge along the longer side, and the walls around.
    ctx.strokeStyle = 'rgba(0,0,0,.18)';
    ctx.lineWidth = 1;
    for (let i = 1; i < (b.depth * t) / 6; i++) {
      ctx.beginPath();
      ctx.moveTo(left, top + i * 6);
      ctx.lineTo(left + w, top + i * 6);
      ctx.stroke();
    }
    ctx.strokeStyle = 'rgba(255,255,255,.25)';
    ctx.lineWidth = 2;
    ctx.beginPath();
    if (w >= h) {
      ctx.moveTo(left + 4, top + h / 2);
      ctx.lineTo(left + w - 4, top + h / 2);
    } else {
      ctx.moveTo(left + w / 2, top + 4);
      ctx.lineTo(left + w / 2, top + h - 4);
    }
    ctx.stroke();
    ctx.strokeStyle = '#3b2a1e';
    ctx.lineWidth = Math.max(3, t / 6);
    ctx.strokeRect(left, top, w, h);
    if (b.door) {
      // The door: a wooden doorway in the wall, on the floor of its tile.
      ctx.fillStyle = '#a07a4a';
      ctx.fillRect(px(b.door.x), py(b.door.z), t, t);
      ctx.fillStyle = '#5a3818';
      ctx.fillRect(px(b.door.x) + t * 0.2, py(b.door.z) + t * 0.15, t * 0.6, t * 0.7);
      ctx.fillStyle = '#e0b43a';
      ctx.fillRect(px(b.door.x) + t * 0.65, py(b.door.z) + t * 0.5, 2, 2);
    }
  }
}

function decorate(
  ctx: CanvasRenderingContext2D,
  g: Ground,
  terrain: string,
  x: number,
  y: number,
  t: number,
  h: number,
): void {
  if (g === 'path') {
    if (h < 0.5) {
      ctx.fillStyle = 'rgba(90,70,40,.35)';
      ctx.fillRect(x + t * h, y + t * (1 - h) * 0.8, 2, 2);
    }
    return;
  }
  if (g !== 'grass') return;
  if (terrain === 'forest' && h < 0.3) {
    ctx.fillStyle = 'rgba(20,50,18,.55)';
    ctx.beginPath();
    ctx.arc(x + t * (0.2 + h * 2), y + t * (0.3 + h), t * 0.18, 0, Math.PI * 2);
    ctx.fill();
  } else if (terrain === 'mountains' && h < 0.35) {
    ctx.fillStyle = 'rgba(70,64,56,.6)';
    ctx.fillRect(x + t * (0.2 + h), y + t * (0.6 - h), t * 0.16, t * 0.12);
  } else if (terrain === 'desert' && h < 0.25) {
    ctx.strokeStyle = 'rgba(60,50,40,.4)';
    ctx.beginPath();
    ctx.moveTo(x + t * 0.2, y + t * 0.7);
    ctx.lineTo(x + t * 0.5, y + t * (0.5 + h));
    ctx.lineTo(x + t * 0.8, y + t * 0.6);
    ctx.stroke();
  } else if ((terrain === 'plains' || terrain === 'wild') && h < 0.08) {
    ctx.strokeStyle = 'rgba(30,70,25,.3)';
    ctx.beginPath();
    ctx.moveTo(x + t * (0.3 + h), y + t * 0.75);
    ctx.lineTo(x + t * (0.25 + h), y + t * 0.5);
    ctx.moveTo(x + t * (0.4 + h), y + t * 0.75);
    ctx.lineTo(x + t * (0.45 + h), y + t * 0.48);
    ctx.stroke();
  }
}

/** A red dashed line where an area that allows fights between players ends. */
function pvpEdge(
  ctx: CanvasRenderingContext2D,
  map: GroundMap,
  area: MapArea,
  x: number,
  z: number,
  px: number,
  py: number,
  t: number,
): void {
  ctx.strokeStyle = 'rgba(220,40,30,.8)';
  ctx.lineWidth = 2;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  const out = (nx: number, nz: number) => map.areaAt(nx, nz)?.id !== area.id;
  const edge = (ax: number, ay: number, bx: number, by: number) => {
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
  };
  if (out(x, z + 1)) edge(px, py + 1, px + t, py + 1);
  if (out(x, z - 1)) edge(px, py + t - 1, px + t, py + t - 1);
  if (out(x - 1, z)) edge(px + 1, py, px + 1, py + t);
  if (out(x + 1, z)) edge(px + t - 1, py, px + t - 1, py + t);
  ctx.stroke();
  ctx.setLineDash([]);
}
