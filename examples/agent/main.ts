import { startAgent } from './agent.ts';

/**
 * Runs the example agent against a game server until Ctrl-C.
 *   npm run example:agent [-- --server http://127.0.0.1:5555 --token <session token> --agent <agentId>]
 * Without --token it makes a temporary account (anonymous servers); without --agent it creates a
 * character and an agent and prints the agent id, so a dashboard can set its goals.
 */

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const server = arg('server') ?? process.env['GAME_SERVER_URL'] ?? 'http://127.0.0.1:5555';
const token = arg('token') ?? process.env['AGENT_TOKEN'];
const agentId = arg('agent') ?? process.env['AGENT_ID'];

const agent = await startAgent({
  server,
  ...(token !== undefined ? { token } : {}),
  ...(agentId !== undefined ? { agentId } : {}),
});
console.log(
  `agent ${agent.agentId} playing character ${agent.characterId}; token for the API: ${agent.token}`,
);
const started = performance.now();
const report = setInterval(() => {
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(JSON.stringify({ seconds, ...agent.stats }));
}, 10_000);
process.once('SIGINT', () => {
  clearInterval(report);
  void agent.stop().then(() => process.exit(0));
});
