import { createPublicKey, generateKeyPairSync, verify as nodeVerify } from 'node:crypto';
import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from '../client.js';
import { RailyardError } from '../core/errors.js';
import {
  WebhookKeyError, WebhookPayloadError, WebhookRawBodyError, WebhookSignatureMalformedError, WebhookSignatureMismatchError,
  WebhookSignatureMissingError, WebhookUnsupportedVersionError, WebhookVerificationError, Webhooks, type TypedWebhookEvent,
  type WebhookEventOf, type WebhookVerificationReason, type KnownWebhookEvent, type UnknownWebhookEvent,
} from './webhooks.js';
import { readVectors } from '../../../../test/support/vectors.js';

// client.webhooks (SPEC §5 item 6, §6; REFERENCE §8): the shared vectors, every header form, every error kind, the
// engine's own signatures, and test headers.

interface Vector { name: string; rawBody: string; header: string; signatureIsHighS?: boolean }
const vectors = readVectors('webhooks.json') as {
  publicKeyPem: string; privateKeyPem: string; headerName: string; cases: Vector[]; mustReject: Vector[]; tolerated: Vector[];
};
const { publicKeyPem, privateKeyPem } = vectors;
const webhooks = new Webhooks();
const [first] = vectors.cases;

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const outcome = await promise.then(() => 'resolved', (error: unknown) => error);
  expect(outcome).toBeInstanceOf(WebhookVerificationError);
  return outcome as WebhookVerificationError;
}
const reasonOf = async (promise: Promise<unknown>): Promise<WebhookVerificationReason> => (await failure(promise)).reason;

/** Why each mustReject vector must fail. A new vector without an entry here fails the test. */
const EXPECTED_REJECTION: Record<string, WebhookVerificationReason> = {
  'one-byte-of-body-changed': 'SIGNATURE_MISMATCH',
  'body-reserialized-with-different-whitespace': 'SIGNATURE_MISMATCH',
  'body-reserialized-compact': 'SIGNATURE_MISMATCH',
  'signature-from-another-key': 'SIGNATURE_MISMATCH',
  'unsupported-version': 'UNSUPPORTED_VERSION',
};

/** Whether a DER signature's s is above n/2 (so the vector really is a high-S signature). */
function isHighS(header: string): boolean {
  const der = Buffer.from(JSON.parse(header).s, 'base64');
  const rLength = der[3]!;
  const s = der.subarray(4 + rLength + 2);
  const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
  return BigInt(`0x${s.toString('hex')}`) > n / 2n;
}

