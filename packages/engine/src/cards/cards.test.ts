import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { sequentialIds, type IdGenerator } from '../core/ids.js';
import { callApi, type Json } from '../testing/requests.js';
import { CARD_ISSUANCE } from '../sandbox/magic-values.js';
import { REVEAL_TTL_MS } from './cards.js';

// Cards (SPEC §3.6; REFERENCE §15): issuance and its suffix outcomes, the refusals, the state machine, lists and reveal.

/** Ids as a counter gives them, except that the next ids of a type can be made to end in chosen characters. */
function steerableIds(): IdGenerator & { next(type: string, ...suffixes: string[]): void } {
  const base = sequentialIds();
  const wanted = new Map<string, string[]>();
  const ids = ((type) => {
    const id = base(type);
    const suffix = wanted.get(type)?.shift();
    return suffix === undefined ? id : `${id.slice(0, -suffix.length)}${suffix}`;
  }) as IdGenerator & { next(type: string, ...suffixes: string[]): void };
  ids.next = (type, ...suffixes) => wanted.set(type, [...(wanted.get(type) ?? []), ...suffixes]);
  return ids;
}

let ids: ReturnType<typeof steerableIds>;
let engine: Engine;
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
beforeEach(() => {
  ids = steerableIds();
  engine = createEngine({ platform: { regulated: true }, ids });
});

/** A KYC-approved customer (regulated platform) and their accounts, by currency. */
async function cardholder(fullName = 'Card Holder', currencies = ['USD'], extra: Json = {}) {
  const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName, currencies, ...extra })).body;
  const accounts = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data as Json[];
  const account = (code: string) => accounts.find((a) => a.balance.currency.code === code)!.id as string;
  return { customer, account };
}

const issue = (cardholderId: string, fundingSources: string[], extra: Json = {}) =>
  call('POST', '/cards', { cardholderId, form: 'VIRTUAL', fundingSources, ...extra });
const eventsOf = (type: string) => engine.sandbox().events({ limit: 100, type }).data;

describe('issuance', () => {
  it('answers 201 PROCESSING, then the issuer provisions the card right after: ACTIVE, VISA, last4 from the suffix, expiry in 3 years', async () => {
    const { customer, account } = await cardholder();
    const created = await issue(customer.id, [account('USD')], { platformCardId: 'emp-042', maxSpendPerTransaction: 5_000 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^Card:/), cardholderId: customer.id, platformCardId: 'emp-042', state: 'PROCESSING', stateReason: null,
      form: 'VIRTUAL', last4: '0042', fundingSources: [account('USD')], maxSpendPerTransaction: 5_000, currency: 'USD',
    });
    expect(created.body).not.toHaveProperty('brand');
    const card = (await call('GET', `/cards/${created.body.id}`)).body;
    const now = new Date(engine.clock.now());
    expect(card).toMatchObject({ state: 'ACTIVE', brand: 'VISA', expMonth: now.getUTCMonth() + 1, expYear: now.getUTCFullYear() + 3 });
    // The fields keep their order in every version of the card.
    expect(Object.keys(card).slice(0, 8)).toEqual(['id', 'cardholderId', 'platformCardId', 'state', 'stateReason', 'brand', 'form', 'last4']);
    expect(eventsOf('CARD.STATE_CHANGE').map((e) => (e.data as Json).state)).toEqual(['ACTIVE']);
  });

  it('gives last4 four digits whatever platformCardId ends with', async () => {
    const { customer, account } = await cardholder();
    const last4 = async (platformCardId: string) => (await issue(customer.id, [account('USD')], { platformCardId })).body.last4;
    for (const platformCardId of ['x', 'emp-42', 'emp-7', '', '1']) expect(await last4(platformCardId || 'y')).toMatch(/^\d{4}$/);
    expect([await last4('emp-042'), await last4('emp-123')]).toEqual(['0042', '0123']);
  });

  it('generates a platformCardId when none is given, and then reads the trigger from the cardholder id', async () => {
    ids.next('Customer', '002');
    const { customer, account } = await cardholder();
    const created = (await issue(customer.id, [account('USD')])).body;
    expect(created.platformCardId).toMatch(/^card_[0-9a-f]{12}$/);
    expect((await call('GET', `/cards/${created.id}`)).body).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED' });
  });

  it('follows the issuance suffixes: 001 stays PROCESSING, 002 is rejected, 005 is ACTIVE after 30 s', async () => {
    const { customer, account } = await cardholder();
    const [waiting, rejected, slow] = (await Promise.all(['x-001', 'x-002', 'x-005'].map(async (platformCardId) => (await issue(customer.id, [account('USD')], { platformCardId })).body))) as [Json, Json, Json];
    expect(CARD_ISSUANCE['005'].afterMs).toBe(30_000);
    engine.sandbox().advance(29_999);
    const state = async (id: string) => (await call('GET', `/cards/${id}`)).body;
    expect(await state(waiting.id)).toMatchObject({ state: 'PROCESSING', stateReason: null });
    expect(await state(rejected.id)).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED' });
    expect((await state(slow.id)).state).toBe('PROCESSING');
    engine.sandbox().advance(1);
    expect((await state(slow.id)).state).toBe('ACTIVE');
    engine.sandbox().advance(24 * 3_600_000);
    expect((await state(waiting.id)).state).toBe('PROCESSING');
  });

  it('issues on USDB embedded wallets: the card transacts in USD', async () => {
    const { customer, account } = await cardholder('Wallet Holder', ['USDB'], { email: 'holder@example.com' });
    expect((await issue(customer.id, [account('USDB')])).body).toMatchObject({ state: 'PROCESSING', currency: 'USD' });
  });
});

