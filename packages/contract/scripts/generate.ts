// Writes the contract's generated, zod-free modules (see src/codegen). Run: pnpm --filter @railyard/contract generate
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderRoutesModule, ROUTES_MODULE_PATH } from '../src/codegen/routes-module.js';

const packageDir = new URL('../', import.meta.url);
writeFileSync(fileURLToPath(new URL(ROUTES_MODULE_PATH, packageDir)), renderRoutesModule());
