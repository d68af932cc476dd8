// Worker threads do not inherit tsx's loader: register it here, then load the TypeScript bot worker.
import { register } from 'tsx/esm/api';

register();
await import('./bot-worker.ts');