describe('the shared vectors (vectors/webhooks.json)', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('accepts %s as text, bytes and ArrayBuffer', async (_name, vector) => {
    const bytes = new TextEncoder().encode(vector.rawBody);
    await expect(webhooks.verify(vector.rawBody, vector.header, publicKeyPem)).resolves.toBeUndefined();
    await expect(webhooks.verify(bytes, vector.header, publicKeyPem)).resolves.toBeUndefined();
    await expect(webhooks.verify(Buffer.from(vector.rawBody), vector.header, publicKeyPem)).resolves.toBeUndefined();
    await expect(webhooks.verify(bytes.buffer, vector.header, publicKeyPem)).resolves.toBeUndefined();
    expect(isHighS(vector.header)).toBe(vector.signatureIsHighS === true);
  });

  it('includes high-S signatures, which are accepted (the sender never normalizes to low-S)', () => {
    expect(vectors.cases.filter((c) => c.signatureIsHighS).length).toBeGreaterThan(0);
  });

  it.each(vectors.tolerated.map((c) => [c.name, c] as const))('tolerates %s', async (_name, vector) => {
    await expect(webhooks.verify(vector.rawBody, vector.header, publicKeyPem)).resolves.toBeUndefined();
  });

  it.each(vectors.mustReject.map((c) => [c.name, c] as const))('rejects %s', async (name, vector) => {
    expect(EXPECTED_REJECTION[name], `no expected error kind for the new vector ${name}`).toBeDefined();
    const error = await failure(webhooks.verify(vector.rawBody, vector.header, publicKeyPem));
    expect(error.reason).toBe(EXPECTED_REJECTION[name]);
    expect(error).toBeInstanceOf(error.reason === 'UNSUPPORTED_VERSION' ? WebhookUnsupportedVersionError : WebhookSignatureMismatchError);
    expect(error).toBeInstanceOf(RailyardError);
    expect(error.isRequestError).toBe(true);
  });

  it('unwrap returns the typed TEST event, and tells an authentic body that is not an event apart from a forgery', async () => {
    const event = await webhooks.unwrap(first!.rawBody, first!.header, publicKeyPem);
    expect(event).toEqual({ id: 'Webhook:019542f5-b3e7-1d02-0000-000000000001', type: 'TEST', timestamp: '2025-08-15T14:32:00Z', data: {} });

    // webhook-2 is signed correctly; its `data` is an excerpt of a transaction, returned as sent (not checked field by field).
    const excerpt = vectors.cases.find((c) => c.name === 'webhook-2')!;
    const completed = await webhooks.unwrap(excerpt.rawBody, excerpt.header, publicKeyPem);
    expect(completed).toEqual(JSON.parse(excerpt.rawBody));
    expect(completed.type).toBe('OUTGOING_PAYMENT.COMPLETED');

    const notAnEvent = JSON.stringify({ id: 'Webhook:1', type: 42, data: [] });
    const header = await webhooks.generateTestHeader({ payload: notAnEvent, privateKeyPem });
    const error = await webhooks.unwrap(notAnEvent, header, publicKeyPem).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookPayloadError).payload).toEqual(JSON.parse(notAnEvent));
    expect((error as WebhookPayloadError).issues).toEqual([
      'type: must be a non-empty string', 'timestamp: must be a non-empty string', 'data: must be an object',
    ]);

    const forged = vectors.mustReject.find((c) => c.name === 'one-byte-of-body-changed')!;
    expect(await reasonOf(webhooks.unwrap(forged.rawBody, forged.header, publicKeyPem))).toBe('SIGNATURE_MISMATCH');
  });
});

