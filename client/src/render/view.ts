import { QUESTS } from 'virtual:content';
import type { GameState, ViewEntity } from '../game.ts';
import type { GroundMap } from '../map.ts';
import type { Progress } from '../progress.ts';
import { type Hint, npcQuestMark } from '../quest-guide.ts';
import { type Camera, camera, toScreen } from './camera.ts';
import { type Box, type PlacedLabel, placeLabels } from './labels.ts';
import { drawLook, type Look, levelColour, lookOf, questMarker } from './looks.ts';
import { TerrainLayer } from './terrain.ts';

/**
 * The stage: the ground, then everything in view with its look, health bars, quest markers, labels
 * placed so they never overlap, hit splats, xp drops, the progress bar of what you are doing and an
 * arrow toward the hint's target when it is out of view. What was drawn is kept in `lastFrame` (the
 * browser tests read it through `window.__game`).
 */

export interface DrawnEntity {
  id: string;
  look: Look;
  sx: number;
  sy: number;
  mark?: 'available' | 'step';
}

export interface Frame {
  entities: DrawnEntity[];
  labels: PlacedLabel[];
  /** Other boxes drawn over the stage (health bars, splats): labels avoid them. */
  boxes: Box[];
}

export const lastFrame: Frame = { entities: [], labels: [], boxes: [] };
const terrain = new TerrainLayer();

const ORDER: Record<string, number> = { resource: 0, station: 1, item: 2, npc: 3, player: 4 };

