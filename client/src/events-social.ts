import { QUESTS } from 'virtual:content';
import type { GameConnection } from './connection.ts';
import { itemName, npcName } from './content.ts';
import type { Listeners } from './events-world.ts';
import { prettyId } from './game.ts';
import { TRADE_CANCEL_REASONS, tradeErrorSentence } from './messages.ts';
import { stepLine } from './quest-guide.ts';

/**
 * The server's events about others and the windows: chat, friends, trades, shops, the bank, stations,
 * dialogue and quests.
 */

export interface SocialMemory {
  /** Recipients of my private messages not echoed back yet, oldest first. */
  privateTo: string[];
  /** A friend request sent and not answered yet. */
  friendAsked: string | null;
  /** Learn the voice room again (it changed). */
  voiceRoom(): void;
}

export function bindSocialEvents(c: GameConnection, { app, story }: Listeners, memory: SocialMemory): void {
  const { state, ui } = app;

  c.on('chat:message', (m) => {
    if (m.channel === 'system') ui.chatLine(m.message, 'system');
    else if (m.channel === 'private' && m.fromId === state.me?.id) {
      // The server echoes my private messages back to me.
      ui.chatLine(`To ${memory.privateTo.shift() ?? '?'}: ${m.message}`, 'private');
    } else if (m.channel === 'private') ui.chatLine(`From ${m.fromName}: ${m.message}`, 'private');
    else ui.chatLine(`${m.fromName}: ${m.message}`, m.channel);
  });
  c.on('error', (e) => {
    // A refused private message is never echoed: drop its recipient. A refused friend request was not sent.
    if (e.event === 'player:chat' && e.code === 'NOT_FOUND') memory.privateTo.shift();
    if (e.event === 'friend:request') memory.friendAsked = null;
  });

  c.on('social:list', (s) => {
    const asked = memory.friendAsked;
    if (asked) {
      memory.friendAsked = null;
      const now = s.friends.some((f) => f.name.toLowerCase() === asked.toLowerCase());
      ui.chatLine(now ? `You and ${asked} are now friends.` : `Friend request sent to ${asked}.`, 'system');
    }
    state.social = s;
    app.refresh('friends');
  });
  c.on('friend:requestReceived', (r) =>
    ui.chatLine(`${r.fromName} wants to be your friend (see the Friends tab).`, 'system'),
  );
  c.on('friend:presence', (p) => {
    const f = state.social.friends.find((v) => v.id === p.id);
    const moved = f?.online === true && p.online;
    if (f) {
      f.online = p.online;
      if (p.world === undefined) delete f.world;
      else f.world = p.world;
    }
    app.refresh('friends');
    const line = moved
      ? `${p.name} moved to world ${p.world}.`
      : p.online
        ? `${p.name} has logged in${p.world === undefined ? '' : ` (world ${p.world})`}.`
        : `${p.name} has logged out.`;
    ui.chatLine(line, 'system');
  });

  c.on('bank:update', (b) => {
    if (state.bank === null) ui.chatLine('You open your bank.', 'system');
    state.bank = b.items;
    app.refresh('bank', 'inventory');
  });

  c.on('station:open', (s) => {
    state.station = s;
    app.refresh('station');
  });
  c.on('shop:open', (s) => {
    state.shop = s;
    app.refresh('shop', 'inventory');
  });
  c.on('shop:update', (s) => {
    if (state.shop?.shopId !== s.shopId) return;
    state.shop.items = s.items;
    app.refresh('shop');
  });
  c.on('shop:closed', (s) => {
    if (state.shop?.shopId !== s.shopId) return;
    state.shop = null;
    app.refresh('shop', 'inventory');
  });

  c.on('dialogue:node', (d) => {
    state.dialogue = d;
    app.refresh('dialogue');
  });
  c.on('dialogue:close', () => {
    state.dialogue = null;
    app.refresh('dialogue');
  });

  c.on('quest:list', (q) => {
    state.quests = q;
    app.refresh('quests');
  });
  c.on('quest:update', (q) => {
    const known = state.quests?.quests.find((v) => v.questId === q.questId);
    const def = QUESTS[q.questId];
    const name = known?.name ?? def?.name ?? prettyId(q.questId);
    const before = known ? { ...known } : undefined;
    if (known) Object.assign(known, q);
    // Items given or taken with this update come from the NPC of the talk, or the quest's own.
    const giver = state.dialogue ? npcName(state.dialogue.npcId) : def ? npcName(def.startNpc) : 'The quest';
    story.set({ kind: 'quest', giver }, 2000);
    app.refresh('quests');
    if (q.status === 'completed') ui.chatLine(`Quest complete: ${name}!`, 'level');
    else if (before?.status !== q.status)
      ui.chatLine(`Quest started: ${name}. ${stepLine(QUESTS, q)}.`, 'system');
    else if (before?.stageId !== q.stageId || q.count === 0)
      ui.chatLine(`${name}: ${stepLine(QUESTS, q)}.`, 'system');
    else ui.chatLine(`${name}: ${stepLine(QUESTS, q)}`, 'system');
    // Quest points come with the list: ask for it again once a quest is done.
    if (q.status === 'completed') app.send('quest:list', {});
  });

  c.on('tradeIncoming', (t) =>
    ui.notice(`${t.fromPlayerName} (level ${t.fromPlayerLevel}) wants to trade.`, [
      {
        label: 'Accept trade',
        run: () => app.send('tradeRequestRespond', { tradeId: t.tradeId, accept: true }),
      },
      { label: 'Decline', run: () => app.send('tradeRequestRespond', { tradeId: t.tradeId, accept: false }) },
    ]),
  );
  c.on('tradeStarted', (t) => {
    const empty = { items: [], coins: 0, accepted: false };
    state.trade = {
      kind: 'offer',
      tradeId: t.tradeId,
      partnerName: t.partnerName,
      myOffer: empty,
      theirOffer: empty,
    };
    app.refresh('trade', 'inventory');
  });
  c.on('tradeUpdated', (t) => {
    if (state.trade?.tradeId !== t.tradeId) return;
    state.trade = {
      kind: 'offer',
      tradeId: t.tradeId,
      partnerName: state.trade.partnerName,
      myOffer: t.myOffer,
      theirOffer: t.theirOffer,
    };
    app.refresh('trade');
  });
  c.on('tradeConfirmScreen', (t) => {
    if (state.trade?.tradeId !== t.tradeId) return;
    state.trade = {
      kind: 'confirm',
      tradeId: t.tradeId,
      partnerName: state.trade.partnerName,
      myOffer: t.myOffer,
      theirOffer: t.theirOffer,
      values: t.values,
    };
    app.refresh('trade');
  });
  const endTrade = () => {
    state.trade = null;
    app.refresh('trade', 'inventory');
  };
  c.on('tradeCompleted', (t) => {
    story.set({ kind: 'quiet' });
    const got = t.receivedItems.map((i) => `${i.quantity} × ${itemName(i.itemId)}`).join(', ') || 'nothing';
    ui.chatLine(`Trade completed. You received: ${got}.`, 'system');
    endTrade();
  });
  c.on('tradeCancelled', (t) => {
    ui.chatLine(TRADE_CANCEL_REASONS[t.reason] ?? 'The trade was cancelled.', 'system');
    endTrade();
  });
  c.on('tradeError', (t) => ui.chatLine(tradeErrorSentence(t.code, t.message), 'error'));

  c.on('voice:room', (v) => {
    state.voice.room = v.room;
    memory.voiceRoom();
  });
}
