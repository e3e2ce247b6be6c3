/**
 * Verifying webhook deliveries: `client.webhooks.verify`, `unwrap` and
 * `generateTestHeader`, with WebCrypto only, so it runs in Node 20, browsers, Deno, Bun and workers.
 *
 * Every delivery is signed with ECDSA P-256 and SHA-256 over the exact raw body bytes. The signature travels in the
 * `X-Service-Signature` header as the compact JSON `{"v":"1","s":"<standard base64 of the DER signature>"}`.
 * WebCrypto wants the fixed-width `r ‖ s` form (IEEE P1363), so the DER signature is converted first. Signatures are not
 * normalized to low-S by the sender and high-S signatures are accepted, as ECDSA allows.
 * @module
 */
import { derToP1363, p1363ToDer, WEBHOOK_EVENT_TYPES, WEBHOOK_SIGNATURE_HEADER } from '@railyard/contract/routes';
import type { KnownWebhookEvent, WebhookEventType } from '@railyard/contract/routes';
import { RailyardError } from '../core/errors.js';

/** The raw request body as received: the text, or its bytes (`Uint8Array`, a Node `Buffer`, any typed array or `ArrayBuffer`). */
export type WebhookRawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/**
 * The request headers (a WHATWG `Headers`, or a plain object such as Node's `request.headers` in which the header name
 * may be in any case), or the value of the `X-Service-Signature` header itself.
 */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined> | string;

export type { KnownWebhookEvent, WebhookEventType };

/**
 * The `type` of an event this SDK does not know (one the service added after it). At runtime it is the event's own
 * type string. It is declared as an enum, a nominal type, so that `case 'CUSTOMER.KYC_APPROVED':` still narrows
 * `data`: a branded `string` would stay in every `case` and widen `data` to `unknown`.
 */
export declare enum UnknownWebhookEventType {
  /** Never the value at runtime: compare `event.type` with the new type's string (`event.type as string`). */
  Unknown = '(an event type newer than this SDK)',
}

/**
 * A verified event of a type newer than this SDK: the envelope as sent, `data` an object whose fields are unchecked.
 * `unwrap` returns it rather than throwing, so a receiver keeps working when the service adds events; handle it in the
 * `default` of a `switch`.
 */
export interface UnknownWebhookEvent {
  id: string;
  type: UnknownWebhookEventType;
  timestamp: string;
  data: { readonly [field: string]: unknown };
}

/**
 * A verified event, narrowed by `type`: `data` is the resource of its type (a transaction, a customer, …); an event of
 * a type this SDK does not know is an {@link UnknownWebhookEvent}.
 */
export type TypedWebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

/** The event of one type: `WebhookEventOf<'OUTGOING_PAYMENT.COMPLETED'>['data']` is an outgoing transaction. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<KnownWebhookEvent, { type: T }>;

const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/** Options of {@link Webhooks.generateTestHeader}. */
export interface WebhookTestHeaderOptions {
  /** The exact body you will send: the same text or bytes, never an object (the signature covers bytes). */
  payload: WebhookRawBody;
  /** A P-256 private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), e.g. from {@link Webhooks.generateTestKeyPair}. */
  privateKeyPem: string;
}

/** A P-256 key pair for tests: sign with `privateKeyPem` (PKCS#8), verify with `publicKeyPem` (SPKI). */
export interface WebhookTestKeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

// ---------------------------------------------------------------------------------------------------------------------
// Errors

/** Why a delivery failed verification; each reason has its own {@link WebhookVerificationError} subclass. */
export type WebhookVerificationReason =
  /** No `X-Service-Signature` header (or an empty one). */
  | 'MISSING_HEADER'
  /** The header is not `{"v":"1","s":"<base64 DER>"}` (nor a bare base64 signature), or `s` is not a DER signature. */
  | 'MALFORMED_HEADER'
  /** The header's `v` is a version other than `"1"`. */
  | 'UNSUPPORTED_VERSION'
  /** The signature does not verify over these bytes with this key. */
  | 'SIGNATURE_MISMATCH'
  /** The body was given as parsed JSON (an object) or not at all, instead of the raw text or bytes. */
  | 'RAW_BODY_REQUIRED'
  /** The key is not a P-256 public key in SPKI PEM (for signing: a PKCS#8 PEM private key). */
  | 'INVALID_KEY';

