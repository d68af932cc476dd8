import { describe, it } from 'vitest';
import { NatsMessaging } from '../../net/messaging/nats.ts';
import { natsAvailable, natsPrefix, TEST_NATS_URL } from '../helpers/nats.ts';
import { messagingContract } from './messaging.contract.ts';

const available = await natsAvailable();
const inCi = process.env['CI'] === 'true';

if (available) {
  describe('messaging contract: NatsMessaging (several worlds)', () => {
    // A fresh subject prefix per instance: the same isolation the local port has per instance.
    messagingContract(() => NatsMessaging.connect({ url: TEST_NATS_URL, prefix: natsPrefix() }));
  });
} else if (inCi) {
  describe('messaging contract: NatsMessaging', () => {
    it('needs NATS in CI', () => {
      throw new Error(`NATS is required in CI and does not answer at ${TEST_NATS_URL}`);
    });
  });
} else {
  // Outside CI without NATS only (CI fails above): a user's machine need not run a NATS server.
  console.warn(`SKIPPING NATS messaging contract: nothing answers at ${TEST_NATS_URL}`);
  describe.skip(`messaging contract: NatsMessaging (not answering at ${TEST_NATS_URL})`, () => {
    it('skipped', () => {});
  });
}
