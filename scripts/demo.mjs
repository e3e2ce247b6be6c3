// `pnpm demo`: starts the standalone server, runs examples/quickstart (onboarding), examples/payout (money movement),
// examples/cards (a card and its network), examples/agent (an agent paying under its policy), examples/delegated-keys (a
// wallet funding a card through a delegated key), examples/lookups (the bank directory, receiver lookups, VASPs, UMA
// providers, withdrawal fees) and examples/bulk-import (customers from a CSV file) against it over HTTP; then starts one
// with a virtual clock (a coin's review and provisioning take minutes of engine time) and runs examples/stablecoin and
// examples/sca-factors (a TOTP, a lockout, a factor reset through the sandbox liveness check) and examples/cli (the
// `railyard` commands: a platform, its clock moved on, a snapshot saved and loaded, its events) against it; then stops them.
// It builds the packages first, printing the build's output only when the build fails.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { buildQuietly } from './ensure-built.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const credentials = { RAILYARD_CLIENT_ID: 'demo-client', RAILYARD_CLIENT_SECRET: 'demo-secret' };

/** Starts `railyard serve` on a free port with `args`; resolves with the server and its base URL once it listens. */
async function startServer(args) {
  const server = spawn(process.execPath, ['packages/engine/dist/cli.cjs', 'serve', '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, ...credentials },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise((resolve, reject) => {
    let banner = '';
    const readBanner = (chunk) => {
      banner += chunk;
      const match = /listening on (http:\/\/\S+)[\s\S]*OpenAPI:.*\n/.exec(banner);
      if (!match) return;
      server.stdout.off('data', readBanner);
      process.stdout.write(banner.trimEnd().replace(/^/gm, '[server] ') + '\n');
      resolve(match[1]);
    };
    server.stdout.on('data', readBanner);
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  server.stdout.on('data', (chunk) => process.stdout.write(String(chunk).trimEnd().replace(/^/gm, '[server] ') + '\n'));
  return { server, baseUrl };
}

/** Runs one example against a server; resolves with its exit code. */
async function runExample(name, baseUrl) {
  console.log(`\n[demo] running examples/${name} against ${baseUrl}\n`);
  const example = spawn(process.execPath, ['--import', 'tsx', `examples/${name}/index.ts`], {
    cwd: root,
    env: { ...process.env, ...credentials, RAILYARD_BASE_URL: baseUrl },
    stdio: 'inherit',
  });
  const [exit] = await once(example, 'exit');
  return exit;
}

/** Starts a server with `args`, runs `examples` against it in order while they succeed, and stops it. */
async function runAgainst(args, examples) {
  const { server, baseUrl } = await startServer(args);
  let code = 0;
  for (const name of examples) {
    if (code === 0) code = await runExample(name, baseUrl);
  }
  server.kill('SIGTERM');
  await once(server, 'exit');
  return code;
}

// The demo runs what is in the sources: build first, quietly (a failed build prints everything and stops here).
console.log('[demo] building the packages');
buildQuietly();

let code = await runAgainst([], ['quickstart', 'payout', 'cards', 'agent', 'delegated-keys', 'lookups', 'bulk-import']);
if (code === 0) code = await runAgainst(['--clock', 'virtual'], ['stablecoin', 'sca-factors', 'cli']);
console.log(code === 0 ? '\n[demo] done' : `\n[demo] an example failed (exit ${code})`);
process.exit(code ?? 1);