describe('refusals', () => {
  it('400 CARDHOLDER_KYC_NOT_APPROVED for a cardholder who is not APPROVED', async () => {
    const { customer, account } = await cardholder('Pending Person001');
    expect(await issue(customer.id, [account('USD')])).toMatchObject({ status: 400, body: { code: 'CARDHOLDER_KYC_NOT_APPROVED' } });
  });

  it('404 USER_NOT_FOUND for an unknown cardholder, 410 for a deleted one', async () => {
    const { customer, account } = await cardholder();
    expect((await issue('Customer:00000000-0000-4000-8000-0000000000ff', [account('USD')])).body.code).toBe('USER_NOT_FOUND');
    await call('DELETE', `/customers/${customer.id}`);
    expect((await issue(customer.id, [account('USD')])).status).toBe(410);
  });

  it('400 FUNDING_SOURCE_INELIGIBLE listing each account refused: another customer\'s, a non-card currency, unknown', async () => {
    const { customer, account } = await cardholder('Card Holder', ['USD', 'EUR', 'USDB'], { email: 'h@example.com' });
    const other = await cardholder('Other Person');
    const refused = await issue(customer.id, [account('USD'), other.account('USD'), account('EUR'), 'InternalAccount:00000000-0000-4000-8000-0000000000ff']);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('FUNDING_SOURCE_INELIGIBLE');
    expect(refused.body.details.errors.map((e: Json) => e.field)).toEqual(['fundingSources.1', 'fundingSources.2', 'fundingSources.3']);
    // A USDB wallet and a USD account fund one card together: both transact in USD.
    expect((await issue(customer.id, [account('USDB'), account('USD')])).body).toMatchObject({ fundingSources: [account('USDB'), account('USD')], currency: 'USD' });
  });

  it('400 FUNDING_SOURCE_INELIGIBLE for accounts whose id ends in 002 (balance check failed) or 003 (closed)', async () => {
    ids.next('InternalAccount', '002');
    const failing = await cardholder();
    ids.next('InternalAccount', '003');
    const closed = await cardholder();
    expect((await issue(failing.customer.id, [failing.account('USD')])).body).toMatchObject({ code: 'FUNDING_SOURCE_INELIGIBLE', message: expect.stringContaining('balance check') });
    expect((await issue(closed.customer.id, [closed.account('USD')])).body).toMatchObject({ code: 'FUNDING_SOURCE_INELIGIBLE', message: expect.stringContaining('closed') });
  });

  it('400 INVALID_INPUT listing every invalid field at once, and nothing stored', async () => {
    const refused = await call('POST', '/cards', { cardholderId: 'nope', form: 'PHYSICAL', fundingSources: [], maxSpendPerTransaction: 0 });
    expect(refused.status).toBe(400);
    expect(refused.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['cardholderId', 'form', 'fundingSources', 'maxSpendPerTransaction']);
    expect((await call('GET', '/cards')).body.totalCount).toBe(0);
  });

  it('takes a static 3-D Secure password for an EEA cardholder only (it is never stored)', async () => {
    const us = await cardholder();
    expect((await issue(us.customer.id, [us.account('USD')], { threeDSecurePassword: 'hunter22' })).body).toMatchObject({
      code: 'INVALID_INPUT', details: { errors: [{ field: 'threeDSecurePassword' }] },
    });
    const fr = await cardholder('Marie Curie', ['EUR', 'USD'], {
      birthDate: '1867-11-07', nationality: 'FR', email: 'marie@example.com', phoneNumber: '+33612345678',
      address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
    });
    const card = await issue(fr.customer.id, [fr.account('USD')], { threeDSecurePassword: 'hunter22' });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    expect(JSON.stringify(engine.sandbox().snapshot())).not.toContain('hunter22');
  });

  it('409 CARD_LIMIT_REACHED past the live-card limits set on the control plane; a closed card frees its place', async () => {
    const { customer, account } = await cardholder();
    const limits = await call('PUT', '/_sandbox/limits', { liveCards: { perCardholder: 1 } });
    expect(limits.body).toEqual({ dailyVolume: {}, liveCards: { perPlatform: 10_000, perCardholder: 1 } });
    const first = (await issue(customer.id, [account('USD')])).body;
    expect(await issue(customer.id, [account('USD')])).toMatchObject({ status: 409, body: { code: 'CARD_LIMIT_REACHED', details: { scope: 'cardholder', limit: 1 } } });
    await call('PATCH', `/cards/${first.id}`, { state: 'CLOSED' });
    expect((await issue(customer.id, [account('USD')])).status).toBe(201);
    await call('PUT', '/_sandbox/limits', { liveCards: { perPlatform: 1, perCardholder: null } });
    const other = await cardholder('Second Holder');
    expect((await issue(other.customer.id, [other.account('USD')])).body).toMatchObject({ code: 'CARD_LIMIT_REACHED', details: { scope: 'platform' } });
  });

  it('501 NOT_IMPLEMENTED for every card operation on a platform created without cards', async () => {
    const platform = engine.createPlatform({ cards: false });
    const as = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body, {}, platform);
    for (const [method, path, body] of [
      ['POST', '/cards', { cardholderId: 'x', form: 'VIRTUAL', fundingSources: [] }], ['GET', '/cards', undefined],
      ['GET', '/cards/Card:00000000-0000-4000-8000-000000000001', undefined], ['PATCH', '/cards/Card:00000000-0000-4000-8000-000000000001', { state: 'FROZEN' }],
      ['POST', '/cards/Card:00000000-0000-4000-8000-000000000001/reveal', undefined],
    ] as const) {
      expect(await as(method, path, body), `${method} ${path}`).toMatchObject({ status: 501, body: { code: 'NOT_IMPLEMENTED' } });
    }
  });
});

