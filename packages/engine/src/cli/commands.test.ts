import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';
import { CLI_PATH, NO_CREDENTIALS, runRailyard } from '../testing/cli.js';

// The commands as a user runs them: the built bin against a `railyard serve` of its own, real sockets.
const railyard = runRailyard;
const cli = CLI_PATH;

let server: ReturnType<typeof spawn>;
let baseUrl: string;
beforeAll(async () => {
  server = spawn(process.execPath, [cli, 'serve', '--port', '0', '--clock', 'virtual'], { env: { ...process.env, ...NO_CREDENTIALS } });
  let output = '';
  baseUrl = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)[\s\S]*OpenAPI:/.exec(output);
      if (match) resolve(match[1]!);
    });
    server.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
});
afterAll(async () => {
  server.kill('SIGTERM');
  await once(server, 'exit');
});

const auth = (credentials: { clientId: string; clientSecret: string }) => ({ authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`, 'content-type': 'application/json' });

describe('railyard commands against a running sandbox', () => {
  it('platforms create, clock, clock advance: text for people, --json for scripts, credentials from flags or the environment', async () => {
    const made = await railyard(['platforms', 'create', '--name', 'QA team', '--regulated', '--json', '--base-url', baseUrl]);
    expect(made.code).toBe(0);
    const platform = JSON.parse(made.out) as { id: string; name: string; clientId: string; clientSecret: string; regulated: boolean };
    expect(platform).toMatchObject({ id: expect.stringMatching(/^Platform:/), name: 'QA team', regulated: true });
    const as = { RAILYARD_BASE_URL: new URL(baseUrl).origin, RAILYARD_CLIENT_ID: platform.clientId, RAILYARD_CLIENT_SECRET: platform.clientSecret };

    const before = JSON.parse((await railyard(['clock', '--json'], as)).out) as { now: string; mode: string };
    expect(before.mode).toBe('virtual');
    const advanced = await railyard(['clock', 'advance', '1h30m'], as);
    const after = new Date(Date.parse(before.now) + 90 * 60_000).toISOString();
    expect(advanced).toEqual({ code: 0, out: `Advanced 1h30m (5400000 ms): the clock reads ${after}\n`, err: '' });
    // Only that platform's clock moved: the default platform's did not.
    const own = JSON.parse((await railyard(['clock', '--json', '--base-url', baseUrl])).out) as { now: string };
    expect(Date.parse(own.now)).toBeLessThan(Date.parse(after));
    const text = await railyard(['platforms', 'create', '--base-url', baseUrl]);
    expect(text.out).toMatch(/^Created platform Platform:\S+ \(.+\)\n {2}client id: {5}\S+\n {2}client secret: \S+\n/);
  });

  it('snapshot save and load give the platform back as it was; events lists what it emitted', async () => {
    const platform = JSON.parse((await railyard(['platforms', 'create', '--regulated', '--json', '--base-url', baseUrl])).out) as { clientId: string; clientSecret: string };
    const flags = ['--base-url', baseUrl, '--client-id', platform.clientId, '--client-secret', platform.clientSecret];
    const file = join(mkdtempSync(join(tmpdir(), 'railyard-cli-')), 'state.json');
    const saved = await railyard(['snapshot', 'save', file, ...flags]);
    expect(saved.code).toBe(0);
    expect(saved.out).toMatch(new RegExp(`^Saved the snapshot to ${file} \\(\\d+(\\.\\d)? k?B\\)\\n$`));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ collections: expect.any(Object) });

    const created = await (await fetch(`${baseUrl}/customers`, { method: 'POST', headers: auth(platform), body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' }) })).json() as { id: string };
    const listed = JSON.parse((await railyard(['events', '--type', 'CUSTOMER.KYC_APPROVED', '--json', ...flags])).out) as { data: { type: string; data: { id: string } }[] };
    expect(listed.data.map((event) => [event.type, event.data.id])).toEqual([['CUSTOMER.KYC_APPROVED', created.id]]);
    expect((await railyard(['events', '--type', 'CUSTOMER.KYC_APPROVED', ...flags])).out).toMatch(/^\S+Z {2}CUSTOMER\.KYC_APPROVED +Webhook:\S+ {2}not delivered\n$/);

    const loaded = await railyard(['snapshot', 'load', file, ...flags]);
    expect(loaded.code).toBe(0);
    expect(loaded.out).toContain(`Restored ${file}`);
    expect((await fetch(`${baseUrl}/customers/${encodeURIComponent(created.id)}`, { headers: auth(platform) })).status).toBe(404);
    expect((await railyard(['events', ...flags])).out).toBe('No events\n');
  });

  it('fails with an exit code that means something and a line that says what to do', async () => {
    const wrong = await railyard(['clock', '--base-url', baseUrl, '--client-secret', 'not-it']);
    expect(wrong.code).toBe(4);
    expect(wrong.err).toBe(`The sandbox at ${baseUrl} refused the credentials of client id sandbox-client-id: pass --client-id and --client-secret (or set RAILYARD_CLIENT_ID and RAILYARD_CLIENT_SECRET) of one of its platforms\n`);

    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const nobody = await railyard(['clock', '--base-url', `http://127.0.0.1:${closed}`]);
    expect(nobody.code).toBe(3);
    expect(nobody.err).toMatch(new RegExp(`^No sandbox answers at http://127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\): start one with \`railyard serve\`, or point --base-url`));

    const badDuration = await railyard(['clock', 'advance', 'soon', '--base-url', baseUrl]);
    expect([badDuration.code, badDuration.err]).toEqual([2, 'soon is not a duration: write it as 6m, 1h30m, 90s, 250ms, 2d, or milliseconds\n']);
    const missing = await railyard(['snapshot', 'load']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^Missing FILE\n\nUsage: railyard snapshot load FILE/);
    const notJson = join(mkdtempSync(join(tmpdir(), 'railyard-cli-')), 'not.json');
    writeFileSync(notJson, 'hello');
    const refused = await railyard(['snapshot', 'load', notJson, '--base-url', baseUrl]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^The sandbox answered 400 /);
    const unknown = await railyard(['trigger-everything']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^Unknown command trigger-everything\n\nUsage: railyard serve/);
    const notSandbox = await railyard(['clock', '--base-url', 'ftp://example.com']);
    expect([notSandbox.code, notSandbox.err]).toEqual([2, '--base-url must be an http(s) URL, not ftp://example.com\n']);
  });

  it('every command has --help with an example; railyard --help lists them all', async () => {
    const all = await railyard(['--help']);
    expect(all.code).toBe(0);
    for (const usage of ['railyard platforms create', 'railyard clock advance DURATION', 'railyard snapshot save FILE', 'railyard snapshot load FILE', 'railyard events']) {
      expect(all.out).toContain(`  ${usage}`);
      const help = await railyard([...usage.split(' ').slice(1).filter((word) => word === word.toLowerCase()), '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toMatch(/\nExample:\n {2}railyard \S+/);
    }
    expect(all.out).toContain('Exit codes: 0 done, 1 the sandbox refused the request, 2 the command line is wrong, 3 no sandbox answers');
  });
});

describe('durations', () => {
  it('reads 6m, 1h30m, 90s, 250ms, 2d and plain milliseconds, and nothing else', () => {
    expect(['6m', '1h30m', '90s', '250ms', '2d', '1500', '1d2h3m4s5ms'].map(parseDuration)).toEqual([360_000, 5_400_000, 90_000, 250, 172_800_000, 1500, 93_784_005]);
    for (const text of ['', 'soon', 'six', '-5m', '1.5h', '6 m', 'm', '5mm', '9'.repeat(20) + 'd']) expect(parseDuration(text)).toBeUndefined();
  });
});
