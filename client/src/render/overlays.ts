import type { GameState } from '../game.ts';
import type { Progress } from '../progress.ts';
import { type Camera, toScreen } from './camera.ts';
import type { Box } from './labels.ts';
import { drawLook, lookOf } from './looks.ts';

/** What is drawn over the world: deaths, hit splats, my progress bar and xp drops, the hint's arrow. */

/** A death shows for two seconds where it happened: the entity greyed out under a red cross. */
export function drawDeaths(
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
export function drawSplats(
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
export function drawMine(
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
export function drawHintArrow(
  ctx: CanvasRenderingContext2D,
  cam: Camera,
  target: { x: number; z: number },
): void {
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
