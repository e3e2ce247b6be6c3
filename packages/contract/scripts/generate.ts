// Writes the contract's generated, zod-free modules (see src/codegen). Run: pnpm --filter @railyard/contract generate
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderModules, ROUTES_MODULE_PATH, TYPES_MODULE_PATH } from '../src/codegen/routes-module.js';

const packageDir = new URL('../', import.meta.url);
const { routes, types } = renderModules();
writeFileSync(fileURLToPath(new URL(ROUTES_MODULE_PATH, packageDir)), routes);
writeFileSync(fileURLToPath(new URL(TYPES_MODULE_PATH, packageDir)), types);
