import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';
import { startCombatBot } from './combat-bot.ts';
import {
  COMBAT_COUNTS,
  decode,
  encode,
  isProbe,
  isWorldUpdate,
  type WorkerInit,
  type WorkerReport,
} from './protocol.ts';

/**
 * One worker thread drives many bots, each a real WebSocket client speaking msgpack: authenticate
 * anonymously, wait for authResult + player:sync, then every few ticks walk to a random nearby tile
 * (spread: first settle at a random spot up to spreadRadius from the spawn; hotspot: stay inside a
 * square around the spawn) and chat now and then. Latency = time from sending a move to the first
 * world:update showing its own entity on a new tile.
 *
 * Only the probe bots (a --probes share) decode world:update and measure that latency. The others skip
 * world:update frames after peeking at the event name (in a crowd each is ~40 KB a tick per bot, and
 * decoding them all would take a core from the server under test on the same machine) and assume each
 * move they send lands on its target (a refused move comes back as INVALID_TARGET / TOO_FAR).
 */

const init = workerData as WorkerInit;
const report: WorkerReport = {
  type: 'report',
  connected: 0,
  inWorld: 0,
  failed: 0,
  latencies: [],
  messagesIn: 0,
  bytesIn: 0,
  errors: {},
};
const sockets: WebSocket[] = [];
let stopping = false;

/**
 * Ticks a run leg of `tiles` takes with `energyPercent` run energy (`runEnergy` of player:sync and player:energy): 4 tiles a
 * tick while energy lasts (0.67 % a tick), then 2 walking, as the server moves it.
 */
function runTicks(tiles: number, energyPercent: number): number {
  const running = Math.min(Math.ceil(tiles / 4), Math.floor((energyPercent * 100) / 67));
  return running + Math.ceil(Math.max(0, tiles - running * 4) / 2);
}

function rand(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

function startBot(index: number): void {
  const ws = new WebSocket(`${init.url}?encoding=msgpack`);
  sockets.push(ws);
  let id = '';
  let x = 0;
  let z = 0;
  let spawnX = 0;
  let spawnZ = 0;
  let homeX = 0;
  let homeZ = 0;
  let moveSentAt = 0;
  let entered = false;
  const probe = isProbe(init.firstBot + index, init.probes);
  /** Non-probes: where the bot was before its last move, to step back to when the move is refused. */
  let prevX = 0;
  let prevZ = 0;
  /** Non-probes: ticks to wait before the next move, until a long run leg (settling) is really done. */
  let arriveTicks = 0;
  /** Run energy in whole percent, as the last player:sync or player:energy said (a run leg walks once it is gone). */
  let energy = 100;
  let timer: NodeJS.Timeout | undefined;

  const scheduleMove = () => {
    const ticks = rand(init.moveEveryMin, init.moveEveryMax);
    timer = setTimeout(move, Math.max(ticks, arriveTicks) * init.tickMs);
    arriveTicks = 0;
  };
  const move = () => {
    if (ws.readyState !== WebSocket.OPEN) return;
    let tx: number;
    let tz: number;
    let run = false;
    if (init.scenario === 'spread' && Math.max(Math.abs(homeX - x), Math.abs(homeZ - z)) > 8) {
      // Settling: run toward home in legs within the 200-tile limit.
      tx = x + Math.max(-190, Math.min(190, homeX - x));
      tz = z + Math.max(-190, Math.min(190, homeZ - z));
      run = true;
    } else {
      tx = x + rand(-5, 5);
      tz = z + rand(-5, 5);
      if (init.scenario === 'hotspot') {
        const half = Math.floor(init.hotspotSize / 2);
        tx = Math.max(spawnX - half, Math.min(spawnX + init.hotspotSize - half - 1, tx));
        tz = Math.max(spawnZ - half, Math.min(spawnZ + init.hotspotSize - half - 1, tz));
      }
    }
    if (tx !== x || tz !== z) {
      moveSentAt = performance.now();
      ws.send(encode('player:move', { x: tx, z: tz, run }));
      if (!probe) {
        // Without world:update the bot's position is its last target. After a long run leg (settling),
        // wait until it is really there (running while energy lasts, then walking, plus slack) so the
        // next leg stays in range.
        if (run) arriveTicks = runTicks(Math.max(Math.abs(tx - x), Math.abs(tz - z)), energy) + 2;
        prevX = x;
        prevZ = z;
        x = tx;
        z = tz;
      }
    }
    if (Math.random() < init.chatChance)
      ws.send(encode('player:chat', { message: `hello from bot ${index}` }));
    scheduleMove();
  };

  ws.on('open', () => {
    report.connected++;
    ws.send(encode('authenticate', { name: `bot${init.firstBot + index}` }));
  });
  ws.on('message', (data: Buffer) => {
    report.messagesIn++;
    report.bytesIn += data.length;
    if (!probe && isWorldUpdate(data)) return;
    const msg = decode(data);
    if (!msg) return;
    const [event, payload] = msg;
    if (event === 'authResult') {
      if (payload.success !== true) {
        report.failed++;
        ws.close();
        return;
      }
      id = String(payload.characterId);
    } else if (event === 'player:energy') {
      if (typeof payload.runEnergy === 'number') energy = payload.runEnergy;
    } else if (event === 'player:sync') {
      const p = payload.position as { x: number; z: number };
      if (typeof payload.runEnergy === 'number') energy = payload.runEnergy;
      if (!entered) {
        entered = true;
        x = Math.round(p.x);
        z = Math.round(p.z);
        spawnX = x;
        spawnZ = z;
        homeX = x + rand(-init.spreadRadius, init.spreadRadius);
        homeZ = z + rand(-init.spreadRadius, init.spreadRadius);
        report.inWorld++;
        scheduleMove();
      }
    } else if (event === 'world:update') {
      for (const e of payload.entities as { id: string; x: number; z: number }[]) {
        if (e.id !== id) continue;
        if ((e.x !== x || e.z !== z) && moveSentAt > 0) {
          report.latencies.push(performance.now() - moveSentAt);
          moveSentAt = 0;
        }
        x = e.x;
        z = e.z;
      }
    } else if (event === 'error') {
      const code = String(payload.code);
      report.errors[code] = (report.errors[code] ?? 0) + 1;
      // A refused move never moves the bot: do not count it as latency.
      if (code === 'INVALID_TARGET' || code === 'TOO_FAR') {
        moveSentAt = 0;
        if (!probe) {
          x = prevX;
          z = prevZ;
        }
      }
    }
  });
  ws.on('close', () => {
    if (timer) clearTimeout(timer);
    if (id !== '' && !stopping) report.inWorld--;
    report.connected--;
  });
  ws.on('error', () => {
    report.failed++;
  });
}

let started = 0;
const ramp = setInterval(
  () => {
    if (stopping || started >= init.bots) {
      clearInterval(ramp);
      return;
    }
    if (init.scenario === 'combat') startCombatBot(init, started++, report, sockets, () => stopping);
    else startBot(started++);
  },
  Math.max(1, Math.floor(1000 / init.rampPerSecond)),
);

const tick = setInterval(() => {
  parentPort?.postMessage({ ...report });
  report.latencies = [];
  report.messagesIn = 0;
  report.bytesIn = 0;
  report.errors = {};
  for (const k of COMBAT_COUNTS) report[k] = 0;
}, 1000);

parentPort?.on('message', (msg: { type: string }) => {
  if (msg.type !== 'stop') return;
  stopping = true;
  clearInterval(ramp);
  clearInterval(tick);
  for (const ws of sockets) ws.close(1000);
  setTimeout(() => process.exit(0), 500);
});
