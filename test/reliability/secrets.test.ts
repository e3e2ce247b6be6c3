import { createClient, type RailyardClient } from '@railyard/client';
import { DecryptionKey, decryptExportBundle } from '@railyard/wallet';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordFigures } from '../support/figures.js';
import { rawCaller, type RawCall } from '../support/raw-api.js';
import { startBuiltServer, type BuiltServer } from '../support/transports.js';
import { signInWithEmailCode } from '../support/wallet-session.js';

// Secrets are shown once, to whoever made them, and kept nowhere in the clear (issue 32): a scripted run against the
// built server with `--log` makes every kind of secret the sandbox hands out (a platform's and an API token's client
// secret, a device code and the agent's access token, a card's number and CVV and its reveal URL, a KYC link, a TOTP
// secret and its recovery codes, a liveness token, a wallet's mnemonic, a delegated key), then looks for each value
// in every place others read: the snapshot, every event, every list, the error answers that name the credential, and
// the server's request log.

let server: BuiltServer;
let log = '';
let client: RailyardClient;
let call: RawCall;
const secrets = new Map<string, string>();

beforeAll(async () => {
  server = await startBuiltServer(['--clock', 'virtual', '--log'], { RAILYARD_CLIENT_ID: 'secrets-root', RAILYARD_CLIENT_SECRET: 'secrets-root-secret-0123456789' });
  server.child.stdout!.on('data', (chunk) => (log += chunk));
  server.child.stderr!.on('data', (chunk) => (log += chunk));
  const transport = { raw: (path: string, init: RequestInit) => fetch(`${server.baseUrl}${path}`, init) };
  const root = createClient({ baseUrl: server.baseUrl, clientId: 'secrets-root', clientSecret: 'secrets-root-secret-0123456789' });
  const platform = await root.sandbox.platforms.create({ name: 'secrets', regulated: true }, { idempotencyKey: 'platform-1' });
  secrets.set("a platform's client secret", platform.clientSecret);
  client = root.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
  call = rawCaller(transport, platform);

  const token = await client.tokens.create({ name: 'payouts', permissions: ['TRANSACT'] });
  secrets.set("an API token's client secret", token.clientSecret);

  const ada = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com', currencies: ['USD', 'USDB'] });
  const accounts = (await client.internalAccounts.list({ customerId: ada.id })).data;
  const usdAccount = accounts.find((a) => a.type !== 'EMBEDDED_WALLET')!;
  const walletAccount = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!;

  const policy = { permissions: ['VIEW_TRANSACTIONS' as const, 'CREATE_QUOTES' as const], defaultExecutionMode: 'AUTO' as const, spendingLimits: { currency: 'USD', perTransactionLimit: 100 } };
  const { deviceCode } = await client.agents.create({ name: 'bot', customerId: ada.id, policy });
  secrets.set('a device code', deviceCode.code);
  const redeemed = (await rawCaller(transport)('POST', `/agents/device-codes/${deviceCode.code}/redeem`, { headers: { 'idempotency-key': 'redeem-1' } })).json;
  secrets.set("an agent's access token", redeemed.accessToken);
  const later = await client.agents.create({ name: 'later', customerId: ada.id, policy });
  const regenerated = await client.agents.regenerateDeviceCode(later.agent.id);
  secrets.set('a regenerated device code', regenerated.code);

  const card = await client.cards.create({ cardholderId: ada.id, form: 'VIRTUAL', fundingSources: [usdAccount.id], platformCardId: 'secrets-card' });
  const { panEmbedUrl } = await client.cards.reveal(card.id);
  secrets.set("a reveal's URL", panEmbedUrl);
  secrets.set("a reveal's token", decodeURIComponent(panEmbedUrl.split('/').pop()!));
  const page = await (await fetch(panEmbedUrl)).text();
  secrets.set("a card's number", /id="pan">([\d ]+)</.exec(page)![1]!.replace(/ /g, ''));
  // Three digits turn up anywhere (ids, times): the CVV is looked for as a field of the state instead.
  expect(/id="cvv">(\d{3})</.test(page)).toBe(true);

  const hedy = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Hedy Lamarr001' });
  const link = await client.customers.createKycLink(hedy.id, { redirectUri: 'https://platform.example/done' });
  secrets.set('a KYC link', link.kycUrl);

  const marie = await client.customers.create({
    customerType: 'INDIVIDUAL', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR', email: 'marie@example.com', phoneNumber: '+33612345678', currencies: ['EUR'],
    address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
  });
  const totp = await client.sca.factors.startEnrollment(marie.id, { type: 'TOTP' });
  if (totp.type !== 'TOTP') throw new Error('a TOTP enrollment answers its secret');
  secrets.set('a TOTP secret', totp.secret);
  secrets.set('a TOTP secret in base32', totp.secretBase32Encoded);
  const confirmed = await client.sca.factors.confirmEnrollment(marie.id, { type: 'TOTP', secret: totp.secret, code: '123456' });
  if (confirmed.type === 'TOTP') secrets.set('a recovery code', confirmed.recoveryCodes[0]!);
  const reset = await client.sca.resets.start(marie.id, { factor: 'TOTP' });
  if (reset.livenessAccessToken !== undefined) secrets.set('a liveness access token', reset.livenessAccessToken);

  const session = await signInWithEmailCode(client, walletAccount.id);
  const exportKey = await DecryptionKey.generate();
  const exported = await client.internalAccounts.export(walletAccount.id, { clientPublicKey: exportKey.publicKeyUncompressedHex }, { stamper: session });
  const { publicKeyHex } = await client.sandbox.enclaveKey();
  secrets.set("a wallet's mnemonic", await decryptExportBundle(exported.encryptedWalletCredentials, exportKey, publicKeyHex));
  const walletCard = await client.cards.create({ cardholderId: ada.id, form: 'VIRTUAL', fundingSources: [walletAccount.id], platformCardId: 'wallet-card' });
  await client.auth.delegatedKeys.create({ cardId: walletCard.id, internalAccountId: walletAccount.id, nickname: 'wallet card' }, { stamper: session });

  // Error answers that name a credential: a redeemed code again, a refused token, an unknown code's status.
  await rawCaller(transport)('POST', `/agents/device-codes/${deviceCode.code}/redeem`);
  await rawCaller(transport, { clientId: token.clientId, clientSecret: `${token.clientSecret}x` })('GET', '/customers');
  await call('GET', `/agents/device-codes/${regenerated.code}x/status`);
}, 180_000);
afterAll(() => server.stop());

