import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderProtocolDoc } from '../../net/protocol/docs.ts';
import { clientEvents, serverEvents } from '../../net/protocol/index.ts';

describe('docs/protocol.md', () => {
  const committed = readFileSync(path.resolve(import.meta.dirname, '../../docs/protocol.md'), 'utf8');

  it('is what the schemas generate (run `npm run docs:protocol` after changing net/protocol)', () => {
    expect(committed).toBe(renderProtocolDoc());
  });

  it('documents every client and server event', () => {
    for (const name of [...Object.keys(clientEvents), ...Object.keys(serverEvents)]) {
      expect(committed).toContain(`### \`${name}\``);
    }
  });
});
