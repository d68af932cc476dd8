import { describe } from 'vitest';
import { LocalMessaging } from '../../net/messaging/local.ts';
import { messagingContract } from './messaging.contract.ts';

describe('messaging contract: LocalMessaging (one process)', () => {
  messagingContract(() => new LocalMessaging());
});
