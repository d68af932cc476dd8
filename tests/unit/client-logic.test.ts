import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../client/src/backoff.ts';
import { HELP_LINES, parseChat } from '../../client/src/commands.ts';
import { change, holdingsOf, type ItemWords, narrate } from '../../client/src/narrator.ts';
import {
  canStart,
  direction,
  nextHint,
  npcQuestMark,
  type QuestDefs,
  stepLine,
} from '../../client/src/quest-guide.ts';
import { overlaps, placeLabels } from '../../client/src/render/labels.ts';
import { Story } from '../../client/src/story.ts';

/** The web client's pure parts: item stories, label placement, quest guidance, chat commands, backoff. */

const words: ItemWords = {
  name: (id) =>
    ({ raw_minnow: 'Raw Minnow', charred_minnow: 'Charred Minnow', bronze_dagger: 'Bronze Dagger' })[id] ??
    id,
  burnt: (id) => id.startsWith('charred'),
  food: (id) => id === 'grilled_minnow',
  bones: (id) => id === 'bones',
};

const inv = (...stacks: [string, number][]) => {
  const inventory = Array.from({ length: 28 }, (_, i) => {
    const s = stacks[i];
    return s ? { itemId: s[0], quantity: s[1] } : null;
  });
  return { inventory, equipment: { weapon: null }, coins: 0 };
};

describe('the story of item changes', () => {
  it('a gathering stopped in the tick of its last log still tells the log as gathered', async () => {
    const lines: string[] = [];
    const story = new Story((l) => lines.push(l), words);
    const sync = (stacks: [string, number][]) =>
      story.sync({ ...inv(...stacks), coins: 0 } as unknown as Parameters<Story['sync']>[0]);
    sync([]);
    story.setOngoing({ kind: 'gather' });
    // The server's order within a tick: the events (gathering:stop, the tree fell), then player:sync.
    story.ended({ kind: 'gather' });
    sync([['birch_logs', 1]]);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines).toEqual(['You get some birch_logs.']);
    // Later changes are no longer the gathering's.
    await new Promise((r) => setTimeout(r, 1000));
    sync([['birch_logs', 2]]);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines[1]).toMatch(/^You receive /);
  });

  it('tells a purchase with its price and a sale with its takings', () => {
    const before = holdingsOf({ ...inv(), coins: 100 });
    const after = holdingsOf({ ...inv(['flint_hatchet', 1]), coins: 85 });
    expect(narrate(change(before, after), { kind: 'buy' }, words)).toEqual([
      'You buy flint_hatchet for 15 coins.',
    ]);
    const sold = holdingsOf({ ...inv(), coins: 91 });
    expect(narrate(change(after, sold), { kind: 'sell' }, words)).toEqual([
      'You sell flint_hatchet for 6 coins.',
    ]);
  });

  it('tells what a quest gives and takes, by whom', () => {
    const before = holdingsOf(inv(['raw_minnow', 5]));
    const after = holdingsOf({ ...inv(['bronze_dagger', 1]), coins: 150 });
    expect(narrate(change(before, after), { kind: 'quest', giver: 'Angler Mags' }, words)).toEqual([
      'You hand over 5 × Raw Minnow to Angler Mags.',
      'Angler Mags gives you Bronze Dagger, 150 coins.',
    ]);
  });

  it('tells burnt food apart from food made, and eating, and wearing', () => {
    const before = holdingsOf(inv(['raw_minnow', 2]));
    const burnt = holdingsOf(inv(['raw_minnow', 1], ['charred_minnow', 1]));
    expect(narrate(change(before, burnt), { kind: 'make' }, words)).toEqual([
      'You accidentally burn the food: Charred Minnow.',
    ]);
    const ate = narrate(
      change(holdingsOf(inv(['grilled_minnow', 1])), holdingsOf(inv())),
      { kind: 'use' },
      words,
    );
    expect(ate).toEqual(['You eat the grilled_minnow.']);
    const worn = { ...inv(), equipment: { weapon: { itemId: 'bronze_dagger', quantity: 1 } } };
    expect(
      narrate(change(holdingsOf(inv(['bronze_dagger', 1])), holdingsOf(worn)), { kind: 'use' }, words),
    ).toEqual(['You equip the Bronze Dagger.']);
  });

  it('tells logs lit into a fire, and materials used up for nothing', () => {
    const before = holdingsOf(inv(['birch_logs', 1]));
    const after = holdingsOf(inv());
    expect(narrate(change(before, after), { kind: 'make', fire: true }, words)).toEqual([
      'You light a fire with the birch_logs.',
    ]);
    expect(narrate(change(before, after), { kind: 'make' }, words)).toEqual([
      'You use up birch_logs but make nothing this time.',
    ]);
  });

  it('says nothing for a quiet cause or no change', () => {
    const a = holdingsOf(inv(['raw_minnow', 1]));
    expect(narrate(change(a, holdingsOf(inv())), { kind: 'quiet' }, words)).toEqual([]);
    expect(narrate(change(a, a), { kind: 'gather' }, words)).toEqual([]);
  });
});