describe('the card state machine (SPEC §3.6)', () => {
  async function activeCard() {
    const holder = await cardholder();
    const card = (await issue(holder.customer.id, [holder.account('USD')])).body;
    return { ...holder, card };
  }
  const patch = (id: string, body: Json) => call('PATCH', `/cards/${id}`, body);

  it('ACTIVE → FROZEN → ACTIVE → CLOSED, each announced with the card', async () => {
    const { card } = await activeCard();
    expect((await patch(card.id, { state: 'FROZEN' })).body.state).toBe('FROZEN');
    expect((await patch(card.id, { state: 'ACTIVE' })).body.state).toBe('ACTIVE');
    expect((await patch(card.id, { state: 'CLOSED' })).body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });
    expect(eventsOf('CARD.STATE_CHANGE').map((e) => (e.data as Json).state).reverse()).toEqual(['ACTIVE', 'FROZEN', 'ACTIVE', 'CLOSED']);
    // The card stays stored for audit.
    expect((await call('GET', `/cards/${card.id}`)).body.state).toBe('CLOSED');
  });

  it('FROZEN → CLOSED is allowed; any other move is 409 INVALID_STATE_TRANSITION, and changes nothing', async () => {
    const { card } = await activeCard();
    expect((await patch(card.id, { state: 'ACTIVE' })).body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION', details: { from: 'ACTIVE', to: 'ACTIVE' } });
    await patch(card.id, { state: 'FROZEN' });
    expect((await patch(card.id, { state: 'FROZEN' })).body.code).toBe('INVALID_STATE_TRANSITION');
    expect((await patch(card.id, { state: 'CLOSED' })).body.state).toBe('CLOSED');
    const waiting = (await issue((await cardholder('Another One')).customer.id, [(await call('GET', '/customers/internal-accounts?limit=1')).body.data[0].id], { platformCardId: 'w-001' })).body;
    expect((await patch(waiting.id, { state: 'ACTIVE' })).body).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { from: 'PROCESSING' } });
    expect((await patch(waiting.id, { state: 'CLOSED' })).body.code).toBe('INVALID_STATE_TRANSITION');
    expect((await call('GET', `/cards/${waiting.id}`)).body.state).toBe('PROCESSING');
  });

  it('a closed card: CLOSED again is 409 CARD_ALREADY_CLOSED, any other change 409 CARD_NOT_MUTABLE', async () => {
    const { card, account } = await activeCard();
    await patch(card.id, { state: 'CLOSED' });
    expect((await patch(card.id, { state: 'CLOSED' })).body.code).toBe('CARD_ALREADY_CLOSED');
    expect((await patch(card.id, { state: 'ACTIVE' })).body.code).toBe('CARD_NOT_MUTABLE');
    expect((await patch(card.id, { maxSpendPerTransaction: 10 })).body.code).toBe('CARD_NOT_MUTABLE');
    expect((await patch(card.id, { fundingSources: [account('USD')] })).body.code).toBe('CARD_NOT_MUTABLE');
  });

  it('replaces the funding list (CARD.FUNDING_SOURCE_CHANGE) and sets or clears the limit; checks them as at issuance', async () => {
    const { card, customer } = await activeCard();
    const second = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
    const changed = await patch(card.id, { fundingSources: [second], maxSpendPerTransaction: 2_500 });
    expect(changed.body).toMatchObject({ fundingSources: [second], maxSpendPerTransaction: 2_500, state: 'ACTIVE' });
    expect(eventsOf('CARD.FUNDING_SOURCE_CHANGE')).toHaveLength(1);
    expect((await patch(card.id, { maxSpendPerTransaction: null })).body.maxSpendPerTransaction).toBeNull();
    expect(eventsOf('CARD.FUNDING_SOURCE_CHANGE')).toHaveLength(1);
    const stranger = await cardholder('Stranger Danger');
    expect((await patch(card.id, { fundingSources: [stranger.account('USD')] })).body.code).toBe('FUNDING_SOURCE_INELIGIBLE');
  });

  it('400 for an empty change, an empty funding list, and a funding list or limit sent with CLOSED', async () => {
    const { card, account } = await activeCard();
    expect((await patch(card.id, {})).body.code).toBe('INVALID_INPUT');
    expect((await patch(card.id, { fundingSources: [] })).body.details.errors[0].field).toBe('fundingSources');
    const closing = await patch(card.id, { state: 'CLOSED', fundingSources: [account('USD')], maxSpendPerTransaction: 5 });
    expect(closing.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['fundingSources', 'maxSpendPerTransaction']);
    expect((await call('GET', `/cards/${card.id}`)).body.state).toBe('ACTIVE');
  });

  it('404 for an unknown card', async () => {
    expect((await patch('Card:00000000-0000-4000-8000-0000000000ff', { state: 'FROZEN' })).status).toBe(404);
    expect((await call('GET', '/cards/Card:00000000-0000-4000-8000-0000000000ff')).body.code).toBe('REFERENCE_NOT_FOUND');
  });
});

