import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { GENERATED_PATH, renderProtocol } from './protocol.ts';

/** `npm run sdk:protocol`: writes the SDK's protocol types from the server's schemas. */
writeFileSync(path.join(REPO_ROOT, GENERATED_PATH), renderProtocol());
console.log(`wrote ${GENERATED_PATH}`);