describe('label placement', () => {
  it('places overlapping requests apart, and never on a reserved box', () => {
    const req = (id: string, sx: number, priority: number) => ({
      id,
      text: id,
      sx,
      sy: 100,
      r: 10,
      priority,
      width: 60,
      height: 14,
    });
    const reserved = [{ x: 60, y: 70, w: 80, h: 10 }];
    const placed = placeLabels(
      [req('a', 100, 0), req('b', 104, 1), req('c', 108, 2), req('d', 96, 3)],
      reserved,
    );
    expect(placed.length).toBeGreaterThanOrEqual(3);
    for (const p of placed) {
      for (const q of placed) if (p !== q) expect(overlaps(p, q)).toBe(false);
      for (const r of reserved) expect(overlaps(p, r)).toBe(false);
    }
    // The first in priority gets the first free spot.
    expect(placed[0]?.id).toBe('a');
  });
});

const defs: QuestDefs = {
  first: {
    name: 'First',
    startNpc: 'mags',
    quests: [],
    skills: {},
    stages: [
      { id: 'start', description: 'Talk to Mags' },
      { id: 'catch', description: 'Catch 5 minnows' },
    ],
  },
  second: {
    name: 'Second',
    startNpc: 'smith',
    quests: ['first'],
    skills: { mining: 5 },
    stages: [{ id: 'start', description: 'Talk', npcId: 'smith' }],
  },
};
const view = (
  questId: string,
  status: 'not_started' | 'in_progress' | 'completed',
  stageId = 'start',
  progress = 0,
  count = 0,
) => ({
  questId,
  name: questId,
  status,
  stageId,
  progress,
  count,
});

describe('quest guidance', () => {
  it('opens a quest once its quests and levels are met, and marks its NPC', () => {
    const list = [view('first', 'not_started'), view('second', 'not_started')];
    expect(canStart(defs, 'first', list, {})).toBe(true);
    expect(canStart(defs, 'second', list, {})).toBe(false);
    const done = [view('first', 'completed'), view('second', 'not_started')];
    expect(canStart(defs, 'second', done, { mining: { level: 4 } })).toBe(false);
    expect(canStart(defs, 'second', done, { mining: { level: 5 } })).toBe(true);
    expect(npcQuestMark(defs, 'mags', list, {})).toBe('available');
    expect(npcQuestMark(defs, 'smith', list, {})).toBeNull();
  });

  it('words the current step with its progress, and hints at the nearest quest to start', () => {
    expect(stepLine(defs, view('first', 'in_progress', 'catch', 2, 5))).toBe('Catch 5 minnows (2/5)');
    const hint = nextHint(
      defs,
      [view('first', 'not_started')],
      {},
      { x: 0, z: 0 },
      () => ({ x: 0, z: 10 }),
      () => 'Mags',
    );
    expect(hint?.text).toBe('What to do: talk to Mags (marked !, north) to start First.');
    expect(hint?.target).toEqual({ x: 0, z: 10, npcId: 'mags' });
    expect(direction(0, 0, 10, -10)).toBe('south-east');
  });
});

describe('chat commands', () => {
  it('tells private lines, client commands and server commands apart', () => {
    expect(parseChat('@Bob hi there')).toEqual({ kind: 'private', to: 'Bob', message: 'hi there' });
    expect(parseChat('/help')).toEqual({ kind: 'help' });
    expect(parseChat('/HOME')).toEqual({ kind: 'home' });
    expect(parseChat('/admin code')).toEqual({ kind: 'server', message: '/admin code' });
    expect(parseChat('  ')).toBeNull();
    expect(HELP_LINES.join('\n')).toContain('/logout');
  });
});

describe('reconnection backoff', () => {
  it('doubles from half a second up to ten seconds, within a tenth either way', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 9].map((a) => backoffMs(a, mid))).toEqual([
      500, 1000, 2000, 4000, 8000, 10000, 10000,
    ]);
    expect(backoffMs(1, () => 0)).toBe(450);
    expect(backoffMs(1, () => 1)).toBe(550);
  });
});
