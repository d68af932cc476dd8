import type { GameState } from '../game.ts';
import type { GroundMap } from '../map.ts';
import { lookOf } from './looks.ts';
import { groundColour } from './terrain.ts';

/**
 * The minimap: the ground at one pixel a tile around the player (north up, like the view), dots for
 * what is around by kind, a flag where you walk, and the name of the area. A click walks there
 * (main.ts turns the pixel into a tile with `minimapTile`).
 */

const DOTS: Record<string, string> = {
  player: '#ffffff',
  mob: '#ff4a3a',
  banker: '#f7d24a',
  shopkeeper: '#4ad47a',
  quest: '#c79bff',
  townsfolk: '#e0c090',
  item: '#ff2a2a',
  pile: '#ff2a2a',
  tree: '#1f4a1a',
  rock: '#bbb',
  fishing: '#bfe6ff',
};

let cache: { key: string; img: ImageData } | null = null;

export function minimapTile(
  canvas: HTMLCanvasElement,
  state: GameState,
  px: number,
  py: number,
): { x: number; z: number } | null {
  const me = state.me;
  if (!me) return null;
  return {
    x: me.position.x - Math.floor(canvas.width / 2) + Math.floor(px),
    z: me.position.z + Math.floor(canvas.height / 2) - Math.floor(py),
  };
}

export function drawMinimap(
  ctx: CanvasRenderingContext2D,
  state: GameState,
  map: GroundMap,
  now: number,
): void {
  const { width, height } = ctx.canvas;
  const me = state.me;
  if (!me) return;
  const px = me.position.x;
  const pz = me.position.z;
  const left = px - Math.floor(width / 2);
  const top = pz + Math.floor(height / 2);
  const key = `${px},${pz},${map.version}`;
  if (cache?.key !== key) {
    const img = ctx.createImageData(width, height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const [r, g, b] = groundColour(map, left + x, top - y);
        const i = (y * width + x) * 4;
        img.data[i] = r;
        img.data[i + 1] = g;
        img.data[i + 2] = b;
        img.data[i + 3] = 255;
      }
    }
    cache = { key, img };
  }
  ctx.putImageData(cache.img, 0, 0);
  const dot = (x: number, z: number, colour: string, size = 3) => {
    ctx.fillStyle = colour;
    ctx.fillRect(x - left - size / 2 + 0.5, top - z - size / 2 + 0.5, size, size);
  };
  for (const e of state.entities.values()) {
    if (e.id === me.id) continue;
    const look = lookOf(e, me.id);
    const colour = look.startsWith('station:') ? '#e0a040' : (DOTS[look] ?? '#aaa');
    dot(e.x, e.z, colour, e.type === 'resource' ? 2 : 3);
  }
  const flag = state.walkTarget;
  if (flag) {
    ctx.fillStyle = '#ff3030';
    ctx.fillRect(flag.x - left, top - flag.z - 6, 1.5, 7);
    ctx.fillRect(flag.x - left, top - flag.z - 6, 5, 3);
  }
  // Me: a white-ringed gold dot that pulses a little.
  ctx.fillStyle = '#ffd84a';
  ctx.strokeStyle = '#fff';
  ctx.beginPath();
  ctx.arc(px - left + 0.5, top - pz + 0.5, 2.5 + Math.sin(now / 250) * 0.5, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  const area = map.areaAt(px, pz);
  ctx.fillStyle = 'rgba(0,0,0,.55)';
  ctx.fillRect(0, height - 16, width, 16);
  ctx.fillStyle = area?.pvpEnabled ? '#ff8a7a' : '#fff';
  ctx.font = '11px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(
    `${area?.name ?? 'Wilderness'}${area?.pvpEnabled ? ' (players fight)' : area?.safeZone ? ' (safe)' : ''}`,
    width / 2,
    height - 4,
  );
  ctx.fillStyle = '#fff';
  ctx.font = 'bold 10px sans-serif';
  ctx.fillText('N', width / 2, 11);
}
