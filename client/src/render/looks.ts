import { npcKind } from '../content.ts';
import type { ViewEntity } from '../game.ts';
import { fishing, rock, sacks, station, tree } from './looks-objects.ts';

/**
 * A distinct drawn look for each kind of thing, as shapes (never a letter to decode): people by role,
 * monsters coloured by their level against yours, trees, rocks by ore, fishing spots, each station,
 * items on the ground and piles of them. All drawn here with the canvas; no image files.
 */

export type Look =
  | 'me'
  | 'player'
  | 'mob'
  | 'banker'
  | 'shopkeeper'
  | 'quest'
  | 'townsfolk'
  | 'tree'
  | 'rock'
  | 'fishing'
  | 'item'
  | 'pile'
  | `station:${string}`;

export function lookOf(e: ViewEntity, myId: string | undefined, pileSize = 1): Look {
  switch (e.type) {
    case 'player':
      return e.id === myId ? 'me' : 'player';
    case 'npc': {
      const kind = npcKind(e);
      return kind === 'mob' || kind === 'banker' || kind === 'shopkeeper' || kind === 'quest'
        ? kind
        : 'townsfolk';
    }
    case 'resource': {
      const k = `${e.kind ?? ''} ${e.resourceId ?? ''}`;
      return k.includes('fish') || k.includes('spot') ? 'fishing' : k.includes('tree') ? 'tree' : 'rock';
    }
    case 'station':
      return `station:${e.stationType ?? 'other'}`;
    default:
      return pileSize > 1 ? 'pile' : 'item';
  }
}

/** A monster's colour by its level against mine: green weaker ... yellow even ... red stronger. */
export function levelColour(npcLevel: number, myLevel: number): string {
  const d = npcLevel - myLevel;
  if (d <= -10) return '#3fbf3f';
  if (d < 0) return '#a6d13a';
  if (d === 0) return '#f0d23c';
  if (d < 10) return '#f08a2c';
  return '#e8372c';
}

const ROLE_COLOURS: Record<string, string> = {
  me: '#ffd84a',
  player: '#4aa3ff',
  banker: '#e0b43a',
  shopkeeper: '#3fae6a',
  quest: '#a978e8',
  townsfolk: '#b58b62',
};

function person(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, colour: string): void {
  ctx.fillStyle = 'rgba(0,0,0,.25)';
  ctx.beginPath();
  ctx.ellipse(x, y + r * 0.8, r * 0.7, r * 0.25, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = colour;
  ctx.strokeStyle = 'rgba(0,0,0,.6)';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x - r * 0.6, y + r * 0.8);
  ctx.lineTo(x - r * 0.4, y - r * 0.05);
  ctx.lineTo(x + r * 0.4, y - r * 0.05);
  ctx.lineTo(x + r * 0.6, y + r * 0.8);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x, y - r * 0.38, r * 0.34, 0, Math.PI * 2);
  ctx.fillStyle = '#f1c9a0';
  ctx.fill();
  ctx.stroke();
}

function beast(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, colour: string): void {
  ctx.fillStyle = 'rgba(0,0,0,.25)';
  ctx.beginPath();
  ctx.ellipse(x, y + r * 0.7, r * 0.85, r * 0.25, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = colour;
  ctx.strokeStyle = '#2a1a10';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.ellipse(x - r * 0.1, y + r * 0.1, r * 0.75, r * 0.5, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x + r * 0.55, y - r * 0.2, r * 0.32, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  // Horns / ears: two spikes.
  ctx.beginPath();
  ctx.moveTo(x + r * 0.4, y - r * 0.45);
  ctx.lineTo(x + r * 0.35, y - r * 0.85);
  ctx.lineTo(x + r * 0.58, y - r * 0.5);
  ctx.moveTo(x + r * 0.66, y - r * 0.48);
  ctx.lineTo(x + r * 0.8, y - r * 0.85);
  ctx.lineTo(x + r * 0.85, y - r * 0.35);
  ctx.fillStyle = '#2a1a10';
  ctx.fill();
  ctx.fillStyle = '#000';
  ctx.fillRect(x + r * 0.6, y - r * 0.28, 2, 2);
}

/** Small badges that tell the role: a coin for bankers, a bag for shopkeepers. */
function badge(ctx: CanvasRenderingContext2D, look: Look, x: number, y: number, r: number): void {
  const bx = x + r * 0.75;
  const by = y + r * 0.25;
  if (look === 'banker') {
    ctx.fillStyle = '#f7d24a';
    ctx.strokeStyle = '#6b4d00';
    ctx.beginPath();
    ctx.arc(bx, by, r * 0.32, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(bx, by, r * 0.16, 0, Math.PI * 2);
    ctx.stroke();
  } else if (look === 'shopkeeper') {
    ctx.fillStyle = '#c89b5a';
    ctx.strokeStyle = '#4a3010';
    ctx.beginPath();
    ctx.moveTo(bx - r * 0.3, by + r * 0.3);
    ctx.quadraticCurveTo(bx - r * 0.4, by - r * 0.15, bx - r * 0.08, by - r * 0.2);
    ctx.lineTo(bx + r * 0.08, by - r * 0.2);
    ctx.quadraticCurveTo(bx + r * 0.4, by - r * 0.15, bx + r * 0.3, by + r * 0.3);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
}

/** The quest marker over a quest giver: a gold `!` in a diamond (a quest to start) or a silver `?` (a step). */
export function questMarker(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  mark: 'available' | 'step',
): void {
  const s = 8;
  ctx.fillStyle = mark === 'available' ? '#ffd21f' : '#d8dde6';
  ctx.strokeStyle = '#3a2a00';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x, y - s);
  ctx.lineTo(x + s, y);
  ctx.lineTo(x, y + s);
  ctx.lineTo(x - s, y);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = '#3a2a00';
  ctx.font = 'bold 11px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(mark === 'available' ? '!' : '?', x, y + 4);
}

export function drawLook(
  ctx: CanvasRenderingContext2D,
  look: Look,
  e: ViewEntity,
  x: number,
  y: number,
  tile: number,
  extra: { myLevel: number; now: number; pile: number },
): void {
  const r = tile * 0.5;
  switch (look) {
    case 'me':
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(x, y + r * 0.1, r * 1.05, 0, Math.PI * 2);
      ctx.stroke();
      person(ctx, x, y, r, ROLE_COLOURS.me as string);
      return;
    case 'player':
    case 'banker':
    case 'shopkeeper':
    case 'quest':
    case 'townsfolk':
      person(ctx, x, y, r, ROLE_COLOURS[look] as string);
      badge(ctx, look, x, y, r);
      return;
    case 'mob':
      beast(ctx, x, y, r, levelColour(e.level ?? 1, extra.myLevel));
      return;
    case 'tree':
      tree(ctx, x, y, r, e);
      return;
    case 'rock':
      rock(ctx, x, y, r, e);
      return;
    case 'fishing':
      fishing(ctx, x, y, r, extra.now);
      return;
    case 'item':
    case 'pile':
      sacks(ctx, x, y, r, extra.pile);
      return;
    default:
      station(ctx, look.slice('station:'.length), x, y, r, extra.now);
  }
}