describe('headers', () => {
  const { rawBody, header } = first!;

  it('takes a Headers object, a plain object with the name in any case (or an array of one value), or the bare value', async () => {
    const forms: Parameters<Webhooks['verify']>[1][] = [
      new Headers({ 'content-type': 'application/json', 'X-Service-Signature': header }),
      { 'X-Service-Signature': header },
      { 'x-service-signature': header, 'content-type': 'application/json' },
      { 'X-SERVICE-SIGNATURE': header },
      { 'x-service-signature': [header] },
      { 'x-service-signature': header, 'X-Service-Signature': header }, // the same value twice
      header,
      ` ${header} `,
    ];
    for (const headers of forms) await expect(webhooks.verify(rawBody, headers, publicKeyPem)).resolves.toBeUndefined();
  });

  it('a missing or empty header is MISSING_HEADER', async () => {
    for (const headers of [new Headers({ 'content-type': 'application/json' }), {}, { 'x-service-signature': undefined }, { 'x-service-signature': [] }, '', '  ', undefined]) {
      const error = await failure(webhooks.verify(rawBody, headers as string, publicKeyPem));
      expect(error).toBeInstanceOf(WebhookSignatureMissingError);
      expect(error.reason).toBe('MISSING_HEADER');
      expect(error.message).toContain('X-Service-Signature');
    }
  });

  it('a header that is not {"v":"1","s":"<base64 DER>"} is MALFORMED_HEADER', async () => {
    const { s } = JSON.parse(header) as { s: string };
    const malformed = [
      '{"v":"1","s":', // not JSON
      'not a signature!', // neither JSON nor base64
      '["1"]', // not an object
      '{"v":"1"}', // no s
      '{"v":"1","s":""}',
      '{"v":"1","s":42}',
      '{"s":"' + s + '"}', // no version
      '{"v":1,"s":"' + s + '"}', // the version is the string "1"
      '{"v":"1","s":"' + s.replace(/\+|\//g, '-') + '"}', // base64url is not standard base64
      '{"v":"1","s":"AAAA"}', // base64, but not a DER signature
      '{"v":"1","s":"' + Buffer.concat([Buffer.from(s, 'base64'), Buffer.from([0])]).toString('base64') + '"}', // trailing byte
    ];
    for (const value of malformed) {
      const error = await failure(webhooks.verify(rawBody, value, publicKeyPem));
      expect([value, error.reason]).toEqual([value, 'MALFORMED_HEADER']);
      expect(error).toBeInstanceOf(WebhookSignatureMalformedError);
    }
    const several = await failure(webhooks.verify(rawBody, { 'x-service-signature': [header, vectors.tolerated[0]!.header] }, publicKeyPem));
    expect(several.reason).toBe('MALFORMED_HEADER');
  });

  it('a version other than "1" is UNSUPPORTED_VERSION, naming it', async () => {
    const error = await failure(webhooks.verify(rawBody, header.replace('"v":"1"', '"v":"2"'), publicKeyPem));
    expect(error).toBeInstanceOf(WebhookUnsupportedVersionError);
    expect((error as WebhookUnsupportedVersionError).version).toBe('2');
    expect(error.message).toContain('"2"');
  });
});

describe('body and key mistakes', () => {
  const { rawBody, header } = first!;

  it('a parsed body is RAW_BODY_REQUIRED: pass the raw request body, not parsed JSON', async () => {
    for (const body of [JSON.parse(rawBody), [], 42, String(JSON.parse(rawBody))]) {
      const error = await failure(webhooks.verify(body, header, publicKeyPem));
      expect(error).toBeInstanceOf(WebhookRawBodyError);
      expect(error.reason).toBe('RAW_BODY_REQUIRED');
      expect(error.message).toContain('pass the raw request body, not parsed JSON');
      expect(error.isRequestError).toBe(false);
    }
    const missing = await failure(webhooks.verify(undefined as unknown as string, header, publicKeyPem));
    expect(missing.reason).toBe('RAW_BODY_REQUIRED');
    expect(missing.message).toContain('read the request body first');
  });

  it('a body re-serialized from parsed JSON is a SIGNATURE_MISMATCH that says to pass the raw bytes and the right key', async () => {
    const vector = vectors.cases.find((c) => c.name === 'webhook-3')!;
    const error = await failure(webhooks.verify(JSON.stringify(JSON.parse(vector.rawBody)), vector.header, publicKeyPem));
    expect(error).toBeInstanceOf(WebhookSignatureMismatchError);
    expect(error.message).toMatch(/raw request body bytes exactly as received/);
    expect(error.message).toContain('GET /_sandbox/webhook-key');
  });

  it('a key that is not a P-256 SPKI PEM public key is INVALID_KEY, whatever the request carries', async () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const keys: [unknown, RegExp][] = [
      ['not a key', /not a PEM block/],
      [privateKeyPem, /private key/],
      ['-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n', /not base64/],
      [p384, /P-256/],
      [rsa, /P-256/],
      [undefined, /PEM string/],
    ];
    for (const [key, message] of keys) {
      for (const headers of [header, {}]) {
        const error = await failure(webhooks.verify(rawBody, headers, key as string));
        expect(error).toBeInstanceOf(WebhookKeyError);
        expect(error.reason).toBe('INVALID_KEY');
        expect(error.message).toMatch(message);
      }
    }
  });

  it('accepts a PEM whose newlines were escaped as \\n (as in an environment variable) and one without a final newline', async () => {
    await expect(webhooks.verify(rawBody, header, publicKeyPem.replace(/\n/g, '\\n'))).resolves.toBeUndefined();
    await expect(webhooks.verify(rawBody, header, publicKeyPem.trim())).resolves.toBeUndefined();
  });

  it('detects a change to any byte of the body or of the signature', async () => {
    const body = Buffer.from(rawBody);
    for (let i = 0; i < body.length; i++) {
      const changed = Buffer.from(body);
      changed[i]! ^= 0x01;
      expect(await reasonOf(webhooks.verify(changed, header, publicKeyPem))).toBe('SIGNATURE_MISMATCH');
    }
    const signature = Buffer.from(JSON.parse(header).s, 'base64');
    for (let i = 0; i < signature.length; i++) {
      const changed = Buffer.from(signature);
      changed[i]! ^= 0x01;
      const reason = await reasonOf(webhooks.verify(rawBody, JSON.stringify({ v: '1', s: changed.toString('base64') }), publicKeyPem));
      // A changed DER structure byte no longer parses; a changed r or s no longer verifies.
      expect(['MALFORMED_HEADER', 'SIGNATURE_MISMATCH']).toContain(reason);
    }
  });
});