describe('GET /cards', () => {
  it('filters by cardholder, funding account, platformCardId and state; pages newest first or oldest first', async () => {
    const ada = await cardholder('Ada Lovelace', ['USD', 'USDB'], { email: 'ada@example.com' });
    const bob = await cardholder('Bob Builder');
    const a1 = (await issue(ada.customer.id, [ada.account('USD')], { platformCardId: 'ada-1' })).body;
    const a2 = (await issue(ada.customer.id, [ada.account('USDB')], { platformCardId: 'ada-2' })).body;
    const b1 = (await issue(bob.customer.id, [bob.account('USD')], { platformCardId: 'bob-1' })).body;
    await call('PATCH', `/cards/${a2.id}`, { state: 'FROZEN' });
    const ids = async (query: string) => (await call('GET', `/cards?${query}`)).body.data.map((c: Json) => c.id);
    expect(await ids('')).toEqual([b1.id, a2.id, a1.id]);
    expect(await ids('sortOrder=asc')).toEqual([a1.id, a2.id, b1.id]);
    expect(await ids(`cardholderId=${ada.customer.id}`)).toEqual([a2.id, a1.id]);
    expect(await ids(`accountId=${ada.account('USDB')}`)).toEqual([a2.id]);
    expect(await ids('platformCardId=bob-1')).toEqual([b1.id]);
    expect(await ids('state=FROZEN')).toEqual([a2.id]);
    expect(await ids(`state=ACTIVE&cardholderId=${ada.customer.id}`)).toEqual([a1.id]);
    const first = (await call('GET', '/cards?limit=2')).body;
    expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
    expect((await call('GET', `/cards?limit=2&cursor=${first.nextCursor}`)).body).toMatchObject({ data: [{ id: a1.id }], hasMore: false, totalCount: 3 });
    expect((await call('GET', '/cards?state=SHREDDED')).body.details.errors[0].field).toBe('state');
  });
});

