import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILLS } from '../../ecs/core/skills.ts';
import { jsonOf, problemOf } from '../helpers/http.ts';
import {
  api,
  type IdentityTestServer,
  kitProblems,
  startIdentityServer,
} from '../helpers/identity-server.ts';

/** The account and character routes over the real server, PGlite and the default content. */

let s: IdentityTestServer;
const anonymous = async (): Promise<{ token: string; accountId: string; expiresAt: string }> =>
  jsonOf(await api(s.url, 'POST', '/api/auth/anonymous'));

beforeAll(async () => {
  s = await startIdentityServer({ DISABLE_RATE_LIMIT: 'true' });
});
afterAll(async () => {
  await s?.stop();
});

describe('anonymous accounts over HTTP', () => {
  it('POST /api/auth/anonymous creates a temporary account with a usable token', async () => {
    const res = await api(s.url, 'POST', '/api/auth/anonymous');
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(Object.keys(body).sort()).toEqual(['accountId', 'expiresAt', 'token']);
    const user = await s.persistence.port.getUser(body.accountId);
    expect(user).toMatchObject({ anonymous: true, banned: false });
    expect(user?.name).toMatch(/^Guest \d{6}$/);
    const other = await anonymous();
    expect(other.accountId).not.toBe(body.accountId);
    expect((await api(s.url, 'GET', '/api/character/list', { token: body.token })).status).toBe(200);
  });

  it('login needs an identity provider, which anonymous mode has not', async () => {
    const res = await api(s.url, 'POST', '/api/auth/login', { body: { idpToken: 'whatever' } });
    expect(res.status).toBe(401);
  });
});

describe('/api/v1/player', () => {
  it('404 before the first character, then create, read and rename', async () => {
    const { token, accountId } = await anonymous();
    const none = await api(s.url, 'GET', '/api/v1/player', { token });
    expect(none.status).toBe(404);
    const created = await api(s.url, 'POST', '/api/v1/player', { token, body: { name: 'Ravenna' } });
    expect(created.status).toBe(201);
    const body = await jsonOf(created);
    expect(body.account).toMatchObject({ id: accountId, anonymous: true });
    expect(body.character).toMatchObject({ name: 'Ravenna', combatLevel: 3, online: false, position: null });
    expect(await jsonOf(await api(s.url, 'GET', '/api/v1/player', { token }))).toEqual(body);
    const renamed = await api(s.url, 'POST', '/api/v1/player', { token, body: { name: 'Ravenna II' } });
    expect(renamed.status).toBe(200);
    const after = await jsonOf(renamed);
    expect(after.character).toMatchObject({ id: body.character.id, name: 'Ravenna II' });
  });

  it.each([
    [{ name: '' }, /empty/],
    [{ name: 'Much Too Long Name' }, /at most 12/],
    [{ name: ' Spacey' }, /space/],
    [{ name: 'no!pe' }, /letters/],
    [{ name: 'Admin' }, /reserved/],
    [{ name: 'S3rv3r' }, /reserved/],
    [{}, /name/],
    [{ name: 7 }, /name/],
  ])('refuses %j with a clear 400', async (body, why) => {
    const { token } = await anonymous();
    const res = await api(s.url, 'POST', '/api/v1/player', { token, body });
    expect(res.status).toBe(400);
    const problem = await problemOf(res);
    expect(problem).toMatchObject({ code: 'BAD_REQUEST' });
    expect(problem['detail']).toMatch(why);
  });

  it('one name per world, case-insensitive', async () => {
    const a = await anonymous();
    const b = await anonymous();
    expect(
      (await api(s.url, 'POST', '/api/v1/player', { token: a.token, body: { name: 'Unique One' } })).status,
    ).toBe(201);
    const res = await api(s.url, 'POST', '/api/v1/player', { token: b.token, body: { name: 'UNIQUE one' } });
    expect(res.status).toBe(400);
    expect((await problemOf(res))['detail']).toMatch(/taken/);
  });

  it('a character in the world is not renamed (409), and shows its live position', async () => {
    const { token } = await anonymous();
    const body = await jsonOf(
      await api(s.url, 'POST', '/api/v1/player', { token, body: { name: 'Walker' } }),
    );
    const state = await s.persistence.port.loadCharacter(body.character.id);
    s.world.inWorld.set(body.character.id, { ...state!, position: { x: 11, y: 0, z: 22 } });
    try {
      const now = await jsonOf(await api(s.url, 'GET', '/api/v1/player', { token }));
      expect(now.character).toMatchObject({ online: true, position: { x: 11, y: 0, z: 22 } });
      const res = await api(s.url, 'POST', '/api/v1/player', { token, body: { name: 'Runner' } });
      expect(res.status).toBe(409);
    } finally {
      s.world.inWorld.delete(body.character.id);
    }
  });
});

