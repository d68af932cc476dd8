import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import type { clientEvents } from '../../net/protocol/client-events.ts';
import type { serverEvents } from '../../net/protocol/server-events.ts';
import { typeOf } from '../../sdk/codegen/json-schema-to-ts.ts';
import { GENERATED_PATH, renderProtocol } from '../../sdk/codegen/protocol.ts';
import type { ClientEvents, ServerEvents } from '../../sdk/src/protocol.generated.ts';

/**
 * The SDK's protocol types are generated from the server's schemas: the committed file is what the
 * generator writes now (else: `npm run sdk:protocol`), and, checked by the compiler, every generated
 * payload type is the schema's own type both ways (client events: what the schema accepts; server
 * events: what it yields), so the emitter cannot drift from zod's inference.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ClientSchemas = typeof clientEvents;
type ServerSchemas = typeof serverEvents;
type ClientDrift = {
  [E in keyof ClientSchemas]: Same<ClientEvents[E], z.input<ClientSchemas[E]>> extends true ? never : E;
}[keyof ClientSchemas];
type ServerDrift = {
  [E in keyof ServerSchemas]: Same<ServerEvents[E], z.output<ServerSchemas[E]>> extends true ? never : E;
}[keyof ServerSchemas];
// A compile error here names the events whose generated type differs from the schema's.
const clientTypesMatch: [ClientDrift] extends [never] ? true : ClientDrift = true;
const serverTypesMatch: [ServerDrift] extends [never] ? true : ServerDrift = true;
const sameEvents: Same<keyof ClientEvents, keyof ClientSchemas> &
  Same<keyof ServerEvents, keyof ServerSchemas> = true;

describe('the SDK protocol types', () => {
  it('are up to date with the server schemas (npm run sdk:protocol writes them)', () => {
    const committed = readFileSync(path.join(REPO_ROOT, GENERATED_PATH), 'utf8');
    expect(committed === renderProtocol(), `${GENERATED_PATH} is stale: run npm run sdk:protocol`).toBe(true);
    expect([clientTypesMatch, serverTypesMatch, sameEvents]).toEqual([true, true, true]);
  });
});

describe('the JSON Schema emitter', () => {
  it('writes unions, nullable types, records, open objects and arrays of unions', () => {
    expect(typeOf({ type: ['string', 'null'] })).toBe('string | null');
    expect(typeOf({ enum: ['a', "it's"] })).toBe("'a' | 'it\\'s'");
    expect(typeOf({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } })).toBe(
      '(string | number)[]',
    );
    expect(typeOf({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} })).toBe(
      'Record<string, unknown>',
    );
    expect(
      typeOf({
        type: 'object',
        properties: { 'a:b': { const: true }, c: { type: 'number' } },
        required: ['a:b'],
        additionalProperties: {},
      }),
    ).toBe("{\n  'a:b': true;\n  c?: number;\n  [key: string]: unknown;\n}");
  });

  it('refuses what would change the shape and it does not know, naming where', () => {
    expect(() => typeOf({ type: 'object', properties: { x: { $ref: '#/$defs/x' } } })).toThrow(
      '#/properties/x: the keyword "$ref" is not supported',
    );
    expect(() => typeOf({ type: 'tuple' })).toThrow('unsupported type');
  });
});