describe('reveal (REFERENCE §15.4)', () => {
  it('gives a URL of a page with a Luhn-valid number ending in last4, for 5 minutes; each reveal is recorded', async () => {
    const { customer, account } = await cardholder();
    const card = (await issue(customer.id, [account('USD')], { platformCardId: 'emp-777' })).body;
    const revealed = await call('POST', `/cards/${card.id}/reveal`);
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual({
      panEmbedUrl: expect.stringMatching(/^http:\/\/sandbox\.test\/_sandbox\/hosted\/Platform%3A[^/]+\/cards\/[A-Za-z0-9_-]{32}$/),
      expiresAt: new Date(engine.clock.now() + REVEAL_TTL_MS).toISOString(),
    });
    const page = await engine.fetch(new Request(revealed.body.panEmbedUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *');
    const text = await page.text();
    const pan = /id="pan">([\d ]+)</.exec(text)![1]!.replace(/ /g, '');
    expect(pan).toMatch(/^4\d{11}0777$/);
    expect(luhn(pan)).toBe(true);
    expect(text).toMatch(/id="cvv">\d{3}</);
    // The PAN never appears on the card, in events or in the platform's state.
    expect(JSON.stringify(engine.sandbox().snapshot())).not.toContain(pan);
    const audit = (engine.sandbox().snapshot().collections.cardReveals as Json[])[0];
    expect(audit).toMatchObject({ cardId: card.id, revealedBy: engine.defaultPlatform.clientId });
    engine.sandbox().advance(REVEAL_TTL_MS);
    expect((await engine.fetch(new Request(revealed.body.panEmbedUrl))).status).toBe(404);
  });

  it('404 for an unknown card', async () => {
    expect((await call('POST', '/cards/Card:00000000-0000-4000-8000-0000000000ff/reveal')).status).toBe(404);
  });
});

/** What a reveal page shows. */
async function revealed(on: Engine, cardId: string): Promise<{ pan: string; cvv: string; url: string }> {
  const answer = await callApi(on, 'POST', `/cards/${cardId}/reveal`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const page = await on.fetch(new Request(answer.body.panEmbedUrl));
  expect(page.status).toBe(200);
  const text = await page.text();
  return { pan: /id="pan">([\d ]+)</.exec(text)![1]!.replace(/ /g, ''), cvv: /id="cvv">(\d{3})</.exec(text)![1]!, url: answer.body.panEmbedUrl };
}

/** The number and CVV the sandbox used to derive from the card's id and last4 (before they were drawn at random). */
function derivedFromId(card: Json): { pan: string; cvv: string } {
  const digits = Array.from(card.id.replace(/[^0-9a-f]/g, '') as string, (c) => (c >= '0' && c <= '9' ? c : String(c.charCodeAt(0) % 10))).join('');
  const body = `400000${digits.slice(0, 5)}`;
  let adjust = 0;
  while (!luhn(`${body}${adjust}${card.last4}`)) adjust++;
  return { pan: `${body}${adjust}${card.last4}`, cvv: digits.slice(5, 8).padEnd(3, '0') };
}

describe('the card number and CVV (drawn at random, kept sealed, shown on the reveal page only)', () => {
  it('are drawn at random: two cards differ, the same card id and last4 in two engines differ, and neither is derived from the id', async () => {
    const { customer, account } = await cardholder();
    const a = (await issue(customer.id, [account('USD')], { platformCardId: 'emp-042' })).body;
    const b = (await issue(customer.id, [account('USD')], { platformCardId: 'emp-042' })).body;
    const [first, second] = [await revealed(engine, a.id), await revealed(engine, b.id)];
    expect(first.pan).not.toBe(second.pan);
    for (const shown of [first, second]) {
      expect(shown.pan).toMatch(/^400000\d{6}0042$/);
      expect(luhn(shown.pan)).toBe(true);
    }
    expect(first.pan).not.toBe(derivedFromId(a).pan);

    // Another engine with the same ids gives the same card id and last4, and still another number.
    const twin = createEngine({ platform: { regulated: true }, ids: steerableIds() });
    const twinCall = (method: string, path: string, body?: unknown) => callApi(twin, method, path, body);
    const twinHolder = (await twinCall('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Card Holder', currencies: ['USD'] })).body;
    const twinAccount = (await twinCall('GET', `/customers/internal-accounts?customerId=${twinHolder.id}`)).body.data[0].id;
    const twinCard = (await twinCall('POST', '/cards', { cardholderId: twinHolder.id, form: 'VIRTUAL', fundingSources: [twinAccount], platformCardId: 'emp-042' })).body;
    expect(twinCard).toMatchObject({ id: a.id, last4: a.last4 });
    const twinShown = await revealed(twin, twinCard.id);
    expect(twinShown.pan).not.toBe(first.pan);
    expect(twinShown.pan).not.toBe(derivedFromId(twinCard).pan);
    twin.close();
  });

  it('are the same on every reveal, and appear in no answer, event or snapshot', async () => {
    const { customer, account } = await cardholder();
    const card = (await issue(customer.id, [account('USD')], { platformCardId: 'emp-314' })).body;
    const first = await revealed(engine, card.id);
    const again = await revealed(engine, card.id);
    expect(again).toMatchObject({ pan: first.pan, cvv: first.cvv });
    expect(again.url).not.toBe(first.url);
    await call('PATCH', `/cards/${card.id}`, { state: 'FROZEN' });
    const seen = JSON.stringify([
      (await call('GET', `/cards/${card.id}`)).body, (await call('GET', '/cards')).body, (await call('GET', `/cards?cardholderId=${customer.id}`)).body,
      engine.sandbox().events({ limit: 100 }), (await call('GET', '/_sandbox/events?limit=100')).body,
    ]);
    const snapshot = JSON.stringify((await call('GET', '/_sandbox/snapshot')).body);
    for (const text of [seen, snapshot]) expect(text).not.toContain(first.pan);
    // The CVV is three digits, which any text may hold by chance: it is where the number is, sealed with it.
    const [sealed] = (await call('GET', '/_sandbox/snapshot')).body.collections.cardSecrets as Json[];
    expect(sealed).toEqual({ id: card.id, sealed: expect.stringMatching(/^sealed:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/) });
    expect(Object.keys((await call('GET', `/cards/${card.id}`)).body)).not.toEqual(expect.arrayContaining(['pan']));
    expect(JSON.stringify((await call('GET', `/cards/${card.id}`)).body)).not.toMatch(/cvv|"pan"/i);
  });

  it('the reveal token is in the answer only: the state keeps its SHA-256, and the page opens with the token', async () => {
    const { customer, account } = await cardholder();
    const card = (await issue(customer.id, [account('USD')])).body;
    const shown = await revealed(engine, card.id);
    const token = decodeURIComponent(shown.url.slice(shown.url.lastIndexOf('/') + 1));
    const snapshot = JSON.stringify((await call('GET', '/_sandbox/snapshot')).body);
    expect(snapshot).not.toContain(token);
    const [audit] = engine.sandbox().snapshot().collections.cardReveals as Json[];
    expect(audit!.id).toBe(createHash('sha256').update(token).digest('hex'));
    // The hash opens nothing; the token does.
    expect((await engine.fetch(new Request(shown.url.replace(token, audit!.id)))).status).toBe(404);
    expect((await engine.fetch(new Request(shown.url))).status).toBe(200);
  });

  it('a snapshot restored into an engine with another key: the next reveal draws new ones (200), kept from then on', async () => {
    const { customer, account } = await cardholder();
    const card = (await issue(customer.id, [account('USD')], { platformCardId: 'emp-777' })).body;
    const before = await revealed(engine, card.id);
    const snapshot = (await call('GET', '/_sandbox/snapshot')).body;
    const elsewhere = createEngine({ platform: { regulated: true } });
    expect((await callApi(elsewhere, 'POST', '/_sandbox/restore', snapshot)).status).toBe(204);
    // The reveal URL of the other engine does not open here (another platform, and its token is nowhere in the state).
    const drawn = await revealed(elsewhere, card.id);
    expect(drawn.pan).toMatch(/^400000\d{6}0777$/);
    expect(luhn(drawn.pan)).toBe(true);
    expect(drawn.pan).not.toBe(before.pan);
    expect((await revealed(elsewhere, card.id)).pan).toBe(drawn.pan);
    elsewhere.close();
  });

  it('the same secretKey opens them after a restore; a snapshot without them (taken before they were kept) gets new ones', async () => {
    const secretKey = 'an engine secret of at least thirty-two bytes';
    const keyed = createEngine({ platform: { regulated: true }, secretKey });
    const keyedCall = (method: string, path: string, body?: unknown) => callApi(keyed, method, path, body);
    const holder = (await keyedCall('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Card Holder', currencies: ['USD'] })).body;
    const usd = (await keyedCall('GET', `/customers/internal-accounts?customerId=${holder.id}`)).body.data[0].id;
    const card = (await keyedCall('POST', '/cards', { cardholderId: holder.id, form: 'VIRTUAL', fundingSources: [usd] })).body;
    const before = await revealed(keyed, card.id);
    const snapshot = (await keyedCall('GET', '/_sandbox/snapshot')).body;
    const sameKey = createEngine({ platform: { regulated: true }, secretKey });
    expect((await callApi(sameKey, 'POST', '/_sandbox/restore', snapshot)).status).toBe(204);
    expect(await revealed(sameKey, card.id)).toMatchObject({ pan: before.pan, cvv: before.cvv });

    const old = structuredClone(snapshot);
    delete old.collections.cardSecrets;
    expect((await callApi(sameKey, 'POST', '/_sandbox/restore', old)).status).toBe(204);
    const drawn = await revealed(sameKey, card.id);
    expect(drawn.pan).not.toBe(before.pan);
    expect(drawn.pan.slice(-4)).toBe(card.last4);
    keyed.close();
    sameKey.close();
  });

  it('a reveal of an older snapshot, its id the token, is restored under the token\'s hash and its page still opens', async () => {
    const { customer, account } = await cardholder();
    const card = (await issue(customer.id, [account('USD')])).body;
    const shown = await revealed(engine, card.id);
    const token = decodeURIComponent(shown.url.slice(shown.url.lastIndexOf('/') + 1));
    const old = (await call('GET', '/_sandbox/snapshot')).body;
    old.collections.cardReveals[0].id = token;
    expect((await call('POST', '/_sandbox/restore', old)).status).toBe(204);
    expect((await engine.fetch(new Request(shown.url))).status).toBe(200);
    expect(JSON.stringify((await call('GET', '/_sandbox/snapshot')).body)).not.toContain(token);
  });
});

function luhn(number: string): boolean {
  let sum = 0;
  [...number].reverse().forEach((c, i) => {
    let d = Number(c) * (i % 2 === 1 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  });
  return sum % 10 === 0;
}