/** Every page of a list. */
async function everyPage(path: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = (await call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json;
    rows.push(...page.data);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  return rows;
}

it('keeps no secret it handed out in the snapshot, the events, the lists, error answers or the request log', async ({ task }) => {
  expect(secrets.size).toBeGreaterThanOrEqual(14);
  const places: Record<string, string> = {
    snapshot: (await call('GET', '/_sandbox/snapshot')).text,
    events: JSON.stringify(await everyPage('/_sandbox/events')),
    lists: JSON.stringify(await Promise.all(['/tokens', '/agents', '/cards', '/customers', '/transactions', '/agents/approvals'].map(everyPage))),
    'request log': log,
  };
  // The error answers the setup provoked are in the log's requests; their bodies are checked here once more.
  places['error answers'] = JSON.stringify([
    (await rawCaller({ raw: (path, init) => fetch(`${server.baseUrl}${path}`, init) })('POST', `/agents/device-codes/${secrets.get('a device code')}/redeem`)).json,
    (await call('GET', `/agents/device-codes/${secrets.get('a regenerated device code')}x/status`)).json,
  ]);
  const found: string[] = [];
  for (const [what, value] of secrets) {
    for (const [place, text] of Object.entries(places)) if (text.includes(value)) found.push(`${what} in the ${place}`);
  }
  expect(places['request log']).toContain('/agents/device-codes/{code}/redeem');
  // A field of the snapshot named for a secret holds it sealed, or does not exist (a reply kept for an Idempotency-Key
  // keeps the secrets it answered sealed, for the same credential's retry).
  for (const field of ['privateKeyHex', 'clientSecret', 'accessToken', 'kycUrl', 'panEmbedUrl', 'cvv', 'pan', 'mnemonic']) {
    expect(places.snapshot).not.toMatch(new RegExp(`\\\\?"${field}\\\\?":(?!\\\\?"sealed:v1:)`));
  }
  recordFigures(task, { 'secrets made': secrets.size, 'places scanned': Object.keys(places).length, 'secrets found': found.length });
  expect(found).toEqual([]);
});