/**
 * A webhook delivery could not be verified. `reason` says why, and each reason has a subclass:
 *
 * | reason | class | whose problem |
 * |---|---|---|
 * | `MISSING_HEADER` | {@link WebhookSignatureMissingError} | the request (answer 401) |
 * | `MALFORMED_HEADER` | {@link WebhookSignatureMalformedError} | the request (answer 401) |
 * | `UNSUPPORTED_VERSION` | {@link WebhookUnsupportedVersionError} | the request, or an SDK older than the sender |
 * | `SIGNATURE_MISMATCH` | {@link WebhookSignatureMismatchError} | the request, or a body that is not the raw bytes, or the wrong key |
 * | `RAW_BODY_REQUIRED` | {@link WebhookRawBodyError} | the receiver's code: it passed parsed JSON |
 * | `INVALID_KEY` | {@link WebhookKeyError} | the receiver's configuration |
 */
export class WebhookVerificationError extends RailyardError {
  override readonly name: string = 'WebhookVerificationError';
  /** Why verification failed. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }

  /**
   * Whether the request itself is at fault (a missing, malformed or wrong signature), so a receiver answers 401, rather
   * than the receiver's own code or configuration (`RAW_BODY_REQUIRED`, `INVALID_KEY`), which a 5xx and a fix resolve.
   */
  get isRequestError(): boolean {
    return this.reason !== 'RAW_BODY_REQUIRED' && this.reason !== 'INVALID_KEY';
  }
}

/** The request has no `X-Service-Signature` header. */
export class WebhookSignatureMissingError extends WebhookVerificationError {
  override readonly name: string = 'WebhookSignatureMissingError';
  constructor(message: string) {
    super('MISSING_HEADER', message);
  }
}

/** The `X-Service-Signature` header is not `{"v":"1","s":"<standard base64 of a DER signature>"}`. */
export class WebhookSignatureMalformedError extends WebhookVerificationError {
  override readonly name: string = 'WebhookSignatureMalformedError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('MALFORMED_HEADER', message, options);
  }
}

/** The header names a signature version this SDK does not know (only `"1"` is defined). */
export class WebhookUnsupportedVersionError extends WebhookVerificationError {
  override readonly name: string = 'WebhookUnsupportedVersionError';
  /** The version the header named. */
  readonly version: string;
  constructor(version: string) {
    super(
      'UNSUPPORTED_VERSION',
      `Unsupported ${WEBHOOK_SIGNATURE_HEADER} version ${JSON.stringify(version)}: only version "1" is defined. ` +
        'If the sender has moved to a newer version, upgrade @railyard/client.',
    );
    this.version = version;
  }
}

/** The signature does not verify over the given bytes with the given key. */
export class WebhookSignatureMismatchError extends WebhookVerificationError {
  override readonly name: string = 'WebhookSignatureMismatchError';
  constructor() {
    super(
      'SIGNATURE_MISMATCH',
      `The ${WEBHOOK_SIGNATURE_HEADER} signature does not match the body. Check that you pass the raw request body ` +
        'bytes exactly as received (not parsed and re-serialized JSON, not re-encoded text), and the public key of the ' +
        'platform that sent the event (GET /_sandbox/webhook-key of the same platform: client.sandbox.webhookKey(), or ' +
        'engine.webhooks.publicKey() in process). Otherwise the request was not sent by Railyard or was altered.',
    );
  }
}

/** The body was given as parsed JSON (an object) or not at all: the signature covers the raw bytes. */
export class WebhookRawBodyError extends WebhookVerificationError {
  override readonly name: string = 'WebhookRawBodyError';
  constructor(message: string) {
    super('RAW_BODY_REQUIRED', message);
  }
}

