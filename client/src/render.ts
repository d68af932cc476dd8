import type { GameState, ViewEntity } from './game.ts';
import type { GroundMap } from './map.ts';

/** Top-down drawing: the ground, entities with names and health bars, hit splats, the minimap. */

export const TILE = 28;

const STATION_COLOURS: Record<string, string> = {
  bank: '#d4b13a',
  furnace: '#e0662a',
  anvil: '#8a8f99',
  range: '#b0503a',
  altar: '#c9c9ff',
  fire: '#ff9a1f',
};

export interface Camera {
  /** Tile at the centre of the view (fractional while walking). */
  fx: number;
  fz: number;
  width: number;
  height: number;
}

export function camera(state: GameState, canvas: HTMLCanvasElement): Camera {
  const { x, z } = state.focus();
  return { fx: x, fz: z, width: canvas.width, height: canvas.height };
}

export function toScreen(cam: Camera, x: number, z: number): { sx: number; sy: number } {
  return { sx: (x - cam.fx) * TILE + cam.width / 2, sy: (z - cam.fz) * TILE + cam.height / 2 };
}

export function toTile(cam: Camera, sx: number, sy: number): { x: number; z: number } {
  return {
    x: Math.round((sx - cam.width / 2) / TILE + cam.fx),
    z: Math.round((sy - cam.height / 2) / TILE + cam.fz),
  };
}

