#!/usr/bin/env node
// The `railyard` bin. It is committed (dist/ is not), so installing the package can link the bin before the build has
// run; it starts the built command line. CommonJS, as the command line is: every `railyard serve` is a cold start, and
// Node's ES module loader would add to it.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'cli.cjs');
if (!existsSync(cli)) {
  console.error('railyard: the engine is not built yet (no dist/cli.cjs); run `pnpm build` in the Railyard checkout.');
  process.exit(1);
}
require(cli);
