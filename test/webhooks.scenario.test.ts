import { afterEach, beforeEach, expect, it } from 'vitest';
import { WebhookVerificationError, type RailyardClient, type SandboxEvent } from '@railyard/client';
import { describeOverTransports, type TransportScope } from './support/transports.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

// Webhooks over every transport, delivered for real: each engine (in process with the global fetch, behind msw, and the
// standalone server in a child process) POSTs to a node:http receiver on 127.0.0.1, which verifies every delivery with
// client.webhooks.unwrap. A full onboarding and payout, retries on the virtual clock, and tampering.

/** Every event of the platform, oldest first. */
async function allEvents(client: RailyardClient): Promise<SandboxEvent[]> {
  const events: SandboxEvent[] = [];
  for await (const event of client.sandbox.events.list({ limit: 100 })) events.push(event);
  return events.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

/**
 * Waits (in real time) until `done` holds for the platform's events. Attempts run asynchronously after the call that
 * caused them: in process the engine says when none is under way; over HTTP the events are polled.
 */
async function until(scope: TransportScope, done: (events: SandboxEvent[]) => boolean, what: string): Promise<SandboxEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await scope.transport.engine?.webhooks.settled();
    const events = await allEvents(scope.client);
    if (done(events)) return events;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}: ${JSON.stringify(events.map((e) => [e.type, e.delivery, e.deliveries.length]))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const allDelivered = (events: SandboxEvent[]) => events.length > 0 && events.every((e) => e.delivery?.status === 'DELIVERED');

const beneficiary = { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Ada Lovelace' };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

describeOverTransports('webhooks', (scope) => {
  let receiver: Receiver;
  beforeEach(async () => {
    const { publicKeyPem } = await scope.client.sandbox.webhookKey();
    receiver = await startReceiver(scope.client, publicKeyPem);
  });
  afterEach(async () => {
    await scope.transport.engine?.webhooks.settled();
    await receiver.close();
  });

  it('a loopback receiver gets and verifies every event of an onboarding and a payout, each resource in order', async () => {
    const { client } = scope;
    await client.config.update({ webhookEndpoint: receiver.url });

    // Onboarding on an unregulated platform: submit, fix what the verification asks for, resubmit, review.
    const terms = await client.customers.endUserTerms();
    const ada = await client.customers.create({
      customerType: 'INDIVIDUAL', platformCustomerId: 'webhooks-ada', fullName: 'Ada Lovelace',
      endUserTermsConsent: { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.7', termsVersion: terms.version, acceptanceMethod: 'CHECKBOX' },
    });
    expect(ada.customerType === 'INDIVIDUAL' && ada.kycStatus).toBe('UNVERIFIED');
    await client.verifications.create({ customerId: ada.id });
    await client.customers.update(ada.id, {
      customerType: 'INDIVIDUAL', birthDate: '1990-12-10', nationality: 'US',
      address: { line1: '12 St James Square', city: 'New York', postalCode: '10001', country: 'US' }, idType: 'SSN', identifier: '123-45-6789',
    });
    await client.documents.upload({
      file: PNG, fileName: 'passport.png', documentHolder: ada.id, documentType: 'PASSPORT', country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State',
    });
    await client.verifications.create({ customerId: ada.id });
    await client.sandbox.clock.advance(5_000);
    const reviewed = await client.customers.retrieve(ada.id);
    expect(reviewed.customerType === 'INDIVIDUAL' && reviewed.kycStatus).toBe('APPROVED');

    // A payout: fund, quote, execute, settle.
    const [usd] = (await client.internalAccounts.list({ customerId: ada.id, currency: 'USD' })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 50_000);
    const bank = await client.externalAccounts.create({
      customerId: ada.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary },
    });
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 25_000,
    });
    await client.quotes.execute(quote.id);
    expect((await client.transactions.waitFor(quote.transactionId, { advanceClock: true })).status).toBe('COMPLETED');

    const events = await until(scope, allDelivered, 'every event is delivered');
    // Every delivery verified, and the receiver got each event exactly once, as the sandbox recorded it.
    expect(receiver.deliveries.filter((d) => d.error !== undefined)).toEqual([]);
    expect(receiver.deliveries.every((d) => d.headers['content-type'] === 'application/json')).toBe(true);
    const received = receiver.events();
    expect(received.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
    for (const event of events) {
      const envelope = { id: event.id, type: event.type, timestamp: event.timestamp, data: event.data };
      const delivery = receiver.deliveries.find((d) => d.event?.id === event.id)!;
      expect(JSON.parse(delivery.rawBody.toString('utf8'))).toEqual(envelope); // the bytes on the wire
      // The typed event is the envelope as the contract parses it (which may fill in documented defaults).
      expect(delivery.event).toMatchObject(envelope);
      expect(event.deliveries.map((d) => d.status)).toEqual([200]);
    }
    const types = received.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining([
      'TEST', 'VERIFICATION.RESOLVE_ERRORS', 'VERIFICATION.APPROVED', 'CUSTOMER.KYC_APPROVED', 'INCOMING_PAYMENT.COMPLETED',
      'INTERNAL_ACCOUNT.BALANCE_UPDATED', 'OUTGOING_PAYMENT.COMPLETED',
    ]));

    // Typed by type: the payout's events carry the transaction, the customer's the customer.
    const completed = received.find((e) => e.type === 'OUTGOING_PAYMENT.COMPLETED');
    if (completed?.type !== 'OUTGOING_PAYMENT.COMPLETED') throw new Error('no OUTGOING_PAYMENT.COMPLETED');
    expect(completed.data).toMatchObject({ id: quote.transactionId, quoteId: quote.id, sentAmount: { amount: 25_000 } });
    const approved = received.find((e) => e.type === 'CUSTOMER.KYC_APPROVED');
    expect(approved?.type === 'CUSTOMER.KYC_APPROVED' && approved.data.id).toBe(ada.id);

    // Each resource's events arrive in the order they were emitted.
    const resourceOf = (e: { data: unknown }) => (e.data as { id?: string }).id;
    for (const resource of new Set(events.map(resourceOf))) {
      expect(received.filter((e) => resourceOf(e) === resource).map((e) => e.id)).toEqual(events.filter((e) => resourceOf(e) === resource).map((e) => e.id));
    }
  });

  it('a receiver that fails its first attempts gets the event once it recovers, on the virtual clock, with the same id', async () => {
    const { client } = scope;
    await client.config.update({ webhookEndpoint: receiver.url });
    await until(scope, allDelivered, 'the TEST event is delivered');
    const FAILURES = 3;
    receiver.answer = (event, attempt) => (event.type === 'TEST' || attempt > FAILURES ? 200 : 503);

    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 1_000);
    const isRetried = (e: SandboxEvent) => e.type !== 'TEST';
    const attemptsAre = (n: number) => (events: SandboxEvent[]) =>
      events.filter(isRetried).length === 2 && events.filter(isRetried).every((e) => e.deliveries.length === n && (n > FAILURES || e.delivery?.nextAttemptAt));

    // Attempt 1 fails at once; the retries follow 30 s later, then doubling: 60 s, 120 s.
    let events = await until(scope, attemptsAre(1), 'the first attempts failed');
    let now = Date.parse((await client.sandbox.clock.get()).now);
    for (const [attempt, wait] of [[2, 30_000], [3, 60_000], [4, 120_000]] as const) {
      for (const event of events.filter(isRetried)) {
        expect(event.delivery).toMatchObject({ status: 'PENDING', nextAttemptAt: new Date(now + wait).toISOString() });
      }
      now = Date.parse((await client.sandbox.clock.advance(wait)).now);
      events = await until(scope, attemptsAre(attempt), `attempt ${attempt} ran`);
    }

    for (const event of events.filter(isRetried)) {
      expect(event.delivery?.status).toBe('DELIVERED');
      expect(event.deliveries.map((d) => d.status)).toEqual([503, 503, 503, 200]);
      // Every attempt carried the same event (same id, same bytes), each verified by the receiver.
      const attempts = receiver.deliveries.filter((d) => d.event?.id === event.id);
      expect(attempts.map((d) => d.status)).toEqual([503, 503, 503, 200]);
      expect(new Set(attempts.map((d) => d.rawBody.toString())).size).toBe(1);
    }
    expect(events.filter(isRetried).map((e) => e.type).sort()).toEqual(['INCOMING_PAYMENT.COMPLETED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED']);
    expect(receiver.deliveries.filter((d) => d.error !== undefined)).toEqual([]);
  });

  it('detects a change to any byte of a real delivery, body or signature; the untouched delivery verifies', async () => {
    const { client } = scope;
    const { publicKeyPem } = await client.sandbox.webhookKey();
    await client.config.update({ webhookEndpoint: receiver.url });
    await until(scope, allDelivered, 'the TEST event is delivered');
    const [delivery] = receiver.deliveries;
    expect(delivery?.event?.type).toBe('TEST');
    const header = delivery!.headers['x-service-signature'] as string;
    await expect(client.webhooks.verify(delivery!.rawBody, header, publicKeyPem)).resolves.toBeUndefined();

    const reasons = new Set<string>();
    for (let i = 0; i < delivery!.rawBody.length; i++) {
      for (const bit of [0x01, 0x80]) {
        const body = Buffer.from(delivery!.rawBody);
        body[i]! ^= bit;
        const error = await client.webhooks.verify(body, header, publicKeyPem).then(() => undefined, (e: unknown) => e);
        expect(error, `body byte ${i}`).toBeInstanceOf(WebhookVerificationError);
        reasons.add((error as WebhookVerificationError).reason);
      }
    }
    const { s } = JSON.parse(header) as { s: string };
    const signature = Buffer.from(s, 'base64');
    for (let i = 0; i < signature.length; i++) {
      const changed = Buffer.from(signature);
      changed[i]! ^= 0x01;
      const error = await client.webhooks.verify(delivery!.rawBody, JSON.stringify({ v: '1', s: changed.toString('base64') }), publicKeyPem).then(() => undefined, (e: unknown) => e);
      expect(error, `signature byte ${i}`).toBeInstanceOf(WebhookVerificationError);
      reasons.add((error as WebhookVerificationError).reason);
    }
    expect([...reasons].sort()).toEqual(['MALFORMED_HEADER', 'SIGNATURE_MISMATCH']);

    // Over the wire too: the receiver answers 401 to a changed body.
    const before = receiver.deliveries.length;
    const tampered = await fetch(receiver.url, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': header },
      body: delivery!.rawBody.toString().replace('"TEST"', '"TEXT"'),
    });
    expect(tampered.status).toBe(401);
    expect((receiver.deliveries[before]!.error as WebhookVerificationError).reason).toBe('SIGNATURE_MISMATCH');
  });
});
