import type { RouteDef } from '../http/types.ts';

/**
 * GET /env.js (contract §3.5): `window.env = {...}` built only from config.publicEnv, which the config
 * module fills with PUBLIC_* keys alone, so no secret can reach this script. Read at the first request:
 * by then the server listens, and defaults that follow the port name the one it got.
 */
export function envJsRoutes(publicEnv: () => Readonly<Record<string, string>>): RouteDef[] {
  let script: string | undefined;
  // `<` escaped so a value can never close a <script> tag it is inlined into.
  const build = () => `window.env = ${JSON.stringify(publicEnv()).replaceAll('<', '\\u003c')};\n`;
  return [
    {
      method: 'GET',
      path: '/env.js',
      rateLimit: 'none',
      handler: () => {
        script ??= build();
        return {
          headers: { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'no-cache' },
          body: script,
        };
      },
    },
  ];
}
