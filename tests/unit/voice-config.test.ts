import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { buildPlayerSync } from '../../net/session/player-sync.ts';
import { Scenario } from '../scenario/harness.ts';

/** Voice settings: on with all three; production asks for wss and a long secret; player:sync.voice. */

const VOICE = {
  VOICE_API_KEY: 'key',
  VOICE_API_SECRET: 'x'.repeat(40),
  VOICE_URL: 'wss://voice.example.test',
};
const PROD = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://u:p@127.0.0.1/db',
  JWT_SECRET: 'j'.repeat(40),
  ADMIN_CODE: 'admin',
  PUBLIC_IDP_APP_ID: 'app',
  IDP_APP_ID: 'app',
  IDP_APP_SECRET: 'secret',
  IDP_JWKS_URL: 'https://idp.example.test/jwks',
};

const problems = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env, '/tmp');
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
};

describe('voice settings', () => {
  it('off without settings, on with all three; the world directory names the rooms', () => {
    expect(loadConfig({}, '/tmp').voice.enabled).toBe(false);
    const on = loadConfig({ ...VOICE, WORLD: 'worlds/alpha' }, '/tmp');
    expect(on.voice).toMatchObject({
      enabled: true,
      worldName: 'alpha',
      url: VOICE.VOICE_URL,
      apiKey: 'key',
    });
  });

  it('a partial set is refused in production, and means voice off elsewhere', () => {
    for (const missing of Object.keys(VOICE)) {
      const env: Record<string, string> = { ...VOICE };
      delete env[missing];
      expect(problems({ ...PROD, ...env }).join('\n')).toMatch(/must be set together/);
      expect(loadConfig(env, '/tmp').voice.enabled).toBe(false);
    }
  });

  it('production wants wss:// and a secret of 32 characters or more', () => {
    expect(problems({ ...PROD, ...VOICE })).toEqual([]);
    expect(problems({ ...PROD, ...VOICE, VOICE_URL: 'ws://voice.example.test' }).join('\n')).toMatch(/wss/);
    expect(problems({ ...PROD, ...VOICE, VOICE_API_SECRET: 'short' }).join('\n')).toMatch(/VOICE_API_SECRET/);
    expect(problems({ ...VOICE, VOICE_URL: 'ftp://voice.example.test' }).join('\n')).toMatch(/VOICE_URL/);
  });

  it('player:sync.voice tells whether voice is configured', () => {
    for (const enabled of [true, false]) {
      const s = new Scenario(enabled ? { rules: { voiceWorld: 'w' } } : {});
      const id = s.addPlayer({ name: 'Sync' });
      expect(buildPlayerSync(s.world, s.player(id)).voice).toEqual({ enabled });
    }
  });
});
