import { QUESTS } from 'virtual:content';
import type { App } from '../app.ts';
import { npcName } from '../content.ts';
import { canStart, stepLine } from '../quest-guide.ts';
import { $, button, el } from './dom.ts';

/** The quests and friends tabs. */

/** Every quest with its state and, while in progress, the current step in the content's words. */
export function renderQuests(app: App): void {
  const q = app.state.quests;
  if (!q) {
    $('panel-quests').replaceChildren(el('div', {}, 'Loading…'));
    return;
  }
  const skills = app.state.me?.skills ?? {};
  const rows = q.quests.map((quest) => {
    const def = QUESTS[quest.questId];
    const status =
      quest.status === 'completed'
        ? 'done'
        : quest.status === 'in_progress'
          ? quest.count > 0
            ? `${quest.progress}/${quest.count}`
            : 'started'
          : canStart(QUESTS, quest.questId, q.quests, skills)
            ? 'not started'
            : 'locked';
    const detail =
      quest.status === 'in_progress'
        ? stepLine(QUESTS, quest)
        : quest.status === 'not_started' && def
          ? canStart(QUESTS, quest.questId, q.quests, skills)
            ? `Talk to ${npcName(def.startNpc)} to start.`
            : `Needs: ${[...def.quests.map((id) => QUESTS[id]?.name ?? id), ...Object.entries(def.skills).map(([s, l]) => `${s} ${l}`)].join(', ')}`
          : '';
    return el(
      'div',
      {
        class: `quest ${quest.status === 'completed' ? 'on' : status === 'locked' ? 'off' : ''}`,
        'data-quest': quest.questId,
      },
      el('div', { class: 'row' }, el('span', {}, quest.name), el('span', {}, status)),
      ...(detail ? [el('div', { class: 'small' }, detail)] : []),
    );
  });
  $('panel-quests').replaceChildren(el('div', {}, `Quest points: ${q.questPoints}`), ...rows);
}

/** Friends with their online state, requests to answer, the ignore list, and a name box to add. */
export function renderFriends(app: App): void {
  const s = app.state.social;
  const parts: Node[] = [el('b', {}, 'Friends')];
  for (const f of s.friends) {
    parts.push(
      el(
        'div',
        { class: 'row', 'data-friend': f.name },
        el(
          'span',
          { class: f.online ? 'on' : 'off' },
          `${f.name} — ${f.online ? `online${f.world === undefined ? '' : ` (world ${f.world})`}` : 'offline'}`,
        ),
        button('Remove', () => app.send('friend:remove', { name: f.name })),
      ),
    );
  }
  if (s.friends.length === 0)
    parts.push(el('div', { class: 'small' }, 'No friends yet: add one by name below.'));
  for (const r of s.requests) {
    parts.push(
      el(
        'div',
        { class: 'row', 'data-request': r.fromName },
        el('span', {}, `${r.fromName} asks`),
        el(
          'span',
          {},
          button('Accept', () => app.send('friend:respond', { requestId: r.requestId, accept: true })),
          button('Decline', () => app.send('friend:respond', { requestId: r.requestId, accept: false })),
        ),
      ),
    );
  }
  parts.push(el('b', {}, 'Ignored'));
  for (const i of s.ignored) {
    parts.push(
      el(
        'div',
        { class: 'row', 'data-ignored': i.name },
        el('span', {}, i.name),
        button('Unignore', () => app.send('ignore:remove', { name: i.name })),
      ),
    );
  }
  const name = el('input', { placeholder: 'player name', maxlength: '64', 'data-testid': 'friend-name' });
  const withName = (event: 'friend:request' | 'ignore:add') => () => {
    const n = name.value.trim();
    if (n) app.send(event, { name: n });
    name.value = '';
  };
  parts.push(
    name,
    el(
      'div',
      {},
      button('Add friend', withName('friend:request')),
      ' ',
      button('Ignore', withName('ignore:add')),
    ),
  );
  $('panel-friends').replaceChildren(...parts);
}