/** The key is not usable: not a P-256 SPKI PEM public key (or, to sign test headers, a PKCS#8 PEM private key). */
export class WebhookKeyError extends WebhookVerificationError {
  override readonly name: string = 'WebhookKeyError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_KEY', message, options);
  }
}

/**
 * The delivery is authentic (its signature verified) but its body is not a webhook event: not JSON, or not the
 * envelope `{ id, type, timestamp, data }`. `payload` is the parsed JSON when it parsed. (An event of a type newer than
 * this SDK is not an error: `unwrap` returns it as an {@link UnknownWebhookEvent}.)
 */
export class WebhookPayloadError extends RailyardError {
  override readonly name: string = 'WebhookPayloadError';
  /** The parsed body, or `undefined` when it is not JSON. */
  readonly payload: unknown;
  /** What did not match, as `path: message` lines. */
  readonly issues: string[];
  constructor(message: string, payload: unknown, issues: string[], options?: { cause?: unknown }) {
    super(message, options);
    this.payload = payload;
    this.issues = issues;
  }
}

/** What keeps a parsed body from being the envelope `{ id, type, timestamp, data }`, as `field: problem` lines. */
function envelopeIssues(payload: unknown): string[] {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return ['(body): must be an object'];
  const envelope = payload as Record<string, unknown>;
  const issues = (['id', 'type', 'timestamp'] as const)
    .filter((field) => typeof envelope[field] !== 'string' || envelope[field] === '')
    .map((field) => `${field}: must be a non-empty string`);
  if (envelope.data === null || typeof envelope.data !== 'object' || Array.isArray(envelope.data)) issues.push('data: must be an object');
  return issues;
}

// ---------------------------------------------------------------------------------------------------------------------
// Bytes, base64, PEM and DER

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
const HEADER_NAME = WEBHOOK_SIGNATURE_HEADER.toLowerCase();
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Byte length of a P-256 scalar (r and s in the P1363 form). */
const SCALAR = 32;

function subtle(): SubtleCrypto {
  const api = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!api) throw new RailyardError('Webhook verification needs WebCrypto (globalThis.crypto.subtle): Node 20+, a browser in a secure context, Deno, Bun or a worker.');
  return api;
}

const tag = (value: unknown) => Object.prototype.toString.call(value);
const copy = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  return out;
};

/** The bytes of a raw body, or the error that says what was given instead. */
function bodyBytes(rawBody: unknown, what: 'rawBody' | 'payload'): Uint8Array<ArrayBuffer> {
  if (typeof rawBody === 'string') {
    if (rawBody === '[object Object]') {
      throw new WebhookRawBodyError(`${what} is the text "[object Object]" (an object turned into a string): pass the raw request body, not parsed JSON.`);
    }
    return new TextEncoder().encode(rawBody);
  }
  // Copied into a fresh ArrayBuffer: WebCrypto takes no shared memory, and the caller's buffer may change later.
  if (ArrayBuffer.isView(rawBody)) return copy(new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength));
  if (rawBody instanceof ArrayBuffer || tag(rawBody) === '[object ArrayBuffer]') return copy(new Uint8Array(rawBody as ArrayBuffer));
  if (rawBody === undefined || rawBody === null) {
    throw new WebhookRawBodyError(
      `${what} is ${rawBody}: read the request body first, as text or bytes (await request.text(), or the Buffer of a ` +
        'Node request), and pass it before any JSON parsing.',
    );
  }
  throw new WebhookRawBodyError(
    `${what} is ${typeof rawBody === 'object' ? 'an object' : `a ${typeof rawBody}`}: pass the raw request body, not parsed JSON. ` +
      'The signature covers the exact bytes as sent, and re-serializing a parsed object changes them. Read the body as ' +
      "text or bytes (await request.text(); express.raw({ type: 'application/json' }); the Buffer of a Node request).",
  );
}

const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};
/** Decoded standard base64, or `undefined` when it is not (wrong alphabet, impossible length). */
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!BASE64.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
};