describe('/api/character/*', () => {
  it('creates from a template, lists, selects and deletes', async () => {
    const { token } = await anonymous();
    const sell =
      s.content.templates.find((t) => t.id !== s.content.templates[0]?.id) ?? s.content.templates[0]!;
    const first = await api(s.url, 'POST', '/api/character/create', { token, body: { name: 'Firstborn' } });
    expect(first.status).toBe(201);
    const second = await api(s.url, 'POST', '/api/character/create', {
      token,
      body: { name: 'Secondborn', templateId: sell.id },
    });
    expect(second.status).toBe(201);
    const a = (await jsonOf(first)).character;
    const b = (await jsonOf(second)).character;
    // The template's kit is what the new character holds.
    const inv = await jsonOf(await api(s.url, 'GET', `/api/player/${b.id}/inventory`, { token }));
    expect(inv.inventory).toHaveLength(28);
    expect(inv.coins).toBe(sell.coins);
    expect(inv.inventory.some(Boolean)).toBe(sell.inventory.length > 0);
    expect(kitProblems(inv.inventory, sell, s.content)).toEqual([]);
    const eq = await jsonOf(await api(s.url, 'GET', `/api/player/${b.id}/equipment`, { token }));
    for (const [slot, itemId] of Object.entries(sell.equipment)) {
      expect(eq.equipment[slot]).toEqual({ itemId, quantity: 1 });
    }
    expect(await jsonOf(await api(s.url, 'GET', `/api/player/${b.id}/bank`, { token }))).toMatchObject({
      bank: [],
      online: false,
    });

    const list = await jsonOf(await api(s.url, 'GET', '/api/character/list', { token }));
    expect(list.characters.map((c: { name: string }) => c.name).sort()).toEqual(['Firstborn', 'Secondborn']);

    // select makes it the current player
    const sel = await api(s.url, 'POST', `/api/character/${a.id}/select`, { token });
    expect(sel.status).toBe(200);
    expect((await jsonOf(sel)).character.lastLoginAt).not.toBeNull();
    expect((await jsonOf(await api(s.url, 'GET', '/api/v1/player', { token }))).character.id).toBe(a.id);
    await api(s.url, 'POST', `/api/character/${b.id}/select`, { token });
    expect((await jsonOf(await api(s.url, 'GET', '/api/v1/player', { token }))).character.id).toBe(b.id);

    // delete: refused while in the world, then done
    s.world.inWorld.set(b.id, (await s.persistence.port.loadCharacter(b.id))!);
    const busy = await api(s.url, 'DELETE', `/api/character/${b.id}`, { token });
    s.world.inWorld.delete(b.id);
    expect(busy.status).toBe(409);
    const del = await api(s.url, 'DELETE', `/api/character/${b.id}`, { token });
    expect(del.status).toBe(200);
    expect((await api(s.url, 'GET', `/api/characters/${b.id}/skills`, { token })).status).toBe(404);
  });

  it('refuses an unknown template and a bad name with 400', async () => {
    const { token } = await anonymous();
    const t = await api(s.url, 'POST', '/api/character/create', {
      token,
      body: { name: 'Okay', templateId: 'nope' },
    });
    expect(t.status).toBe(400);
    expect((await problemOf(t))['detail']).toMatch(/templateId/);
    const n = await api(s.url, 'POST', '/api/character/create', { token, body: { name: 'x'.repeat(13) } });
    expect(n.status).toBe(400);
  });
});

