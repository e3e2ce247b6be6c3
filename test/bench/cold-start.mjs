// Cold start of `railyard serve`: milliseconds from spawning the command to the body of its first response, median of
// seven runs. Run by run.mjs as a small child of its own, as a shell would start the command: spawned from the large
// heap of a benchmark process, the fork alone added tens of milliseconds that a user never sees. The HTTP client is
// loaded (one request to a throwaway server) before the clock starts, for the same reason.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { median } from './lib.mjs';

const CLI = fileURLToPath(new URL('../../packages/engine/dist/cli.cjs', import.meta.url));

async function warmHttpClient() {
  const server = createServer((_, res) => res.end('ok')).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  await (await fetch(`http://127.0.0.1:${server.address().port}/`)).text();
  server.close();
}

async function coldStart() {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const response = await fetch(`${url}/customers`, { headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}` } });
    await response.text();
    if (response.status !== 200) throw new Error(`first response ${response.status}`);
    return performance.now() - t0;
  } finally {
    // The next start is timed once this process is gone: a process shutting down (its worker, its heap) takes a core
    // from the one starting, which no user's start competes with.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
  }
}

await warmHttpClient();
const runs = [];
for (let round = 0; round < 7; round++) runs.push(await coldStart());
console.log(JSON.stringify({ coldStart: median(runs), runs }));