/**
 * The label and body of the first PEM block of `text` (`[whole, label, body]`), found by position: a pattern with a
 * lazy body and a back-reference backtracks quadratically on a long text without its END line.
 */
function pemBlock(text: string): [string, string, string] | undefined {
  const begin = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text);
  if (!begin) return undefined;
  const bodyStart = begin.index + begin[0].length;
  const end = text.indexOf(`-----END ${begin[1]}-----`, bodyStart);
  return end < 0 ? undefined : [text.slice(begin.index, end), begin[1]!, text.slice(bodyStart, end)];
}

/** The DER bytes of a PEM block with the given label. Tolerates `\n` written as two characters (keys kept in env vars). */
function pemBody(pem: unknown, label: 'PUBLIC KEY' | 'PRIVATE KEY', use: string): Uint8Array<ArrayBuffer> {
  if (typeof pem !== 'string') {
    throw new WebhookKeyError(`The ${use} key must be a PEM string (-----BEGIN ${label}-----), got ${pem === null ? 'null' : typeof pem}.`);
  }
  const text = pem.replace(/\\n/g, '\n').trim();
  const found = pemBlock(text);
  if (!found) {
    throw new WebhookKeyError(
      `The ${use} key is not a PEM block: expected -----BEGIN ${label}----- … -----END ${label}-----` +
        (label === 'PUBLIC KEY' ? ' (the publicKeyPem of GET /_sandbox/webhook-key).' : '.'),
    );
  }
  if (found[1] !== label) {
    const hint = label === 'PUBLIC KEY' && /PRIVATE KEY/.test(found[1]!)
      ? ' This is a private key: verify with the public key (GET /_sandbox/webhook-key), and never ship the private key to a receiver.'
      : label === 'PRIVATE KEY' && found[1] === 'EC PRIVATE KEY'
        ? ' Convert a SEC1 key to PKCS#8 with: openssl pkcs8 -topk8 -nocrypt -in key.pem'
        : '';
    throw new WebhookKeyError(`The ${use} key is a "${found[1]}" PEM block; expected "${label}".${hint}`);
  }
  const der = fromBase64(found[2]!.replace(/\s+/g, ''));
  if (!der) throw new WebhookKeyError(`The ${use} key's PEM body is not base64.`);
  return der;
}

/** WebCrypto's `r ‖ s` form of a DER signature, or undefined when it is not one (the contract's codec, not throwing). */
function derToRaw(der: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  try {
    return derToP1363(der);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The header

/** The `X-Service-Signature` value out of headers given in any of the accepted forms. */
function headerValue(headers: unknown): string {
  const missing = () =>
    new WebhookSignatureMissingError(
      `No ${WEBHOOK_SIGNATURE_HEADER} header: every Railyard delivery carries one. Pass the request's headers (or the ` +
        "header's value), and make sure a proxy or framework in front of the receiver does not drop it.",
    );
  let values: string[];
  if (typeof headers === 'string') values = [headers];
  else if (headers === null || headers === undefined || typeof headers !== 'object') throw missing();
  else if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') {
    const value = (headers as Headers).get(HEADER_NAME);
    values = value === null ? [] : [value];
  } else {
    values = [];
    for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
      if (name.toLowerCase() !== HEADER_NAME) continue;
      for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') values.push(item);
    }
  }
  const distinct = [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
  if (distinct.length === 0) throw missing();
  if (distinct.length > 1) {
    throw new WebhookSignatureMalformedError(`Several different ${WEBHOOK_SIGNATURE_HEADER} headers: a delivery carries exactly one.`);
  }
  return distinct[0]!;
}

/** The DER signature bytes of a header value: `{"v":"1","s":"…"}`, or (tolerated) the bare base64 signature. */
function signatureOf(value: string): Uint8Array {
  let encoded: string;
  if (value.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new WebhookSignatureMalformedError(`The ${WEBHOOK_SIGNATURE_HEADER} header is not valid JSON: expected {"v":"1","s":"<base64 signature>"}.`, { cause: error });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new WebhookSignatureMalformedError(`The ${WEBHOOK_SIGNATURE_HEADER} header is not a JSON object: expected {"v":"1","s":"<base64 signature>"}.`);
    }
    const { v, s } = parsed as { v?: unknown; s?: unknown };
    if (typeof v !== 'string') {
      throw new WebhookSignatureMalformedError(`The ${WEBHOOK_SIGNATURE_HEADER} header has no version: expected "v":"1".`);
    }
    if (v !== '1') throw new WebhookUnsupportedVersionError(v);
    if (typeof s !== 'string' || s === '') {
      throw new WebhookSignatureMalformedError(`The ${WEBHOOK_SIGNATURE_HEADER} header has no signature: expected "s":"<standard base64 of the DER signature>".`);
    }
    encoded = s;
  } else {
    encoded = value; // The bare base64 form the sender never emits, but reference receivers accept.
  }
  const der = fromBase64(encoded);
  if (!der) {
    throw new WebhookSignatureMalformedError(
      value.startsWith('{')
        ? `The ${WEBHOOK_SIGNATURE_HEADER} signature ("s") is not standard base64.`
        : `The ${WEBHOOK_SIGNATURE_HEADER} header is neither {"v":"1","s":"<base64 signature>"} nor a base64 signature.`,
    );
  }
  return der;
}

