import type { ViewEntity } from '../game.ts';

/** The shapes of things that are not people: trees, rocks, fishing spots, piles of items, stations. */

const ORE_COLOURS: [string, string][] = [
  ['copper', '#d2782f'],
  ['tin', '#d9dde3'],
  ['iron', '#9a4e3c'],
  ['essence', '#9fc6ff'],
  ['coal', '#222'],
  ['gold', '#f3c63a'],
];

export function tree(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, e: ViewEntity): void {
  if (e.depleted) {
    ctx.fillStyle = '#7a5a36';
    ctx.beginPath();
    ctx.arc(x, y, r * 0.45, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = '#4a3420';
    ctx.beginPath();
    ctx.arc(x, y, r * 0.25, 0, Math.PI * 2);
    ctx.stroke();
    return;
  }
  const birch = (e.resourceId ?? '').includes('birch');
  ctx.fillStyle = birch ? '#e9e4d4' : '#6a4a2a';
  ctx.fillRect(x - r * 0.12, y, r * 0.24, r * 0.9);
  const leaf = birch ? '#7fb548' : (e.resourceId ?? '').includes('ash') ? '#3f6e35' : '#2f6b2a';
  ctx.fillStyle = leaf;
  ctx.strokeStyle = 'rgba(0,0,0,.35)';
  ctx.lineWidth = 1;
  for (const [dx, dy, rr] of [
    [-0.35, -0.1, 0.5],
    [0.35, -0.1, 0.5],
    [0, -0.45, 0.55],
  ] as const) {
    ctx.beginPath();
    ctx.arc(x + dx * r, y + dy * r, rr * r, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
}

export function rock(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, e: ViewEntity): void {
  const ore = ORE_COLOURS.find(([k]) => (e.resourceId ?? '').includes(k))?.[1] ?? '#d8d8d8';
  ctx.fillStyle = e.depleted ? '#6e6a66' : '#8c8680';
  ctx.strokeStyle = '#3c3834';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  const pts = [
    [-0.8, 0.5],
    [-0.6, -0.3],
    [-0.1, -0.7],
    [0.55, -0.45],
    [0.85, 0.2],
    [0.45, 0.65],
    [-0.3, 0.7],
  ] as const;
  for (const [i, [px, py]] of pts.entries()) {
    if (i === 0) ctx.moveTo(x + px * r, y + py * r);
    else ctx.lineTo(x + px * r, y + py * r);
  }
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  if (e.depleted) return;
  ctx.fillStyle = ore;
  for (const [px, py] of [
    [-0.3, -0.1],
    [0.25, 0.15],
    [0.05, -0.4],
    [-0.1, 0.35],
  ] as const) {
    ctx.beginPath();
    ctx.arc(x + px * r, y + py * r, r * 0.14, 0, Math.PI * 2);
    ctx.fill();
  }
}

export function fishing(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, now: number): void {
  const phase = (now / 900) % 1;
  ctx.strokeStyle = 'rgba(230,245,255,.85)';
  ctx.lineWidth = 1.5;
  for (const k of [0, 0.5]) {
    const rr = r * (0.3 + ((phase + k) % 1) * 0.7);
    ctx.beginPath();
    ctx.arc(x, y, rr, 0, Math.PI * 2);
    ctx.stroke();
  }
  // A small fish.
  ctx.fillStyle = '#e8f4ff';
  ctx.beginPath();
  ctx.ellipse(x, y, r * 0.3, r * 0.13, 0, 0, Math.PI * 2);
  ctx.moveTo(x + r * 0.25, y);
  ctx.lineTo(x + r * 0.45, y - r * 0.14);
  ctx.lineTo(x + r * 0.45, y + r * 0.14);
  ctx.fill();
}

export function sacks(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, count: number): void {
  const one = (cx: number, cy: number, s: number) => {
    ctx.fillStyle = '#d8c38c';
    ctx.strokeStyle = '#5a4420';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(cx - s, cy + s);
    ctx.quadraticCurveTo(cx - s * 1.2, cy - s * 0.3, cx - s * 0.3, cy - s * 0.6);
    ctx.lineTo(cx + s * 0.3, cy - s * 0.6);
    ctx.quadraticCurveTo(cx + s * 1.2, cy - s * 0.3, cx + s, cy + s);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  };
  if (count <= 1) {
    one(x, y, r * 0.35);
    return;
  }
  one(x - r * 0.3, y + r * 0.1, r * 0.3);
  one(x + r * 0.3, y + r * 0.1, r * 0.3);
  one(x, y - r * 0.2, r * 0.32);
  ctx.fillStyle = '#c0201a';
  ctx.beginPath();
  ctx.arc(x + r * 0.6, y - r * 0.55, r * 0.3, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#fff';
  ctx.font = 'bold 9px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(String(count), x + r * 0.6, y - r * 0.55 + 3);
}

export function station(
  ctx: CanvasRenderingContext2D,
  type: string,
  x: number,
  y: number,
  r: number,
  now: number,
): void {
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#201810';
  const box = (fill: string, w = 0.8, h = 0.65) => {
    ctx.fillStyle = fill;
    ctx.fillRect(x - r * w, y - r * h, r * w * 2, r * h * 2);
    ctx.strokeRect(x - r * w, y - r * h, r * w * 2, r * h * 2);
  };
  const flame = (fx: number, fy: number, s: number) => {
    const flick = 0.85 + 0.15 * Math.sin(now / 90 + fx);
    ctx.fillStyle = '#ff8a1f';
    ctx.beginPath();
    ctx.moveTo(fx - s * 0.5, fy);
    ctx.quadraticCurveTo(fx - s * 0.4, fy - s * flick, fx, fy - s * 1.3 * flick);
    ctx.quadraticCurveTo(fx + s * 0.4, fy - s * flick, fx + s * 0.5, fy);
    ctx.fill();
    ctx.fillStyle = '#ffe066';
    ctx.beginPath();
    ctx.moveTo(fx - s * 0.25, fy);
    ctx.quadraticCurveTo(fx, fy - s * 0.9 * flick, fx + s * 0.25, fy);
    ctx.fill();
  };
  switch (type) {
    case 'bank': // a chest with a gold band and a lock
      box('#7a4e24');
      ctx.fillStyle = '#e0b43a';
      ctx.fillRect(x - r * 0.8, y - r * 0.12, r * 1.6, r * 0.22);
      ctx.fillStyle = '#333';
      ctx.fillRect(x - r * 0.12, y - r * 0.2, r * 0.24, r * 0.38);
      return;
    case 'furnace': // a brick kiln with a glowing mouth
      box('#8c3b2a', 0.75, 0.8);
      ctx.fillStyle = '#ffb347';
      ctx.beginPath();
      ctx.arc(x, y + r * 0.2, r * 0.35, Math.PI, 0);
      ctx.fill();
      flame(x, y - r * 0.75, r * 0.35);
      return;
    case 'anvil': // the anvil's silhouette
      ctx.fillStyle = '#5c6066';
      ctx.beginPath();
      ctx.moveTo(x - r * 0.95, y - r * 0.35);
      ctx.lineTo(x + r * 0.7, y - r * 0.35);
      ctx.lineTo(x + r * 0.7, y - r * 0.05);
      ctx.lineTo(x + r * 0.25, y + r * 0.1);
      ctx.lineTo(x + r * 0.4, y + r * 0.6);
      ctx.lineTo(x - r * 0.4, y + r * 0.6);
      ctx.lineTo(x - r * 0.25, y + r * 0.1);
      ctx.lineTo(x - r * 0.55, y - r * 0.05);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      return;
    case 'range': // a stove with two hobs
      box('#6f6a64');
      ctx.fillStyle = '#222';
      for (const dx of [-0.38, 0.38]) {
        ctx.beginPath();
        ctx.arc(x + dx * r, y - r * 0.15, r * 0.22, 0, Math.PI * 2);
        ctx.fill();
      }
      ctx.fillStyle = '#ff7a1a';
      ctx.fillRect(x - r * 0.5, y + r * 0.3, r, r * 0.15);
      return;
    case 'altar': // a stone slab under a glow
      ctx.fillStyle = 'rgba(255,255,220,.35)';
      ctx.beginPath();
      ctx.arc(x, y - r * 0.2, r * 0.9, 0, Math.PI * 2);
      ctx.fill();
      box('#c9c6bd', 0.75, 0.35);
      ctx.strokeStyle = '#fff8c0';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x, y - r * 0.95);
      ctx.lineTo(x, y - r * 0.4);
      ctx.moveTo(x - r * 0.25, y - r * 0.75);
      ctx.lineTo(x + r * 0.25, y - r * 0.75);
      ctx.stroke();
      return;
    case 'fire': // logs under flames
      ctx.strokeStyle = '#5a3a1a';
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.moveTo(x - r * 0.6, y + r * 0.5);
      ctx.lineTo(x + r * 0.6, y + r * 0.2);
      ctx.moveTo(x - r * 0.6, y + r * 0.2);
      ctx.lineTo(x + r * 0.6, y + r * 0.5);
      ctx.stroke();
      flame(x, y + r * 0.35, r * 0.7);
      return;
    default:
      box('#a0804a');
  }
}
