import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN } from '../../ecs/schedule.ts';
import { clientEventDocs } from '../../net/protocol/client-events.ts';
import { renderProtocolDoc } from '../../net/protocol/docs.ts';
import { clientEvents, serverEvents } from '../../net/protocol/index.ts';
import { BUILT_ACTIONS } from '../../net/protocol/session.ts';

describe('docs/protocol.md', () => {
  const committed = readFileSync(path.resolve(import.meta.dirname, '../../docs/protocol.md'), 'utf8');

  it('is what the schemas generate (run `npm run docs` after changing a wire face or net/protocol)', () => {
    expect(committed).toBe(renderProtocolDoc());
  });

  it('documents every client and server event', () => {
    for (const name of [...Object.keys(clientEvents), ...Object.keys(serverEvents)]) {
      expect(committed).toContain(`### \`${name}\``);
    }
  });

  it('player:action accepts and describes exactly the verbs the schedule answers', () => {
    expect([...BUILT_ACTIONS].sort()).toEqual([...PLAN.actions.keys()].sort());
    const doc = clientEventDocs['player:action'];
    for (const verb of BUILT_ACTIONS) expect(doc).toContain(`\`${verb}\``);
    expect(clientEvents['player:action'].safeParse({ action: 'dance', targetId: 'x' }).success).toBe(false);
  });
});