// ---------------------------------------------------------------------------------------------------------------------
// Webhooks

/** Imported keys by PEM text: receivers verify every delivery with the same key, so import it once. */
const MAX_CACHED_KEYS = 16;

/**
 * Verifies and parses webhook deliveries, and signs test deliveries. Available as `client.webhooks`; a receiver that has
 * no API credentials can use `new Webhooks()` directly.
 *
 * ```ts
 * // Node: read the raw body, then verify before parsing.
 * const chunks: Buffer[] = [];
 * for await (const chunk of request) chunks.push(chunk);
 * try {
 *   const event = await client.webhooks.unwrap(Buffer.concat(chunks), request.headers, publicKeyPem);
 *   if (event.type === 'OUTGOING_PAYMENT.COMPLETED') console.log(event.data.sentAmount);
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) return answer(401, error.message);
 *   throw error;
 * }
 * ```
 */
export class Webhooks {
  readonly #keys = new Map<string, Promise<CryptoKey>>();

  /**
   * Checks that a delivery was signed by Railyard: ECDSA P-256 with SHA-256 over `rawBody` (the exact bytes received,
   * or their text), with the signature of the `X-Service-Signature` header and the platform's `publicKeyPem` (SPKI PEM,
   * from `GET /_sandbox/webhook-key`: {@link Sandbox.webhookKey}). Resolves when it verifies; otherwise rejects with a
   * {@link WebhookVerificationError} whose `reason` (and subclass) says why.
   *
   * @param rawBody - The raw request body: text, or bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`). Never parsed JSON.
   * @param headers - The request headers (`Headers`, or a plain object with the header name in any case), or the
   * header's value.
   * @param publicKeyPem - The platform's P-256 public key, SPKI PEM.
   *
   * @example
   * ```ts
   * import assert from 'node:assert/strict';
   * import { Webhooks, WebhookSignatureMismatchError } from '@railyard/client';
   *
   * const webhooks = new Webhooks(); // the same as `client.webhooks`; needs no credentials
   * const { publicKeyPem, privateKeyPem } = await webhooks.generateTestKeyPair();
   * const rawBody = '{"id":"Webhook:1","type":"TEST","timestamp":"2025-10-13T00:00:00Z","data":{}}';
   * const headers = { 'x-service-signature': await webhooks.generateTestHeader({ payload: rawBody, privateKeyPem }) };
   * await webhooks.verify(rawBody, headers, publicKeyPem); // resolves: these bytes, signed by this key
   * await assert.rejects(webhooks.verify(rawBody.replace('Webhook:1', 'Webhook:2'), headers, publicKeyPem), WebhookSignatureMismatchError);
   * ```
   */
  async verify(rawBody: WebhookRawBody, headers: WebhookHeaders, publicKeyPem: string): Promise<void> {
    await this.#verified(rawBody, headers, publicKeyPem);
  }

