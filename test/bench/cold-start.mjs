// Cold start of `railyard serve`: milliseconds from spawning the command to the body of its first response, median of
// seven runs. Run by run.mjs as a small child of its own, as a shell would start the command: spawned from the large
// heap of a benchmark process, the fork alone added tens of milliseconds that a user never sees. The HTTP client is
// loaded (one request to a throwaway server) before the clock starts, for the same reason.
//
// Beside each start it times the floor no server code can go below on this machine at this moment: a process that
// only writes a line (Node's own start), and one that starts an empty worker thread and writes a line once it answers
// (Node's start, then a worker's bootstrap, which `railyard serve` runs its server on), and one whose worker serves a
// fixed JSON answer over node:http, asked for as the server is (what any server on a worker thread costs before it
// does any work of its own). They run in turns with the starts, so all of them see the same minutes of a machine
// whose speed moves by tens of percent.
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

/** Spawns `args`, waits for `pattern` in its output and then for `then(match)`, and returns the time from the spawn. */
async function startAndWaitFor(args, pattern, then = async () => {}) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const match = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const found = pattern.exec(out);
        if (found) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before printing ${pattern}`)));
    });
    await then(match);
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

/** The first request a cold start is timed to: a list of customers, with the default credentials. */
async function firstList([, url]) {
  const response = await fetch(`${url}/customers`, { headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}` } });
  await response.text();
  if (response.status !== 200) throw new Error(`first response ${response.status}`);
}

const LISTENING = /listening on (http:\/\/\S+)/;
const coldStart = () => startAndWaitFor([CLI, 'serve', '--port', '0'], LISTENING, firstList);

// Each writes its line and waits to be stopped, like the server (a process that exits at once would race its own exit
// against the reading of its line).
const READY_THEN_WAIT = "process.stdout.write('ready\\n'); setInterval(() => {}, 60_000);";
const nodeStart = () => startAndWaitFor(['-e', READY_THEN_WAIT], /ready/);
const workerStart = () =>
  startAndWaitFor(['-e', `new (require('node:worker_threads').Worker)('require("node:worker_threads").parentPort.postMessage(0)', { eval: true }).once('message', () => { ${READY_THEN_WAIT} });`], /ready/);

// The young generation `railyard serve` gives its thread (SERVER_YOUNG_GENERATION_MB), so the two workers are alike.
const FIXED_ANSWER_SERVER = `
const { Worker } = require('node:worker_threads');
const thread = new Worker(\`
  const server = require('node:http').createServer((_, res) => { res.setHeader('content-type', 'application/json'); res.end('{"data":[],"hasMore":false,"totalCount":0}'); });
  server.listen(0, '127.0.0.1', () => require('node:worker_threads').parentPort.postMessage('http://127.0.0.1:' + server.address().port));
\`, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 384 } });
thread.once('message', (url) => process.stdout.write('listening on ' + url + '\\n'));`;
const fixedAnswerStart = () => startAndWaitFor(['-e', FIXED_ANSWER_SERVER], LISTENING, firstList);

await warmHttpClient();
const runs = [];
const nodeRuns = [];
const workerRuns = [];
const fixedAnswerRuns = [];
for (let round = 0; round < 7; round++) {
  nodeRuns.push(await nodeStart());
  workerRuns.push(await workerStart());
  fixedAnswerRuns.push(await fixedAnswerStart());
  runs.push(await coldStart());
}
console.log(JSON.stringify({ coldStart: median(runs), runs, floor: { node: median(nodeRuns), nodeAndWorker: median(workerRuns), fixedAnswerOnWorker: median(fixedAnswerRuns) } }));
