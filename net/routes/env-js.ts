import type { RouteDef } from '../http/types.ts';

/**
 * GET /env.js (contract §3.5): `window.env = {...}` built only from config.publicEnv, which the config
 * module fills with PUBLIC_* keys alone, so no secret can reach this script.
 */
export function envJsRoutes(publicEnv: Readonly<Record<string, string>>): RouteDef[] {
  // `<` escaped so a value can never close a <script> tag it is inlined into.
  const script = `window.env = ${JSON.stringify(publicEnv).replaceAll('<', '\\u003c')};\n`;
  return [
    {
      method: 'GET',
      path: '/env.js',
      rateLimit: 'none',
      handler: () => ({
        headers: { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'no-cache' },
        body: script,
      }),
    },
  ];
}