describe('/api/characters/:characterId', () => {
  it('skills: all 17, constitution 10 and the rest 1, with xp', async () => {
    const { token } = await anonymous();
    const c = (
      await jsonOf(await api(s.url, 'POST', '/api/character/create', { token, body: { name: 'Skilly' } }))
    ).character;
    const body = await jsonOf(await api(s.url, 'GET', `/api/characters/${c.id}/skills`, { token }));
    expect(Object.keys(body)).toEqual(['skills']);
    expect(Object.keys(body.skills).sort()).toEqual([...SKILLS].sort());
    for (const skill of SKILLS) {
      expect(body.skills[skill].level).toBe(skill === 'constitution' ? 10 : 1);
      expect(typeof body.skills[skill].xp).toBe('number');
    }
  });

  it('position: stored when offline, live when in the world', async () => {
    const { token } = await anonymous();
    const c = (
      await jsonOf(await api(s.url, 'POST', '/api/character/create', { token, body: { name: 'Posy' } }))
    ).character;
    const stored = await jsonOf(await api(s.url, 'GET', `/api/characters/${c.id}/position`, { token }));
    expect(stored).toEqual({ position: { x: s.content.spawn.x, y: 0, z: s.content.spawn.z }, online: false });
    const state = (await s.persistence.port.loadCharacter(c.id))!;
    s.world.inWorld.set(c.id, { ...state, position: { x: 5, y: 1, z: 6 } });
    try {
      const live = await jsonOf(await api(s.url, 'GET', `/api/characters/${c.id}/position`, { token }));
      expect(live).toEqual({ position: { x: 5, y: 1, z: 6 }, online: true });
    } finally {
      s.world.inWorld.delete(c.id);
    }
  });
});

describe('/api/template/* and /api/v1/world', () => {
  it('lists the content templates and serves one by id', async () => {
    const { token } = await anonymous();
    const list = await jsonOf(await api(s.url, 'GET', '/api/template/list', { token }));
    expect(list.templates.map((t: { id: string }) => t.id)).toEqual(s.content.templates.map((t) => t.id));
    const first = s.content.templates[0]!;
    const one = await jsonOf(await api(s.url, 'GET', `/api/template/${first.id}`, { token }));
    expect(one.template).toMatchObject({ id: first.id, name: first.name, coins: first.coins });
  });

  it('world snapshot and areas come from the live world and the content', async () => {
    const { token } = await anonymous();
    s.world.tick = 1234;
    const world = await jsonOf(await api(s.url, 'GET', '/api/v1/world', { token }));
    expect(world).toEqual({
      tick: 1234,
      playersOnline: s.world.inWorld.size,
      areas: s.content.areas.size,
      entities: s.world.summary().entities,
    });
    const areas = await jsonOf(await api(s.url, 'GET', '/api/v1/world/areas', { token }));
    expect(areas.areas).toHaveLength(s.content.areas.size);
    const [id, def] = [...s.content.areas.entries()][0]!;
    expect(areas.areas.find((a: { id: string }) => a.id === id)).toMatchObject({
      id,
      name: def.name,
      bounds: { ...def.bounds },
      safeZone: def.safeZone,
      difficulty: def.difficultyLevel,
    });
  });
});

describe('/api/agents/*', () => {
  it("answers the account's own agent mapping", async () => {
    const { token, accountId } = await anonymous();
    const c = (
      await jsonOf(await api(s.url, 'POST', '/api/character/create', { token, body: { name: 'Botty' } }))
    ).character;
    const created = await jsonOf(
      await api(s.url, 'POST', '/api/agents', { token, body: { characterId: c.id } }),
    );
    const res = await api(s.url, 'GET', `/api/agents/mapping/${created.agentId}`, { token });
    expect(await jsonOf(res)).toEqual({
      agentId: created.agentId,
      characterId: c.id,
      accountId,
      name: 'Botty',
      createdAt: expect.any(String),
    });
  });
});