export function drawView(
  ctx: CanvasRenderingContext2D,
  state: GameState,
  map: GroundMap,
  progress: Progress,
  hint: Hint | null,
  now: number,
): Camera {
  easePositions(state);
  const cam = camera(state, ctx.canvas);
  const t = cam.tile;
  map.ensureAround(Math.round(cam.fx), Math.round(cam.fz), Math.max(cam.width, cam.height) / t / 2 + 80);
  ctx.fillStyle = '#0c0e12';
  ctx.fillRect(0, 0, cam.width, cam.height);
  terrain.draw(ctx, cam, map);

  if (state.walkTarget) {
    const { sx, sy } = toScreen(cam, state.walkTarget.x, state.walkTarget.z);
    ctx.strokeStyle = 'rgba(255,255,255,.8)';
    ctx.lineWidth = 2;
    ctx.strokeRect(sx - t / 2 + 2, sy - t / 2 + 2, t - 4, t - 4);
  }

  const me = state.me;
  const myLevel = me?.combatLevel ?? 3;
  const questList = state.quests?.quests ?? [];
  const skills = me?.skills ?? {};
  // Items on one tile draw as one pile.
  const piles = new Map<string, ViewEntity[]>();
  for (const e of state.entities.values()) {
    if (e.type !== 'item') continue;
    const k = `${e.x},${e.z}`;
    piles.set(k, [...(piles.get(k) ?? []), e]);
  }
  const list = [...state.entities.values()]
    .filter((e) => e.type !== 'item' || piles.get(`${e.x},${e.z}`)?.[0] === e)
    .filter((e) => e.type === 'player' || !state.deaths.has(e.id))
    .sort((a, b) => b.rz - a.rz || (ORDER[a.type] ?? 0) - (ORDER[b.type] ?? 0));

  const frame: Frame = { entities: [], labels: [], boxes: [] };
  const labels: Parameters<typeof placeLabels>[0] = [];
  /** People and monsters: labels keep off them too. */
  const glyphs: Box[] = [];
  const fightingId = me ? state.entities.get(me.id)?.targetId : null;
  ctx.font = '11px sans-serif';
  for (const e of list) {
    const { sx, sy } = toScreen(cam, e.rx, e.rz);
    if (sx < -t * 2 || sy < -t * 2 || sx > cam.width + t * 2 || sy > cam.height + t * 2) continue;
    const pile = e.type === 'item' ? (piles.get(`${e.x},${e.z}`)?.length ?? 1) : 1;
    const look = lookOf(e, me?.id, pile);
    drawLook(ctx, look, e, sx, sy, t, { myLevel, now, pile });
    const drawn: DrawnEntity = { id: e.id, look, sx, sy };
    const r = t * 0.5;
    if ((e.type === 'player' || e.type === 'npc') && e.health !== undefined && e.maxHealth) {
      const w = t - 4;
      const bar = { x: sx - w / 2, y: sy - r - 6, w, h: 4 };
      if (e.health < e.maxHealth || e.targetId || e.id === fightingId) {
        ctx.fillStyle = '#a01010';
        ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
        ctx.fillStyle = '#20c020';
        ctx.fillRect(bar.x, bar.y, (w * Math.max(0, e.health)) / e.maxHealth, bar.h);
        frame.boxes.push(bar);
      }
    }
    if (look === 'quest' || look === 'banker' || look === 'shopkeeper' || look === 'townsfolk') {
      const mark = npcQuestMark(QUESTS, e.npcId ?? '', questList, skills);
      if (mark) {
        questMarker(ctx, sx, sy - r - 14, mark);
        drawn.mark = mark;
        frame.boxes.push({ x: sx - 9, y: sy - r - 23, w: 18, h: 18 });
      }
    }
    if (e.type === 'player' || e.type === 'npc') {
      glyphs.push({ x: sx - r * 0.7, y: sy - r * 0.7, w: r * 1.4, h: r * 1.5 });
      const mob = look === 'mob';
      const text = mob ? `${e.name ?? e.npcId} (level ${e.level ?? '?'})` : (e.name ?? e.npcId ?? '');
      const priority =
        e.id === me?.id
          ? 0
          : e.id === fightingId
            ? 1
            : 2 + Math.hypot(sx - cam.width / 2, sy - cam.height / 2) / 1000;
      labels.push({
        id: e.id,
        text,
        sx,
        sy: drawn.mark ? sy - 16 : sy,
        r,
        priority,
        width: ctx.measureText(text).width + 6,
        height: 14,
      });
      labelColour.set(e.id, mob ? levelColour(e.level ?? 1, myLevel) : e.id === me?.id ? '#ffd84a' : '#fff');
    }
    frame.entities.push(drawn);
  }
  for (const b of map.info.buildings ?? []) {
    const { sx, sy } = toScreen(cam, b.x + (b.width - 1) / 2, b.z + (b.depth - 1) / 2);
    if (sx < -200 || sy < -200 || sx > cam.width + 200 || sy > cam.height + 200) continue;
    labels.push({
      id: `building:${b.id}`,
      text: b.name,
      sx,
      sy,
      r: 0,
      priority: 50,
      width: ctx.measureText(b.name).width + 6,
      height: 14,
    });
    labelColour.set(`building:${b.id}`, '#f4e4c4');
  }

  drawDeaths(ctx, cam, state, now, myLevel);
  drawSplats(ctx, cam, state, now, frame.boxes);
  const placed = placeLabels(labels, [...frame.boxes, ...glyphs]);
  ctx.textAlign = 'center';
  for (const l of placed) {
    ctx.fillStyle = 'rgba(0,0,0,.55)';
    ctx.fillRect(l.x, l.y, l.w, l.h);
    ctx.fillStyle = labelColour.get(l.id) ?? '#fff';
    ctx.fillText(l.text, l.x + l.w / 2, l.y + l.h - 3);
  }
  frame.labels = placed;
  drawMine(ctx, cam, state, progress, now);
  if (hint?.target) drawHintArrow(ctx, cam, hint.target);
  Object.assign(lastFrame, frame);
  return cam;
}

const labelColour = new Map<string, string>();

/** Ease drawn positions toward the server's tiles (one tick of walking is 2 tiles). */
function easePositions(state: GameState): void {
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
}

