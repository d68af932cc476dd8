import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderProtocolDoc } from './docs.ts';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/protocol.md');
writeFileSync(target, renderProtocolDoc());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
