import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { contentPlugin } from './content-plugin.ts';

/** Builds the web client (client/) into public/, which the game server serves. */
const root = fileURLToPath(new URL('.', import.meta.url));
const manifests = fileURLToPath(new URL('../world/assets/manifests/', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  logLevel: 'warn',
  plugins: [contentPlugin(manifests)],
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
