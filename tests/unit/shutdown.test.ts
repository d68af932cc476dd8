import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { installShutdown, type ShutdownStep } from '../../src/shutdown.ts';

const logger = createLogger({ logLevel: 'silent', env: 'test' });
const disposers: (() => void)[] = [];
afterEach(() => {
  for (const d of disposers.splice(0)) d();
});

function setup(steps: ShutdownStep[], timeoutMs = 1000) {
  const exits: number[] = [];
  const s = installShutdown({
    logger,
    steps: () => steps,
    timeoutMs,
    exit: (code) => exits.push(code),
    signals: ['SIGUSR2'],
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

  it('a second signal exits at once', () => {
    const { exits } = setup([{ name: 'hangs', run: never }], 60_000);
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exits).toEqual([]);
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exits).toEqual([1]);
  });
});
