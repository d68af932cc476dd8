import { expect } from 'vitest';
import type { SqlClient } from '../../persistence/sql.ts';
import { AgentApi } from '../../sdk/src/agent-api.ts';
import { ask, GameClient, npcInView, type Payload, seenOrNext } from './client.ts';
import { KILLED, KILLS, QUEST, type Scene } from './scene.ts';

/**
 * After a restart: every record kind the scene changed is back, as the player and the agent API see it.
 * `mode` names the restart in failure messages; every kind is checked (soft assertions), so a failure
 * lists each kind that did not come back.
 */
export async function checkScene(
  base: string,
  wsUrl: string,
  scene: Scene,
  mode: string,
  opened: GameClient[],
): Promise<void> {
  const what = (kind: string) => `${mode}: ${kind} of ${scene.tag}Main after the restart`;
  const main = await GameClient.connect(wsUrl, scene.main);
  opened.push(main);
  const want = scene.expect.sync;
  const got = main.sync;
  expect.soft({ x: got.position.x, z: got.position.z }, what('position')).toEqual({
    x: want.position.x,
    z: want.position.z,
  });
  expect.soft(got.skills, what('skills and xp')).toEqual(want.skills);
  expect.soft(got.health, what('health')).toBe(want.health);
  expect.soft(got.maxHealth, what('maximum health')).toBe(want.maxHealth);
  expect.soft(got.coins, what('coins')).toBe(want.coins);
  expect.soft(got.inventory, what('inventory')).toEqual(want.inventory);
  expect.soft(got.equipment, what('equipment')).toEqual(want.equipment);

  const prayer = await seenOrNext(main, 'prayer:state');
  expect
    .soft({ points: prayer.points, maxPoints: prayer.maxPoints }, what('prayer points'))
    .toEqual(scene.expect.prayer);

  const list = await ask(main, 'quest:list', {}, (m) => m.event === 'quest:list');
  expect
    .soft(
      list.quests.find((q: Payload) => q.questId === QUEST),
      what('quest progress'),
    )
    .toEqual(scene.expect.quest);

  const cooldown = await ask(
    main,
    'player:homeTeleport',
    {},
    (m) => m.event === 'error' || m.event === 'teleport:start',
  );
  expect.soft(cooldown, what('home teleport cooldown')).toMatchObject({ code: 'COOLDOWN' });

  const social = await seenOrNext(main, 'social:list');
  expect
    .soft(
      social.friends.map((f: Payload) => f.id),
      what('friends'),
    )
    .toEqual([scene.friend.id]);
  expect.soft(social.ignored, what('ignore list')).toEqual([{ id: scene.pest.id, name: scene.pest.name }]);

  // The bank last: opening it is an action of the player.
  const banker = await npcInView(main, 'banker_ilse');
  const bank = await ask(
    main,
    'player:action',
    { action: 'bank', targetId: banker },
    (m) => m.event === 'bank:update',
  );
  expect.soft(bank.items, what('bank')).toEqual(scene.expect.bank);

  // The request still waiting: its addressee sees it on entering.
  const wanted = await GameClient.connect(wsUrl, scene.wanted.login);
  opened.push(wanted);
  const asked = await seenOrNext(wanted, 'social:list');
  expect
    .soft(
      asked.requests.map((r: Payload) => r.fromId),
      `${mode}: the pending friend request to ${scene.wanted.name}`,
    )
    .toEqual([scene.main.characterId]);

  // Agents: the mappings, the goal with its progress, the paused one, and the kept message on connect.
  const api = new AgentApi(base, scene.main.sessionToken);
  expect
    .soft((await api.mapping(scene.agent.agentId)).characterId, `${mode}: agent mapping`)
    .toBe(scene.agent.login.characterId);
  const goal = await api.goal(scene.agent.agentId);
  expect.soft({ goal: goal.goal, paused: goal.goalsPaused }, `${mode}: agent goal`).toMatchObject({
    goal: scene.expect.goal,
    paused: false,
  });
  const paused = await api.goal(scene.pausedAgentId);
  expect.soft({ goal: paused.goal, paused: paused.goalsPaused }, `${mode}: paused agent`).toEqual({
    goal: null,
    paused: true,
  });
  const runtime = await GameClient.connect(wsUrl, scene.agent.login);
  opened.push(runtime);
  const kept = await seenOrNext(runtime, 'agent:message');
  expect.soft(kept.content, `${mode}: the message kept for the offline agent`).toBe(scene.agent.message);
}

/** The feature tables, read directly once no server holds the database: what each scene left there. */
export async function checkTables(sql: SqlClient, scenes: readonly Scene[]): Promise<void> {
  for (const scene of scenes) {
    const id = scene.main.characterId;
    const kills = await sql.query<{ npcId: string; count: number }>(
      `SELECT "npcId", count FROM "npcKills" WHERE "characterId" = $1`,
      [id],
    );
    expect.soft(kills, `npcKills of ${scene.tag}Main`).toEqual([{ npcId: KILLED, count: KILLS }]);
    const [quests] = await sql.query<{ quests: unknown }>(
      `SELECT quests FROM "characterQuests" WHERE "characterId" = $1`,
      [id],
    );
    const progress = typeof quests?.quests === 'string' ? JSON.parse(quests.quests) : quests?.quests;
    expect.soft(progress, `characterQuests of ${scene.tag}Main`).toEqual({
      [QUEST]: { status: 'in_progress', stage: 1, progress: KILLS },
    });
    const prayer = await sql.query<{ points: number }>(
      `SELECT points FROM "prayerPoints" WHERE "characterId" = $1`,
      [id],
    );
    expect.soft(prayer, `prayerPoints of ${scene.tag}Main`).toEqual([{ points: scene.expect.prayer.points }]);
    const [teleport] = await sql.query<{ readyAt: Date }>(
      `SELECT "readyAt" FROM "homeTeleport" WHERE "characterId" = $1`,
      [id],
    );
    expect
      .soft(new Date(teleport?.readyAt ?? 0).getTime(), `homeTeleport of ${scene.tag}Main`)
      .toBeGreaterThan(Date.now());
  }
}
