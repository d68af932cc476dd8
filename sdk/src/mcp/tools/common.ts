import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { type Tile, type WalkOutcome, walkTo } from '../../activities/walk.ts';
import type { Ended, Progress } from '../../activity.ts';
import type { WireEntity } from '../../world-view.ts';
import type { Place } from '../content.ts';
import { verbsOf, where } from '../describe.ts';
import type { GameSession } from '../session.ts';

/** What every tool handler gets: the session and the request's extras (progress token, abort signal). */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tool's answer: its text, then what else happened since the last answer. */
export function answer(s: GameSession, text: string, isError = false): CallToolResult {
  const news = s.news();
  const body = news.length > 0 ? `${text}\n\nMeanwhile:\n${news.map((n) => `- ${n}`).join('\n')}` : text;
  return { content: [{ type: 'text', text: body }], ...(isError ? { isError: true } : {}) };
}

/** Why an activity ended without its own outcome, in words. */
export function endedText(e: Ended): string {
  switch (e.status) {
    case 'refused':
      return `refused: ${e.error.code}: ${e.error.message}`;
    case 'timeout':
      return 'timed out (the action was stopped; call again with a longer timeout_s to go on)';
    case 'aborted':
      return 'cancelled by the client';
    case 'disconnected':
      return 'the game connection dropped (it reconnects by itself; try again)';
  }
}

export const DEFAULT_TIMEOUT_S = 50;
export const MAX_TIMEOUT_S = 600;

export function timeoutMs(timeoutS: number | undefined): number {
  return Math.min(Math.max(timeoutS ?? DEFAULT_TIMEOUT_S, 1), MAX_TIMEOUT_S) * 1000;
}

/**
 * MCP progress notifications for a request that asked for them (a `progressToken`), kept strictly
 * increasing across the phases of one tool call (walking, then gathering...).
 */
export class Reporter {
  private last = 0;
  private base = 0;

  constructor(private readonly extra: Extra) {}

  /** Later reports count on from what was reported so far. */
  nextPhase(): void {
    this.base = this.last;
  }

  readonly report = (p: Progress): void => {
    const token = this.extra._meta?.progressToken;
    const progress = this.base + p.progress;
    if (token === undefined || progress <= this.last) return;
    this.last = progress;
    void this.extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          ...(p.total !== undefined ? { total: this.base + p.total } : {}),
          message: p.message,
        },
      })
      .catch(() => {});
  };
}

export type Target =
  | { kind: 'entity'; entity: WireEntity }
  | { kind: 'place'; place: Place }
  | { kind: 'none'; why: string };

const lower = (v: string | undefined) => (v ?? '').toLowerCase();

/**
 * An entity in view or a known place, from what a tool was given: an entity id, a manifest id
 * (`angler_mags`, `spot_shallows`, `bank`), or a name (`Angler Mags`), nearest first. With `verb`, only
 * entities that answer it.
 */
export function resolveTarget(s: GameSession, target: string, verb?: string): Target {
  const world = s.game.world;
  const byId = world.entities.get(target);
  if (byId !== undefined) return { kind: 'entity', entity: byId };
  const q = lower(target.trim());
  const keys = (e: WireEntity) => [e.npcId, e.resourceId, e.stationType, e.itemId, e.name].map(lower);
  const fits = (e: WireEntity) => verb === undefined || verbsOf(s, e).includes(verb);
  const exact = [...world.entities.values()].filter((e) => keys(e).includes(q) && fits(e));
  const loose =
    exact.length > 0
      ? exact
      : [...world.entities.values()].filter(
          (e) => q.length >= 3 && keys(e).some((k) => k.includes(q)) && fits(e),
        );
  const nearest = loose.sort((a, b) => world.distanceTo(a.x, a.z) - world.distanceTo(b.x, b.z))[0];
  if (nearest !== undefined) return { kind: 'entity', entity: nearest };
  const place = s.content.placesNamed(target, world.position)[0];
  if (place !== undefined) return { kind: 'place', place };
  return {
    kind: 'none',
    why: `nothing called "${target}" is in view or on the map (look lists what is in view; the map resource lists places)`,
  };
}

const MAX_LEG = 190;

/**
 * Walks to within `reach` of a tile, on a walkable tile (the map chunks tell which), in legs of at most
 * 190 tiles (the server refuses longer moves).
 */
export async function approach(
  s: GameSession,
  dest: Tile,
  opts: { reach?: number; run?: boolean; timeoutMs: number; signal?: AbortSignal; report?: Reporter },
): Promise<WalkOutcome> {
  const until = Date.now() + opts.timeoutMs;
  for (let leg = 0; leg < 20; leg++) {
    const here = s.game.world.position;
    if (here === undefined) return { status: 'disconnected', at: undefined, tiles: 0 };
    const d = Math.max(Math.abs(dest.x - here.x), Math.abs(dest.z - here.z));
    if (d <= (opts.reach ?? 0)) return { status: 'arrived', at: here, tiles: 0 };
    const last = d <= MAX_LEG;
    const f = last ? 1 : MAX_LEG / d;
    const aim = {
      x: Math.round(here.x + (dest.x - here.x) * f),
      z: Math.round(here.z + (dest.z - here.z) * f),
    };
    const stand = (await s.tiles.standingTile(aim, here, last ? (opts.reach ?? 0) : 3)) ?? aim;
    const out = await walkTo(s.game, stand, {
      timeoutMs: Math.max(until - Date.now(), 1),
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
      ...(opts.run !== undefined ? { run: opts.run } : {}),
      ...(opts.report !== undefined ? { onProgress: opts.report.report } : {}),
    });
    if (out.status !== 'arrived' || last) return out;
    opts.report?.nextPhase();
  }
  return { status: 'timeout', at: s.game.world.position, tiles: 0 };
}

export function walkText(s: GameSession, out: WalkOutcome, seconds: number): string {
  const at = out.at ? where(s, out.at.x, out.at.z) : 'an unknown tile';
  switch (out.status) {
    case 'arrived':
      return `Arrived at ${at} after ${seconds.toFixed(1)} s.`;
    case 'stopped':
      return `Stopped at ${at} before getting there (another action, a teleport or death ended the walk).`;
    default:
      return `Walk ${endedText(out)}; now at ${at}.`;
  }
}

/**
 * The entity to act on: one in view now, or, for a known place, the nearest of that kind in view once
 * the character walked there.
 */
export async function reachTarget(
  s: GameSession,
  target: string,
  verb: string,
  opts: { timeoutMs: number; signal?: AbortSignal; report?: Reporter },
): Promise<{ entity: WireEntity; walked?: string } | { error: string }> {
  const t = resolveTarget(s, target, verb);
  if (t.kind === 'entity') return { entity: t.entity };
  if (t.kind === 'none') return { error: t.why };
  const started = Date.now();
  const out = await approach(s, t.place, { ...opts, reach: 3 });
  const walked = walkText(s, out, (Date.now() - started) / 1000);
  if (out.status !== 'arrived') return { error: walked };
  // Entities come into view with the next world updates.
  for (let i = 0; i < 20; i++) {
    const again = resolveTarget(s, t.place.id, verb);
    if (again.kind === 'entity') return { entity: again.entity, walked };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { error: `${walked} No ${t.place.name} that answers "${verb}" is in view here.` };
}