/** A death shows for two seconds where it happened: the entity greyed out under a red cross. */
function drawDeaths(
  ctx: CanvasRenderingContext2D,
  cam: Camera,
  state: GameState,
  now: number,
  myLevel: number,
): void {
  for (const [id, d] of state.deaths) {
    if (d.until < now) {
      state.deaths.delete(id);
      continue;
    }
    const { sx, sy } = toScreen(cam, d.e.rx, d.e.rz);
    ctx.globalAlpha = 0.35;
    drawLook(ctx, lookOf(d.e, state.me?.id), d.e, sx, sy, cam.tile, { myLevel, now, pile: 1 });
    ctx.globalAlpha = 1;
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
}

const SPLAT_SPOTS = [
  [0, 0],
  [17, 0],
  [-17, 0],
  [0, 17],
] as const;

/**
 * Hit splats: a red disc with the damage (blue for a miss) on the target for a second; at most four a
 * target at once, side by side (the oldest give way).
 */
function drawSplats(
  ctx: CanvasRenderingContext2D,
  cam: Camera,
  state: GameState,
  now: number,
  boxes: Box[],
): void {
  const perTarget = new Map<string, number>();
  for (let i = state.splats.length - 1; i >= 0; i--) {
    const s = state.splats[i];
    if (!s) continue;
    const n = perTarget.get(s.targetId) ?? 0;
    if (s.until < now || n >= SPLAT_SPOTS.length) {
      state.splats.splice(i, 1);
      continue;
    }
    const target = state.lookup(s.targetId);
    if (!target) continue;
    perTarget.set(s.targetId, n + 1);
    const { sx: x, sy: y } = toScreen(cam, target.rx, target.rz);
    const [dx, dy] = SPLAT_SPOTS[n] as readonly [number, number];
    const sx = x + dx;
    const sy = y + 2 + dy;
    if (!s.drawn) {
      s.drawn = true;
      state.splatsDrawn++;
    }
    ctx.fillStyle = s.damage > 0 ? '#c0201a' : '#2a5ec0';
    ctx.beginPath();
    ctx.arc(sx, sy, 8, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#fff';
    ctx.font = 'bold 10px sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(String(s.damage), sx, sy + 4);
    boxes.push({ x: sx - 8, y: sy - 8, w: 16, h: 16 });
  }
  ctx.font = '11px sans-serif';
}

/** Over my head: the progress bar of what I am doing, and xp drops rising and fading. */
function drawMine(
  ctx: CanvasRenderingContext2D,
  cam: Camera,
  state: GameState,
  progress: Progress,
  now: number,
): void {
  const me = state.me ? state.entities.get(state.me.id) : undefined;
  if (!me) return;
  const { sx, sy } = toScreen(cam, me.rx, me.rz);
  if (progress.current) {
    const w = 56;
    const y = sy + cam.tile * 0.5 + 4;
    ctx.fillStyle = 'rgba(0,0,0,.7)';
    ctx.fillRect(sx - w / 2 - 1, y - 1, w + 2, 8);
    ctx.fillStyle = progress.current.kind === 'teleport' ? '#9b7bff' : '#48c8ff';
    ctx.fillRect(sx - w / 2, y, w * progress.fraction(now), 6);
  }
  // Newest lowest; each older drop rises and stays at least a line above the one below it.
  let above = Number.POSITIVE_INFINITY;
  for (let i = state.xpDrops.length - 1; i >= 0; i--) {
    const d = state.xpDrops[i];
    if (!d) continue;
    const age = (now - d.start) / 1600;
    if (age >= 1) {
      state.xpDrops.splice(i, 1);
      continue;
    }
    const y = Math.min(sy - 14 - age * 36, above - 14);
    above = y;
    ctx.globalAlpha = 1 - age * age;
    ctx.fillStyle = '#fff27a';
    ctx.font = 'bold 12px sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText(d.text, sx + cam.tile * 0.7, y);
    ctx.globalAlpha = 1;
  }
  ctx.font = '11px sans-serif';
}

/** An arrow at the edge of the stage toward the hint's target when it is out of view. */
function drawHintArrow(ctx: CanvasRenderingContext2D, cam: Camera, target: { x: number; z: number }): void {
  const { sx, sy } = toScreen(cam, target.x, target.z);
  const m = 24;
  if (sx > m && sy > m && sx < cam.width - m && sy < cam.height - m) return;
  const cx = cam.width / 2;
  const cy = cam.height / 2;
  const ang = Math.atan2(sy - cy, sx - cx);
  const k = Math.min(
    (cam.width / 2 - m) / Math.abs(Math.cos(ang) || 1e-6),
    (cam.height / 2 - m) / Math.abs(Math.sin(ang) || 1e-6),
  );
  const ax = cx + Math.cos(ang) * k;
  const ay = cy + Math.sin(ang) * k;
  ctx.save();
  ctx.translate(ax, ay);
  ctx.rotate(ang);
  ctx.fillStyle = '#ffd21f';
  ctx.strokeStyle = '#3a2a00';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(14, 0);
  ctx.lineTo(-8, -10);
  ctx.lineTo(-3, 0);
  ctx.lineTo(-8, 10);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}