export function drawView(
  ctx: CanvasRenderingContext2D,
  state: GameState,
  map: GroundMap,
  now: number,
): Camera {
  const canvas = ctx.canvas;
  // Ease drawn positions toward the server's tiles (one tick of walking is 2 tiles).
  for (const e of state.entities.values()) {
    const dx = e.x - e.rx;
    const dz = e.z - e.rz;
    if (Math.abs(dx) > 8 || Math.abs(dz) > 8) {
      e.rx = e.x;
      e.rz = e.z;
    } else {
      e.rx += dx * 0.18;
      e.rz += dz * 0.18;
    }
  }
  const cam = camera(state, canvas);
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const halfW = Math.ceil(canvas.width / TILE / 2) + 1;
  const halfH = Math.ceil(canvas.height / TILE / 2) + 1;
  const cx = Math.round(cam.fx);
  const cz = Math.round(cam.fz);
  // The view plus the minimap (80 tiles each way).
  map.ensureAround(cx, cz, Math.max(halfW, halfH, 80));
  for (let z = cz - halfH; z <= cz + halfH; z++) {
    for (let x = cx - halfW; x <= cx + halfW; x++) {
      const w = map.walkable(x, z);
      ctx.fillStyle = w === undefined ? '#111' : w ? ((x + z) & 1 ? '#3f6b34' : '#427037') : '#24303a';
      const { sx, sy } = toScreen(cam, x, z);
      ctx.fillRect(sx - TILE / 2, sy - TILE / 2, TILE, TILE);
    }
  }
  const order: Record<string, number> = { resource: 0, station: 1, item: 2, npc: 3, player: 4 };
  const list = [...state.entities.values()].sort((a, b) => (order[a.type] ?? 0) - (order[b.type] ?? 0));
  // A dead player stays in view (it respawns elsewhere); its death is drawn apart, below.
  for (const e of list)
    if (e.type === 'player' || !state.deaths.has(e.id)) drawEntity(ctx, cam, e, e.id === state.me?.id);
  // A death shows for two seconds where it happened: the entity greyed out under a red cross.
  for (const [id, d] of state.deaths) {
    if (d.until < now) {
      state.deaths.delete(id);
      continue;
    }
    ctx.globalAlpha = 0.35;
    drawEntity(ctx, cam, d.e, id === state.me?.id);
    ctx.globalAlpha = 1;
    const { sx, sy } = toScreen(cam, d.e.rx, d.e.rz);
    ctx.strokeStyle = '#ff3030';
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(sx - 8, sy - 8);
    ctx.lineTo(sx + 8, sy + 8);
    ctx.moveTo(sx + 8, sy - 8);
    ctx.lineTo(sx - 8, sy + 8);
    ctx.stroke();
    ctx.lineWidth = 1;
  }
  // Hit splats: a red disc with the damage (blue for a miss) over the target for a second.
  for (let i = state.splats.length - 1; i >= 0; i--) {
    const s = state.splats[i];
    if (!s) continue;
    if (s.until < now) {
      state.splats.splice(i, 1);
      continue;
    }
    const t = state.lookup(s.targetId);
    if (!t) continue;
    const { sx, sy } = toScreen(cam, t.rx, t.rz);
    if (!s.drawn) {
      s.drawn = true;
      state.splatsDrawn++;
    }
    ctx.fillStyle = s.damage > 0 ? '#c0201a' : '#2a5ec0';
    ctx.beginPath();
    ctx.arc(sx, sy, 9, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#fff';
    ctx.font = 'bold 11px sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(String(s.damage), sx, sy + 4);
  }
  return cam;
}

function drawEntity(ctx: CanvasRenderingContext2D, cam: Camera, e: ViewEntity, mine: boolean): void {
  const { sx, sy } = toScreen(cam, e.rx, e.rz);
  const r = TILE / 2 - 3;
  ctx.textAlign = 'center';
  switch (e.type) {
    case 'player':
      ctx.fillStyle = mine ? '#ffd84a' : '#4aa3ff';
      ctx.beginPath();
      ctx.arc(sx, sy, r, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'npc':
      ctx.fillStyle = (e.npcId ?? '').includes('bank') ? '#d4b13a' : '#d0503c';
      ctx.beginPath();
      ctx.arc(sx, sy, r - 1, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'item':
      ctx.fillStyle = '#f2e6b0';
      ctx.fillRect(sx - 5, sy - 5, 10, 10);
      break;
    case 'resource': {
      const tree = (e.kind ?? e.resourceId ?? '').includes('tree');
      ctx.fillStyle = e.depleted ? '#5b4b3a' : tree ? '#1f5a1f' : '#7b7f86';
      ctx.beginPath();
      if (tree) {
        ctx.moveTo(sx, sy - r);
        ctx.lineTo(sx + r, sy + r);
        ctx.lineTo(sx - r, sy + r);
      } else ctx.arc(sx, sy, r - 2, 0, Math.PI * 2);
      ctx.fill();
      break;
    }
    case 'station':
      ctx.fillStyle = STATION_COLOURS[e.stationType ?? ''] ?? '#b08f5a';
      ctx.fillRect(sx - r, sy - r, r * 2, r * 2);
      ctx.fillStyle = '#000';
      ctx.font = 'bold 11px sans-serif';
      ctx.fillText((e.stationType ?? '?').charAt(0).toUpperCase(), sx, sy + 4);
      break;
  }
  if (e.type === 'player' || e.type === 'npc') {
    ctx.font = '11px sans-serif';
    ctx.fillStyle = '#fff';
    ctx.fillText(e.name ?? e.npcId ?? '', sx, sy - r - 8);
    if (e.health !== undefined && e.maxHealth) {
      const w = TILE - 4;
      ctx.fillStyle = '#a01010';
      ctx.fillRect(sx - w / 2, sy - r - 6, w, 4);
      ctx.fillStyle = '#20c020';
      ctx.fillRect(sx - w / 2, sy - r - 6, (w * Math.max(0, e.health)) / e.maxHealth, 4);
    }
  }
}

/** The minimap: the ground at one pixel a tile around the player, entities as dots, the area name. */
export function drawMinimap(ctx: CanvasRenderingContext2D, state: GameState, map: GroundMap): void {
  const { width, height } = ctx.canvas;
  const me = state.me;
  if (!me) return;
  const px = me.position.x;
  const pz = me.position.z;
  const img = ctx.createImageData(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = map.walkable(px - width / 2 + x, pz - height / 2 + y);
      const i = (y * width + x) * 4;
      const [r, g, b] = w === undefined ? [10, 10, 10] : w ? [60, 105, 52] : [30, 45, 60];
      img.data[i] = r;
      img.data[i + 1] = g;
      img.data[i + 2] = b;
      img.data[i + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
  const dot = (x: number, z: number, colour: string, size = 3) => {
    ctx.fillStyle = colour;
    ctx.fillRect(x - px + width / 2 - size / 2, z - pz + height / 2 - size / 2, size, size);
  };
  for (const e of state.entities.values()) {
    if (e.id === me.id) continue;
    const colour =
      e.type === 'player' ? '#fff' : e.type === 'npc' ? '#ff0' : e.type === 'item' ? '#f00' : '#aaa';
    dot(e.x, e.z, colour, e.type === 'resource' ? 2 : 3);
  }
  dot(px, pz, '#ffd84a', 4);
  const area = map.areaAt(px, pz);
  ctx.fillStyle = 'rgba(0,0,0,.55)';
  ctx.fillRect(0, height - 16, width, 16);
  ctx.fillStyle = '#fff';
  ctx.font = '11px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(area?.name ?? 'Wilderness', width / 2, height - 4);
}
