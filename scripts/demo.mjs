// `pnpm demo`: starts the standalone server, runs examples/quickstart (onboarding), examples/payout (money movement)
// and examples/cards (a card and its network) against it over HTTP, then stops the server.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const credentials = { RAILYARD_CLIENT_ID: 'demo-client', RAILYARD_CLIENT_SECRET: 'demo-secret' };

const server = spawn(process.execPath, ['packages/engine/dist/cli.js', 'serve', '--port', '0'], {
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

/** Runs one example against the server; resolves with its exit code. */
async function runExample(name) {
  console.log(`\n[demo] running examples/${name} against ${baseUrl}\n`);
  const example = spawn(process.execPath, ['--import', 'tsx', `examples/${name}/index.ts`], {
    cwd: root,
    env: { ...process.env, ...credentials, RAILYARD_BASE_URL: baseUrl },
    stdio: 'inherit',
  });
  const [exit] = await once(example, 'exit');
  return exit;
}
let code = 0;
for (const name of ['quickstart', 'payout', 'cards']) {
  if (code === 0) code = await runExample(name);
}

server.stdout.on('data', (chunk) => process.stdout.write(String(chunk).trimEnd().replace(/^/gm, '[server] ') + '\n'));
server.kill('SIGTERM');
await once(server, 'exit');
console.log(code === 0 ? '\n[demo] done' : `\n[demo] an example failed (exit ${code})`);
process.exit(code ?? 1);
