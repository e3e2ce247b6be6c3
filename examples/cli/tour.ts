// The `railyard` commands a tester types, one after the other, against a running sandbox: a platform of its own, a
// customer approved at once (regulated), its clock moved on, a snapshot saved and put back, its events listed; then
// `railyard listen` forwarding its events to a local receiver while `railyard trigger` makes a payout complete.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `railyard ARGS` with extra environment; resolves with its exit code and what it printed on stdout. */
export type Railyard = (args: string[], env?: Record<string, string>) => Promise<{ code: number; out: string }>;

/** Starts `railyard ARGS` that runs until stopped (`listen`): what it printed on stderr so far, and its stop (Ctrl+C). */
export type RailyardInBackground = (args: string[], env?: Record<string, string>) => { stderr(): string; stop(): Promise<number> };

/** Resolves once `check` holds (within 10 s). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The tour against the sandbox at `baseUrl`; returns a line per step, which `log` also prints. */
export async function runCliTour(railyard: Railyard, inBackground: RailyardInBackground, baseUrl: string, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const step = (line: string) => {
    trace.push(line);
    log(line);
  };
  const must = async (args: string[], env?: Record<string, string>) => {
    const result = await railyard(args, env);
    if (result.code !== 0) throw new Error(`railyard ${args.join(' ')} exited ${result.code}`);
    return result.out;
  };
  const platform = JSON.parse(await must(['platforms', 'create', '--name', 'CLI tour', '--regulated', '--json', '--base-url', baseUrl])) as { clientId: string; clientSecret: string; regulated: boolean };
  step(`platforms create: a regulated platform (${platform.regulated})`);
  // From here on, as that platform.
  const as = { RAILYARD_BASE_URL: baseUrl, RAILYARD_CLIENT_ID: platform.clientId, RAILYARD_CLIENT_SECRET: platform.clientSecret };
  const file = join(mkdtempSync(join(tmpdir(), 'railyard-cli-tour-')), 'empty.json');
  await must(['snapshot', 'save', file], as);
  step('snapshot save: the empty platform kept in a file');

  const created = await fetch(`${baseUrl}/customers`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${platform.clientId}:${platform.clientSecret}`)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' }),
  });
  step(`a customer created over the API: ${created.status}`);
  const before = JSON.parse(await must(['clock', '--json'], as)) as { now: string; mode: string };
  const after = JSON.parse(await must(['clock', 'advance', '6m', '--json'], as)) as { now: string };
  step(`clock advance 6m: ${(Date.parse(after.now) - Date.parse(before.now)) / 60_000} minutes later on its ${before.mode} clock`);
  const events = JSON.parse(await must(['events', '--json'], as)) as { data: { type: string }[] };
  step(`events: ${events.data.map((event) => event.type).join(', ')}`);
  await must(['snapshot', 'load', file], as);
  const again = JSON.parse(await must(['events', '--json'], as)) as { data: unknown[] };
  step(`snapshot load: back as saved, ${again.data.length} events`);

  // A receiver on this machine, as a webhook handler under development is: it checks each delivery's signature with
  // the sandbox (a real receiver verifies with the public key of GET /_sandbox/webhook-key, e.g. client.webhooks.verify).
  const auth = `Basic ${btoa(`${platform.clientId}:${platform.clientSecret}`)}`;
  const received: { type: string; id: string; verified: number }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      const verify = await fetch(`${baseUrl}/_sandbox/webhook-key/verify`, {
        method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', 'x-service-signature': String(req.headers['x-service-signature']) }, body,
      });
      const { id, type } = JSON.parse(body) as { id: string; type: string };
      received.push({ id, type, verified: verify.status });
      res.writeHead(200).end();
    });
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => receiver.once('listening', resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const listen = inBackground(['listen', '--forward-to', hooks, '--events', 'OUTGOING_PAYMENT.COMPLETED'], as);
  try {
    await until(() => listen.stderr().includes('Ready'), 'listen to be ready');
    step('listen: forwarding OUTGOING_PAYMENT.COMPLETED to a local receiver');
    const fired = JSON.parse(await must(['trigger', 'OUTGOING_PAYMENT.COMPLETED', '--json'], as)) as { type: string; eventId: string; created: Record<string, string> };
    step(`trigger ${fired.type}: made ${Object.keys(fired.created).join(', ')}`);
    await until(() => received.some((delivery) => delivery.id === fired.eventId), 'the triggered event at the receiver');
    const delivery = received.find((each) => each.id === fired.eventId)!;
    step(`listen: the receiver got ${delivery.type}, signed by the sandbox (verify: ${delivery.verified})`);
  } finally {
    await listen.stop();
    receiver.close();
  }
  return trace;
}
