#!/usr/bin/env node
// The `railyard` bin. It is committed (dist/ is not), so installing the package can link the bin before the build has
// run; it starts the built command line.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('railyard: the engine is not built yet (no dist/cli.js); run `pnpm build` in the Railyard checkout.');
  process.exit(1);
}
await import(cli.href);
