import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/** Builds the web client (client/) into public/, which the game server serves. */
const root = fileURLToPath(new URL('.', import.meta.url));
const manifests = fileURLToPath(new URL('../world/assets/manifests/', import.meta.url));

interface NpcManifest {
  id: string;
  combat?: { attackable?: boolean };
  dialogue?: unknown;
  services?: { enabled?: boolean; types?: string[] };
}
interface AreaManifest {
  bounds: { minX: number; maxX: number; minZ: number; maxZ: number };
  safeZone?: boolean;
  pvpEnabled?: boolean;
}
interface PrayerManifest {
  id: string;
  name: string;
  level: number;
}

/**
 * `virtual:content`: the little of the default world's manifests the client needs to build its menus
 * (which NPCs can be attacked, talked to, traded with or banked with, where players may fight) and the
 * prayer list, cut down
 * at build time so the bundle does not carry whole manifests.
 */
function content(): Plugin {
  const id = 'virtual:content';
  return {
    name: 'client-content',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(resolved) {
      if (resolved !== `\0${id}`) return null;
      const npcs = JSON.parse(readFileSync(`${manifests}npcs.json`, 'utf8')) as NpcManifest[];
      const prayers = (
        JSON.parse(readFileSync(`${manifests}prayers.json`, 'utf8')) as { prayers: PrayerManifest[] }
      ).prayers;
      const verbs: Record<string, string[]> = {};
      for (const n of npcs) {
        const v: string[] = [];
        const services = n.services?.enabled === false ? [] : (n.services?.types ?? []);
        if (n.combat?.attackable) v.push('attack');
        if (n.dialogue) v.push('talk');
        if (services.includes('shop')) v.push('shop');
        if (services.includes('bank')) v.push('bank');
        verbs[n.id] = v;
      }
      const list = prayers.map((p) => ({ id: p.id, name: p.name, level: p.level }));
      const groups = JSON.parse(readFileSync(`${manifests}world-areas.json`, 'utf8')) as Record<
        string,
        Record<string, AreaManifest>
      >;
      const areas = Object.values(groups).flatMap((g) =>
        Object.values(g).map((a) => ({
          ...a.bounds,
          safeZone: a.safeZone === true,
          pvpEnabled: a.pvpEnabled === true,
        })),
      );
      return [
        `export const NPC_VERBS = ${JSON.stringify(verbs)};`,
        `export const PRAYERS = ${JSON.stringify(list)};`,
        `export const AREAS = ${JSON.stringify(areas)};`,
      ].join('\n');
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  logLevel: 'warn',
  plugins: [content()],
  build: {
    outDir: fileURLToPath(new URL('../public', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // `npx vite client` during development: API and WebSocket go to a server on the default port.
    proxy: { '/api': 'http://127.0.0.1:5555', '/ws': { target: 'ws://127.0.0.1:5555', ws: true } },
  },
});
