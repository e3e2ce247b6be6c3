// The shared store (`railyard serve --database`): POST customer throughput of one server and of two servers on one
// PostgreSQL, spread over 8 platforms, and the takeover of a killed server's platforms. Prints a JSON object as its
// last line. Two servers are loaded twice: each request to either server in turn (a round-robin balancer: half the
// requests are passed on to the holder) and each platform's requests to its holder (a balancer with affinity). Every
// process of this section (servers, PostgreSQL, the load) may use every core, and the same loads against in-memory
// servers (nothing shared) give the machine's ceiling: what a second server can add when the load generator, the
// database and both servers share this machine's cores.
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { customerBody, onEveryCore, startChild } from './lib.mjs';
import { createDatabase, startPostgres } from '../support/postgres.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const cli = here('../../packages/engine/dist/cli.cjs');
const SECONDS = Number(process.env.BENCH_SHARED_SECONDS ?? 5);
const PLATFORMS = 8;
const env = (url) => ({ RAILYARD_DATABASE_URL: url, RAILYARD_SECRET_KEY: 'bench-shared-sandbox-key-of-32-bytes!' });
const basic = (p) => `Basic ${Buffer.from(`${p.clientId}:${p.clientSecret}`).toString('base64')}`;
const ROOT = { clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' };

const start = (url) => startChild([cli, 'serve', '--port', '0', '--regulated', '--clock', 'virtual'], { env: env(url), pin: false });

async function post(base, credentials, path, body) {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: basic(credentials), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function holders(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return new Map((await client.query('SELECT platform_id, holder_url FROM railyard_leases')).rows.map((row) => [row.platform_id, row.holder_url]));
  } finally {
    await client.end();
  }
}

/** POST customer for SECONDS against `target` (a base URL), each request as the next of `platforms` in turn. */
function load(target, platforms, connections) {
  let next = 0;
  const body = JSON.stringify(customerBody);
  return autocannon({
    url: target, connections, duration: SECONDS,
    requests: [{
      method: 'POST', path: `${new URL(target).pathname}/customers`, body,
      setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'content-type': 'application/json', authorization: basic(platforms[next++ % platforms.length]) } }),
    }],
  }).then((result) => {
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target}: ${result.non2xx} non-2xx and ${result.errors} errors`);
    return result.requests.average;
  });
}

/** Makes PLATFORMS platforms, each taken by the server of `servers` its first request reaches (in turn). */
async function platformsOn(servers) {
  const platforms = [];
  for (let i = 0; i < PLATFORMS; i++) platforms.push(await post(servers[0].url, ROOT, '/_sandbox/platforms', { name: `bench ${i}`, regulated: true }));
  await new Promise((resolve) => setTimeout(resolve, 200)); // let go by the server that made them
  for (const [i, platform] of platforms.entries()) await post(servers[i % servers.length].url, platform, '/customers', customerBody);
  return platforms;
}

async function throughput() {
  const cluster = await startPostgres();
  const connections = 16;
  try {
    // One server on its own database, holding every platform.
    const alone = await start(await createDatabase(cluster, 'one_server'));
    let one;
    try {
      const platforms = await platformsOn([alone]);
      await load(alone.url, platforms, connections);
      one = await load(alone.url, platforms, connections);
    } finally {
      alone.stop();
    }
    const url = await createDatabase(cluster, 'two_servers');
    const first = await start(url);
    const second = await start(url);
    try {
      const platforms = await platformsOn([first, second]);
      const both = (targets) => Promise.all(targets.map(([server, list]) => load(server.url, list, connections / 2))).then((rates) => rates.reduce((a, b) => a + b, 0));
      await both([[first, platforms], [second, platforms]]);
      const roundRobin = await both([[first, platforms], [second, platforms]]);
      const byHolder = await holders(url);
      const of = (server) => platforms.filter((p) => byHolder.get(p.id) === new URL(server.url).origin);
      const affine = await both([[first, of(first)], [second, of(second)]]);
      return { one, roundRobin, affine, platforms: PLATFORMS, split: [of(first).length, of(second).length] };
    } finally {
      first.stop();
      second.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    cluster.destroy();
  }
}

/**
 * Milliseconds from a SIGKILL of the server holding a platform of `count` customers to the other server's first answer
 * of one of them, and the time that other server takes to load the same platform when nobody has to wait for a lease.
 */
async function takeover(count) {
  const cluster = await startPostgres();
  try {
    const victim = await start(cluster.url);
    const survivor = await start(cluster.url);
    try {
      const platform = await post(victim.url, ROOT, '/_sandbox/platforms', { name: 'taken over', regulated: true });
      let last;
      for (let i = 0; i < count; i += 50) {
        const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => post(victim.url, platform, '/customers', customerBody)));
        last = batch.at(-1);
      }
      // Held by the server that made it? Then that is the victim; if not, swap roles.
      const held = (await holders(cluster.url)).get(platform.id);
      const [dies, lives] = held === new URL(victim.url).origin ? [victim, survivor] : [survivor, victim];
      const killedAt = performance.now();
      dies.kill();
      const response = await fetch(`${lives.url}/customers/${encodeURIComponent(last.id)}`, { headers: { authorization: basic(platform) } });
      const takeoverMs = performance.now() - killedAt;
      if (response.status !== 200) throw new Error(`after the takeover: ${response.status}`);
      // The load alone: a third server takes the platform once the second has let it go (SIGTERM releases).
      lives.stop();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const third = await start(cluster.url);
      try {
        const t0 = performance.now();
        const again = await fetch(`${third.url}/customers/${encodeURIComponent(last.id)}`, { headers: { authorization: basic(platform) } });
        const loadMs = performance.now() - t0;
        if (again.status !== 200) throw new Error(`after a clean handover: ${again.status}`);
        return { count, takeoverMs, loadMs };
      } finally {
        third.stop();
      }
    } finally {
      victim.stop();
      survivor.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    cluster.destroy();
  }
}

/** The same loads against one in-memory server and against two (each its own sandbox): the machine's ceiling. */
async function ceiling() {
  const connections = 16;
  const root = [ROOT];
  const alone = await startChild([cli, 'serve', '--port', '0', '--regulated', '--clock', 'virtual'], { pin: false });
  let one;
  try {
    await load(alone.url, root, connections);
    one = await load(alone.url, root, connections);
  } finally {
    alone.stop();
  }
  const pair = [await startChild([cli, 'serve', '--port', '0', '--regulated', '--clock', 'virtual'], { pin: false }), await startChild([cli, 'serve', '--port', '0', '--regulated', '--clock', 'virtual'], { pin: false })];
  try {
    const both = () => Promise.all(pair.map((server) => load(server.url, root, connections / 2))).then((rates) => rates.reduce((a, b) => a + b, 0));
    await both();
    return { one, two: await both() };
  } finally {
    for (const server of pair) server.stop();
  }
}

export function sharedFigures() {
  return onEveryCore(async () => ({
    throughput: await throughput(),
    ceiling: await ceiling(),
    takeover: await takeover(Number(process.env.BENCH_SHARED_TAKEOVER_SEED ?? 10_000)),
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await sharedFigures()));