describe('generateTestHeader', () => {
  it('signs like the engine: compact {"v":"1","s":<base64 DER>} that verifies here and with node:crypto', async () => {
    const payload = vectors.cases.find((c) => c.name === 'webhook-3')!.rawBody;
    const header = await webhooks.generateTestHeader({ payload, privateKeyPem });
    expect(header).toMatch(/^\{"v":"1","s":"[A-Za-z0-9+/]+={0,2}"\}$/);
    await expect(webhooks.verify(payload, header, publicKeyPem)).resolves.toBeUndefined();
    const der = Buffer.from(JSON.parse(header).s, 'base64');
    expect(nodeVerify('sha256', Buffer.from(payload), createPublicKey(publicKeyPem), der)).toBe(true);
    expect(await reasonOf(webhooks.verify(`${payload} `, header, publicKeyPem))).toBe('SIGNATURE_MISMATCH');
  });

  it('works with a fresh key pair from generateTestKeyPair, for bytes too', async () => {
    const keys = await webhooks.generateTestKeyPair();
    expect(keys.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(keys.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const payload = new TextEncoder().encode(JSON.stringify({ id: 'Webhook:1', type: 'TEST', timestamp: '2026-01-01T00:00:00Z', data: {} }));
    const header = await webhooks.generateTestHeader({ payload, privateKeyPem: keys.privateKeyPem });
    await expect(webhooks.verify(payload, { 'X-Service-Signature': header }, keys.publicKeyPem)).resolves.toBeUndefined();
    expect(await reasonOf(webhooks.verify(payload, header, publicKeyPem))).toBe('SIGNATURE_MISMATCH'); // another key
  });

  it('refuses an object payload and a key that is not a PKCS#8 private key', async () => {
    expect(await reasonOf(webhooks.generateTestHeader({ payload: { type: 'TEST' } as unknown as string, privateKeyPem }))).toBe('RAW_BODY_REQUIRED');
    const publicInstead = await failure(webhooks.generateTestHeader({ payload: '{}', privateKeyPem: publicKeyPem }));
    expect(publicInstead).toBeInstanceOf(WebhookKeyError);
    const sec1 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    expect((await failure(webhooks.generateTestHeader({ payload: '{}', privateKeyPem: sec1 }))).message).toContain('openssl pkcs8');
  });
});

describe('deliveries signed by the engine', () => {
  it('verifies and unwraps what an engine delivers, with headers as sent, as Headers and as a Node-style object', async () => {
    const deliveries: { body: string; headers: Record<string, string> }[] = [];
    const engine = createEngine({
      platform: { regulated: true },
      webhooks: {
        fetch: async (_url, init) => {
          deliveries.push({ body: init.body, headers: init.headers });
          return new Response('ok');
        },
      },
    });
    const client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS });
    await client.config.update({ webhookEndpoint: 'https://platform.example/webhooks' });
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    await engine.webhooks.settled();
    // Deliveries are ordered per resource only; the test event and the customer's event may arrive in either order.
    expect(deliveries.map((d) => JSON.parse(d.body).type).sort()).toEqual(['CUSTOMER.KYC_APPROVED', 'TEST']);

    const { publicKeyPem: platformKey } = await client.sandbox.webhookKey();
    expect(platformKey).toBe(await engine.webhooks.publicKey());
    const lowerCased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    for (const delivery of deliveries) {
      await expect(client.webhooks.verify(delivery.body, delivery.headers, platformKey)).resolves.toBeUndefined();
      await expect(client.webhooks.verify(Buffer.from(delivery.body), new Headers(delivery.headers), platformKey)).resolves.toBeUndefined();
      await expect(client.webhooks.verify(delivery.body, lowerCased(delivery.headers), platformKey)).resolves.toBeUndefined();
      // Another platform's key does not verify this platform's deliveries.
      const other = await engine.webhooks.publicKey(engine.createPlatform().clientId);
      expect(await reasonOf(client.webhooks.verify(delivery.body, delivery.headers, other))).toBe('SIGNATURE_MISMATCH');
    }

    const approved = deliveries.find((d) => JSON.parse(d.body).type === 'CUSTOMER.KYC_APPROVED')!;
    const event = await client.webhooks.unwrap(approved.body, approved.headers, platformKey);
    if (event.type !== 'CUSTOMER.KYC_APPROVED') throw new Error(`unexpected ${event.type}`);
    expect(event.data).toEqual(await client.customers.retrieve(customer.id));
    expect(event.id).toMatch(/^Webhook:/);
  });

  it('returns an event of a type newer than the SDK as an unknown event, and still refuses a forged one', async () => {
    const payload = JSON.stringify({ id: 'Webhook:2', type: 'PAYOUT_BATCH.SETTLED', timestamp: '2026-01-01T00:00:00Z', data: { id: 'Batch:1', count: 3 } });
    const header = await webhooks.generateTestHeader({ payload, privateKeyPem });
    const event = await webhooks.unwrap(payload, header, publicKeyPem);
    expect(event).toEqual(JSON.parse(payload));
    expect(webhooks.isKnownEventType(event.type)).toBe(false);
    expect(webhooks.isKnownEventType('CUSTOMER.KYC_APPROVED')).toBe(true);
    let handledAs = '';
    switch (event.type) {
      case 'CUSTOMER.KYC_APPROVED': handledAs = event.data.id; break;
      default: handledAs = `unknown ${event.type}`;
    }
    expect(handledAs).toBe('unknown PAYOUT_BATCH.SETTLED');

    const forged = payload.replace('"count":3', '"count":4');
    expect(await reasonOf(webhooks.unwrap(forged, header, publicKeyPem))).toBe('SIGNATURE_MISMATCH');
  });

  it('narrows by type with the unknown member in the union', () => {
    expectTypeOf<TypedWebhookEvent>().toEqualTypeOf<KnownWebhookEvent | UnknownWebhookEvent>();
    const narrow = (event: TypedWebhookEvent) => {
      switch (event.type) {
        case 'CUSTOMER.KYC_APPROVED': return expectTypeOf(event.data).toEqualTypeOf<WebhookEventOf<'CUSTOMER.KYC_APPROVED'>['data']>();
        case 'OUTGOING_PAYMENT.COMPLETED': return expectTypeOf(event.data.type).toEqualTypeOf<'OUTGOING'>();
        default:
          // Known types not handled above, and the unknown ones: `type` reads as a string, `data` as what it may be.
          expectTypeOf(event.type).toExtend<string>();
          // @ts-expect-error a field of data of a type this SDK does not know is unknown until checked
          return event.data.id.length;
      }
    };
    expect(typeof narrow).toBe('function');
    const unknownOnly = (event: UnknownWebhookEvent) => expectTypeOf(event.data.id).toEqualTypeOf<unknown>();
    expect(typeof unknownOnly).toBe('function');
  });

  it('narrows the union by type', () => {
    expectTypeOf<WebhookEventOf<'OUTGOING_PAYMENT.COMPLETED'>['data']['type']>().toEqualTypeOf<'OUTGOING'>();
    expectTypeOf<WebhookEventOf<'TEST'>['data']>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<Extract<TypedWebhookEvent, { type: 'CUSTOMER.KYC_APPROVED' }>>().toEqualTypeOf<WebhookEventOf<'CUSTOMER.KYC_APPROVED'>>();
  });
});
