// The `railyard` commands a tester types, one after the other, against a running sandbox: a platform of its own, a
// customer approved at once (regulated), its clock moved on, a snapshot saved and put back, its events listed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `railyard ARGS` with extra environment; resolves with its exit code and what it printed on stdout. */
export type Railyard = (args: string[], env?: Record<string, string>) => Promise<{ code: number; out: string }>;

/** The tour against the sandbox at `baseUrl`; returns a line per step, which `log` also prints. */
export async function runCliTour(railyard: Railyard, baseUrl: string, log: (line: string) => void = console.log): Promise<string[]> {
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
  return trace;
}
