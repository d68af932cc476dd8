import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { installShutdown, type ShutdownStep } from '../../src/shutdown.ts';

const logger = createLogger({ logLevel: 'silent', env: 'test' });
const disposers: (() => void)[] = [];
afterEach(() => {
  for (const d of disposers.splice(0)) d();
});

function setup(
  steps: ShutdownStep[],
  timeoutMs = 1000,
  extra: { now?: () => number; emergency?: () => Promise<void> | void; emergencyTimeoutMs?: number } = {},
) {
  const exits: number[] = [];
  const s = installShutdown({
    logger,
    steps: () => steps,
    timeoutMs,
    exit: (code) => exits.push(code),
    signals: ['SIGUSR2'],
    duplicateWindowMs: 1500,
    ...extra,
  });
  disposers.push(s.dispose);
  return { exits, ...s };
}

const never = () => new Promise<void>(() => {});

describe('graceful shutdown', () => {
  it('runs the steps in order on the signal, then exits 0', async () => {
    const order: string[] = [];
    const { exits, shutdown } = setup([
      { name: 'http', run: () => void order.push('http') },
      { name: 'saves', run: async () => void order.push('saves') },
      { name: 'db', run: () => void order.push('db') },
    ]);
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(await shutdown('again')).toBe(0); // the same run, not a second one
    expect(order).toEqual(['http', 'saves', 'db']);
    expect(exits).toEqual([0]);
  });

  it('a failing step is logged, the rest still run, and the exit code is 1', async () => {
    const order: string[] = [];
    const { exits, shutdown } = setup([
      {
        name: 'bad',
        run: () => {
          throw new Error('x');
        },
      },
      { name: 'db', run: () => void order.push('db') },
    ]);
    expect(await shutdown('test')).toBe(1);
    expect(order).toEqual(['db']);
    expect(exits).toEqual([1]);
  });

  it('a hung step is cut off by the time limit with exit 1', async () => {
    const { exits, shutdown } = setup([{ name: 'hangs', run: never }], 50);
    expect(await shutdown('test')).toBe(1);
    expect(exits).toEqual([1]);
  });

  it('signals within the window after the first are relays of it: the shutdown completes, exit 0', async () => {
    let t = 0;
    let release = () => {};
    const saved: string[] = [];
    const { exits, shutdown } = setup(
      [
        { name: 'slow', run: () => new Promise<void>((r) => (release = r)) },
        { name: 'save', run: () => void saved.push('saved') },
      ],
      60_000,
      { now: () => t },
    );
    // The terminal's SIGINT, npm's relay of it 3 ms later, another relay at 1.4 s.
    process.emit('SIGUSR2', 'SIGUSR2');
    t = 3;
    process.emit('SIGUSR2', 'SIGUSR2');
    t = 1400;
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exits).toEqual([]);
    release();
    expect(await shutdown('again')).toBe(0);
    expect(saved).toEqual(['saved']);
    expect(exits).toEqual([0]);
  });

  it('a deliberate second signal after the window saves what is in memory first, then exits 1', async () => {
    let t = 0;
    const order: string[] = [];
    let saved = () => {};
    const emergencyDone = new Promise<void>((r) => (saved = r));
    const { exits } = setup([{ name: 'hangs', run: never }], 60_000, {
      now: () => t,
      emergency: async () => {
        order.push('emergency save');
        saved();
      },
    });
    process.emit('SIGUSR2', 'SIGUSR2');
    t = 5000;
    process.emit('SIGUSR2', 'SIGUSR2');
    process.emit('SIGUSR2', 'SIGUSR2'); // a third while forcing changes nothing
    await emergencyDone;
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['emergency save']);
    expect(exits).toEqual([1]);
  });

  it('a hung emergency save is cut off by its deadline, then exit 1', async () => {
    let t = 0;
    const { exits } = setup([{ name: 'hangs', run: never }], 60_000, {
      now: () => t,
      emergency: never,
      emergencyTimeoutMs: 30,
    });
    process.emit('SIGUSR2', 'SIGUSR2');
    t = 2000;
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exits).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(exits).toEqual([1]);
  });

  it('a graceful shutdown that finishes while an emergency save runs exits once, with 1', async () => {
    let t = 0;
    let release = () => {};
    let releaseEmergency = () => {};
    const { exits, shutdown } = setup(
      [{ name: 'slow', run: () => new Promise<void>((r) => (release = r)) }],
      60_000,
      { now: () => t, emergency: () => new Promise<void>((r) => (releaseEmergency = r)) },
    );
    process.emit('SIGUSR2', 'SIGUSR2');
    t = 2000;
    process.emit('SIGUSR2', 'SIGUSR2');
    release();
    expect(await shutdown('x')).toBe(1);
    expect(exits).toEqual([]);
    releaseEmergency();
    await new Promise((r) => setTimeout(r, 10));
    expect(exits).toEqual([1]);
  });
});
