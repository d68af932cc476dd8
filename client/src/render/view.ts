import { QUESTS } from 'virtual:content';
import type { GameState, ViewEntity } from '../game.ts';
import type { GroundMap } from '../map.ts';
import type { Progress } from '../progress.ts';
import { type Hint, npcQuestMark } from '../quest-guide.ts';
import { type Camera, camera, toScreen } from './camera.ts';
import { type Box, type PlacedLabel, placeLabels } from './labels.ts';
import { drawLook, type Look, levelColour, lookOf, questMarker } from './looks.ts';
import { drawDeaths, drawHintArrow, drawMine, drawSplats } from './overlays.ts';
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
