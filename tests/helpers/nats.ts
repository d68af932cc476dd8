import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** The NATS server of tests: NATS_TEST_URL, default the local one. */
export const TEST_NATS_URL = process.env['NATS_TEST_URL'] ?? 'nats://127.0.0.1:4222';

/** Whether something listens at the NATS address (CI without NATS fails instead of skipping). */
export function natsAvailable(url = TEST_NATS_URL): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || 4222), u.hostname, () => {
      s.end();
      resolve(true);
    });
    s.setTimeout(2000, () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', () => resolve(false));
  });
}

/** A subject prefix of its own: parallel tests on one NATS server never hear each other. */
export const natsPrefix = () => `test_${randomBytes(6).toString('hex')}`;