  /** Verifies and returns the exact bytes it verified (a copy), so `unwrap` parses those and nothing else. */
  async #verified(rawBody: WebhookRawBody, headers: WebhookHeaders, publicKeyPem: string): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = bodyBytes(rawBody, 'rawBody');
    // The key first: a receiver's configuration error shows on every request, whatever the request carries.
    const key = await this.#publicKey(publicKeyPem);
    const signature = derToRaw(signatureOf(headerValue(headers)));
    if (!signature) {
      throw new WebhookSignatureMalformedError(`The ${WEBHOOK_SIGNATURE_HEADER} signature is not a DER-encoded ECDSA P-256 signature.`);
    }
    // The crypto verify is the only check of the signature: nothing is compared by hand.
    if (!(await subtle().verify(ECDSA_SHA256, key, signature, bytes))) throw new WebhookSignatureMismatchError();
    return bytes;
  }

  /**
   * {@link Webhooks.verify}, then parses the body as a webhook event `{ id, type, timestamp, data }`. The result is a
   * union narrowed by `type`, with `data` the resource of its type:
   *
   * ```ts
   * const event = await client.webhooks.unwrap(rawBody, request.headers, publicKeyPem);
   * switch (event.type) {
   *   case 'OUTGOING_PAYMENT.COMPLETED': console.log(event.data.id, event.data.receivedAmount); break;
   *   case 'CUSTOMER.KYC_APPROVED': console.log(event.data.id); break;
   *   default: console.log('not handled:', event.type);
   * }
   * ```
   *
   * De-duplicate on `event.id`: it is the same on every retry of a delivery. Rejects with a
   * {@link WebhookVerificationError} when the signature does not verify, and with a {@link WebhookPayloadError} when an
   * authentic body is not an event this SDK knows.
   *
   * @example
   * ```ts
   * import assert from 'node:assert/strict';
   * import { createClient } from '@railyard/client';
   * import { createEngine } from '@railyard/engine';
   *
   * // Deliveries go to this fetch instead of the network: keep each request as the receiver gets it.
   * const deliveries: Request[] = [];
   * const engine = createEngine({
   *   webhooks: { fetch: async (url, init) => (deliveries.push(new Request(url, init)), new Response(null, { status: 200 })) },
   * });
   * const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
   * await client.config.update({ webhookEndpoint: 'https://platform.example/webhooks' }); // sends a TEST event
   * await engine.webhooks.settled();
   *
   * const { publicKeyPem } = await client.sandbox.webhookKey();
   * const delivery = deliveries[0]!;
   * const event = await client.webhooks.unwrap(await delivery.text(), delivery.headers, publicKeyPem);
   * assert.equal(event.type, 'TEST');
   * ```
   */
  async unwrap(rawBody: WebhookRawBody, headers: WebhookHeaders, publicKeyPem: string): Promise<TypedWebhookEvent> {
    const bytes = await this.#verified(rawBody, headers, publicKeyPem);
    let payload: unknown;
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      payload = JSON.parse(text);
    } catch (error) {
      throw new WebhookPayloadError('The webhook body verified but is not UTF-8 JSON.', undefined, [], { cause: error });
    }
    const issues = envelopeIssues(payload);
    if (issues.length > 0) {
      throw new WebhookPayloadError(`The webhook body verified but is not a webhook event: ${issues.join('; ')}.`, payload, issues);
    }
    // Known or not, the envelope is the same; only the compiler tells the two apart (see UnknownWebhookEventType).
    return payload as TypedWebhookEvent;
  }

  /** Whether this SDK knows an event type (an {@link UnknownWebhookEvent} is one it does not). */
  isKnownEventType(type: string): type is WebhookEventType {
    return KNOWN_EVENT_TYPES.has(type);
  }

  /**
   * Signs a payload as Railyard signs deliveries and returns the `X-Service-Signature` value, for your own receiver's
   * tests. Send exactly `payload` as the body with this header, and verify with the matching public key.
   *
   * Sending it to your receiver:
   *
   * ```ts
   * const { publicKeyPem, privateKeyPem } = await client.webhooks.generateTestKeyPair();
   * const payload = JSON.stringify({ id: 'Webhook:…', type: 'TEST', timestamp: new Date().toISOString(), data: {} });
   * const header = await client.webhooks.generateTestHeader({ payload, privateKeyPem });
   * await fetch(receiverUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': header }, body: payload });
   * ```
   *
   * @example
   * ```ts
   * import assert from 'node:assert/strict';
   * import { Webhooks } from '@railyard/client';
   *
   * const webhooks = new Webhooks();
   * const { publicKeyPem, privateKeyPem } = await webhooks.generateTestKeyPair();
   * const payload = JSON.stringify({ id: `Webhook:${crypto.randomUUID()}`, type: 'TEST', timestamp: new Date().toISOString(), data: {} });
   * const header = await webhooks.generateTestHeader({ payload, privateKeyPem });
   * // POST `payload` with `X-Service-Signature: header` to your receiver; it verifies with publicKeyPem:
   * const event = await webhooks.unwrap(payload, header, publicKeyPem);
   * assert.equal(event.type, 'TEST');
   * ```
   */
  async generateTestHeader({ payload, privateKeyPem }: WebhookTestHeaderOptions): Promise<string> {
    const bytes = bodyBytes(payload, 'payload');
    let key: CryptoKey;
    try {
      key = await subtle().importKey('pkcs8', pemBody(privateKeyPem, 'PRIVATE KEY', 'signing'), ECDSA_P256, false, ['sign']);
    } catch (error) {
      if (error instanceof WebhookKeyError) throw error;
      throw new WebhookKeyError('The signing key is not a P-256 private key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----).', { cause: error });
    }
    const raw = new Uint8Array(await subtle().sign(ECDSA_SHA256, key, bytes));
    return JSON.stringify({ v: '1', s: toBase64(p1363ToDer(raw)) });
  }

  /** A fresh P-256 key pair as PEM, to sign test deliveries with {@link Webhooks.generateTestHeader} and verify them. */
  async generateTestKeyPair(): Promise<WebhookTestKeyPair> {
    const pair = await subtle().generateKey(ECDSA_P256, true, ['sign', 'verify']);
    const pem = (label: string, der: ArrayBuffer) =>
      `-----BEGIN ${label}-----\n${toBase64(new Uint8Array(der)).replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
    return {
      publicKeyPem: pem('PUBLIC KEY', await subtle().exportKey('spki', pair.publicKey)),
      privateKeyPem: pem('PRIVATE KEY', await subtle().exportKey('pkcs8', pair.privateKey)),
    };
  }

  /** The imported public key of a PEM, cached. */
  #publicKey(publicKeyPem: string): Promise<CryptoKey> {
    const cached = typeof publicKeyPem === 'string' ? this.#keys.get(publicKeyPem) : undefined;
    if (cached) return cached;
    const importing = (async () => {
      const der = pemBody(publicKeyPem, 'PUBLIC KEY', 'verification');
      try {
        return await subtle().importKey('spki', der, ECDSA_P256, false, ['verify']);
      } catch (error) {
        throw new WebhookKeyError(
          'The verification key is not a P-256 (prime256v1) public key in SPKI PEM: use the publicKeyPem of GET /_sandbox/webhook-key.',
          { cause: error },
        );
      }
    })();
    if (typeof publicKeyPem === 'string') {
      if (this.#keys.size >= MAX_CACHED_KEYS) this.#keys.delete(this.#keys.keys().next().value!);
      this.#keys.set(publicKeyPem, importing);
      importing.catch(() => this.#keys.delete(publicKeyPem));
    }
    return importing;
  }
}
