import { BASE_PATH, DOCUMENT_MAX_BYTES } from '@railyard/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.js';
import { TenantContext } from '../core/context.js';
import { randomIds } from '../core/ids.js';
import { Scheduler } from '../core/scheduler.js';
import { createMemoryStore, type Store } from '../core/store.js';
import { createEngine, type Engine } from '../engine.js';
import { DEFAULT_CREDENTIALS } from '../platforms/registry.js';
import { DOCUMENT_REJECTION_TRIGGERS, DOCUMENT_VERIFICATION_TRIGGERS, fileStemOf, lookupFileMarker } from '../sandbox/magic-values.js';
import { startServer } from '../server/server.js';
import { apiRequest } from '../testing/requests.js';
import { documentsOfHolder, markDocumentsSubmitted, monthsBefore, reviewOutcomeOf, type DocumentRecord } from './documents.js';
import { DOCUMENT_FORM_LIMIT, sniffDocumentType } from './form.js';

type Json = Record<string, any>;
type Credentials = { clientId: string; clientSecret: string };

// 2026-05-31: three months earlier is 2026-02-28 (clamped), which the proof-of-address tests rely on.
const NOW = Date.UTC(2026, 4, 31, 12, 0, 0);

let engine: Engine;
let store: Store;
beforeEach(() => {
  store = createMemoryStore();
  engine = createEngine({ clock: new VirtualClock(NOW), store });
});

/** The file types, as their smallest valid openings. */
const BYTES = {
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  pdf: new TextEncoder().encode('%PDF-1.7\n%railyard\n'),
  gif: new TextEncoder().encode('GIF89a\x01\x00\x01\x00'),
};
const TYPES = { png: 'image/png', jpeg: 'image/jpeg', pdf: 'application/pdf', gif: 'image/gif' };

interface FilePart {
  name: string;
  bytes: Uint8Array;
  type?: string;
}
const file = (name: string, kind: keyof typeof BYTES = 'jpeg', type: string = TYPES[kind]): FilePart => ({ name, bytes: BYTES[kind], type });

const auth = (credentials: Credentials = DEFAULT_CREDENTIALS) => `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`;

/** A multipart request built the way a browser or the client builds it: FormData with a Blob part. */
function formRequest(method: string, path: string, fields: Record<string, string>, part?: FilePart, extra: { headers?: Record<string, string>; credentials?: Credentials } = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (part) form.append('file', new Blob([part.bytes as Uint8Array<ArrayBuffer>], { type: part.type ?? '' }), part.name);
  return new Request(`http://sandbox.test${BASE_PATH}${path}`, {
    method, body: form, headers: { authorization: auth(extra.credentials), ...extra.headers },
  });
}

async function send(request: Request) {
  const response = await engine.fetch(request);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Json };
}
const call = (method: string, path: string, body?: unknown, credentials?: Credentials) =>
  send(apiRequest(method, path, body, {}, credentials));
const upload = (fields: Record<string, string>, part?: FilePart, extra?: { headers?: Record<string, string>; credentials?: Credentials }) =>
  send(formRequest('POST', '/documents', fields, part, extra));
const replace = (id: string, fields: Record<string, string>, part?: FilePart) => send(formRequest('PUT', `/documents/${id}`, fields, part));
const fieldsOf = (body: Json) => (body.details.errors as { field: string }[]).map((e) => e.field).sort();
const errorOn = (body: Json, field: string) => (body.details.errors as { field: string; message: string }[]).find((e) => e.field === field);

/** The stored records of the default platform (internal fields included). */
const stored = (): DocumentRecord[] => (store.tenant(engine.defaultPlatform.id).export().documents ?? []) as DocumentRecord[];
const tenant = () => new TenantContext(engine.defaultPlatform, store.tenant(engine.defaultPlatform.id), engine.clock, randomIds, new Scheduler(engine.clock));

const alice = {
  customerType: 'INDIVIDUAL', platformCustomerId: 'alice', fullName: 'Alice Liddell', birthDate: '1990-04-01', nationality: 'US',
  address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
};
const acme = {
  customerType: 'BUSINESS', platformCustomerId: 'acme',
  businessInfo: { legalName: 'Acme Inc', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30', registrationNumber: 'REG-100' },
};
const owner = {
  roles: ['UBO'], ownershipPercentage: 40,
  personalInfo: {
    firstName: 'Grace', lastName: 'Hopper', birthDate: '1960-12-09', nationality: 'US', idType: 'SSN', identifier: '123-45-6789',
    address: { line1: '2 Main St', postalCode: '10001', country: 'US' },
  },
};

async function customer(body: Json = alice, credentials?: Credentials): Promise<string> {
  const created = await call('POST', '/customers', body, credentials);
  expect(created.status).toBe(201);
  return created.body.id;
}

const passport = (holder: string) => ({ documentHolder: holder, documentType: 'PASSPORT', country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State' });
const idCard = (holder: string, side = 'FRONT') => ({ documentHolder: holder, documentType: 'NATIONAL_ID', country: 'DE', documentNumber: 'L01X00T47', issuingAuthority: 'Stadt Berlin', side });
const bill = (holder: string, issuedOn = '2026-05-01') => ({ documentHolder: holder, documentType: 'UTILITY_BILL', country: 'US', issuedOn });

describe('POST /documents', () => {
  it('stores a passport and returns the Document without internal fields', async () => {
    const holder = await customer();
    const { status, body } = await upload(passport(holder), file('passport.jpg'));
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^Document:[0-9a-f-]{36}$/), documentHolder: holder, documentType: 'PASSPORT', country: 'US',
      documentNumber: 'X1234567', issuingAuthority: 'US Department of State', fileName: 'passport.jpg',
      createdAt: '2026-05-31T12:00:00.000Z', updatedAt: '2026-05-31T12:00:00.000Z',
    });
    expect((await call('GET', `/documents/${body.id}`)).body).toEqual(body);
    const [record] = stored();
    expect(record).toMatchObject({ id: body.id, contentType: 'image/jpeg', sizeBytes: BYTES.jpeg.byteLength });
    expect(record!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(record!.sandboxOutcome).toBeUndefined();
    expect(record!.submittedAt).toBeUndefined();
  });

  it('emits no events', async () => {
    const holder = await customer();
    const before = engine.sandbox().events().totalCount;
    expect((await upload(passport(holder), file('p.jpg'))).status).toBe(201);
    expect(engine.sandbox().events().totalCount).toBe(before);
  });

  it('lists every missing field at once, the file included', async () => {
    const { status, body } = await upload({});
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_INPUT');
    expect(fieldsOf(body)).toEqual(['country', 'documentHolder', 'documentType', 'file']);
    expect(errorOn(body, 'file')).toMatchObject({ message: expect.stringContaining('is required'), constraint: { required: true } });
    expect(stored()).toEqual([]);
  });

  it('lists schema, holder, rule and file problems together', async () => {
    const deleted = await customer();
    await call('DELETE', `/customers/${deleted}`);
    const { status, body } = await upload({ documentHolder: deleted, documentType: 'NATIONAL_ID', country: 'XX', colour: 'red' }, file('id.gif', 'gif'));
    expect(status).toBe(400);
    // colour is not a field: ignored, unless the platform is strict (below).
    expect(fieldsOf(body)).toEqual(['country', 'documentHolder', 'documentNumber', 'file', 'issuingAuthority']);
    // A holder that does not exist is looked up only once the form is valid: the 400 lists the form's problems.
    const unknown = 'Customer:00000000-0000-4000-8000-00000000abcd';
    const invalid = await upload({ documentHolder: unknown, documentType: 'NATIONAL_ID', country: 'XX' }, file('id.gif', 'gif'));
    expect(fieldsOf(invalid.body)).toEqual(['country', 'documentNumber', 'file', 'issuingAuthority']);
  });

  it('a strict platform lists form fields the upload does not know', async () => {
    engine.createPlatform({ clientId: 'strict-docs', clientSecret: 'strict-secret', strict: true });
    const strict = { clientId: 'strict-docs', clientSecret: 'strict-secret' };
    const holder = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Stella Strict' }, strict)).body.id;
    const { status, body } = await upload({ ...passport(holder), colour: 'red' }, file('p.jpg'), { credentials: strict });
    expect(status).toBe(400);
    expect(fieldsOf(body)).toEqual(['colour']);
    expect(errorOn(body, 'colour')!.message).toContain('is not a field of this request');
  });

  it('treats empty text fields (an unfilled HTML form field) as absent', async () => {
    const holder = await customer();
    const { status, body } = await upload({ ...passport(holder), side: '', issuedOn: '' }, file('p.jpg'));
    expect(status).toBe(201);
    expect(body).not.toHaveProperty('side');
  });

  it('refuses a text field sent twice and a file where text belongs', async () => {
    const holder = await customer();
    const form = new FormData();
    for (const [k, v] of Object.entries(passport(holder))) form.append(k, v);
    form.append('country', 'DE');
    form.append('side', new Blob(['x']), 'side.txt');
    form.append('file', new Blob([BYTES.jpeg], { type: 'image/jpeg' }), 'p.jpg');
    const { status, body } = await send(new Request(`http://sandbox.test${BASE_PATH}/documents`, { method: 'POST', body: form, headers: { authorization: auth() } }));
    expect(status).toBe(400);
    expect(errorOn(body, 'country')!.message).toBe('must be sent once');
    expect(errorOn(body, 'side')!.message).toBe('must be a text field, not a file');
  });

  it('refuses file as a text field and two files', async () => {
    const holder = await customer();
    const asText = await upload({ ...passport(holder), file: 'passport.jpg' });
    expect(asText.status).toBe(400);
    expect(errorOn(asText.body, 'file')!.message).toBe('must be a file part (with a filename), not a text field');

    const form = new FormData();
    for (const [k, v] of Object.entries(passport(holder))) form.append(k, v);
    form.append('file', new Blob([BYTES.jpeg], { type: 'image/jpeg' }), 'a.jpg');
    form.append('file', new Blob([BYTES.jpeg], { type: 'image/jpeg' }), 'b.jpg');
    const two = await send(new Request(`http://sandbox.test${BASE_PATH}/documents`, { method: 'POST', body: form, headers: { authorization: auth() } }));
    expect(two.status).toBe(400);
    expect(errorOn(two.body, 'file')!.message).toBe('must be a single file, not 2');
    expect(stored()).toEqual([]);
  });

  describe('identity documents', () => {
    it('need documentNumber and issuingAuthority', async () => {
      const holder = await customer();
      const { body } = await upload({ documentHolder: holder, documentType: 'PASSPORT', country: 'US' }, file('p.jpg'));
      expect(fieldsOf(body)).toEqual(['documentNumber', 'issuingAuthority']);
      expect(errorOn(body, 'documentNumber')).toEqual({ field: 'documentNumber', message: 'is required for identity documents (PASSPORT)', constraint: { required: true } });
    });

    it('DRIVERS_LICENSE and NATIONAL_ID take a side (optional: verification asks for a missing one); each side is its own document', async () => {
      const holder = await customer();
      for (const documentType of ['DRIVERS_LICENSE', 'NATIONAL_ID']) {
        const { side: _side, ...noSide } = idCard(holder);
        const sideless = await upload({ ...noSide, documentType }, file('id.jpg'));
        expect(sideless.status).toBe(201);
        expect(sideless.body).not.toHaveProperty('side');
        await call('DELETE', `/documents/${sideless.body.id}`);
        const wrong = await upload({ ...idCard(holder, 'TOP'), documentType }, file('id.jpg'));
        expect(errorOn(wrong.body, 'side')!.message).toBe('must be one of FRONT, BACK');
      }
      expect((await upload(idCard(holder, 'FRONT'), file('front.jpg'))).body.side).toBe('FRONT');
      expect((await upload(idCard(holder, 'BACK'), file('back.png', 'png'))).body.side).toBe('BACK');
      expect(documentsOfHolder(tenant(), holder).map((d) => d.side)).toEqual(['FRONT', 'BACK']);
    });

    it('a PASSPORT with a side is accepted as sent (the reference allows side on any upload)', async () => {
      const holder = await customer();
      const { status, body } = await upload({ ...passport(holder), side: 'FRONT' }, file('p.jpg'));
      expect(status).toBe(201);
      expect(body.side).toBe('FRONT');
    });
  });

  describe('proof of address (dated within the last 3 months, by the engine clock)', () => {
    const types = ['UTILITY_BILL', 'ELECTRICITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'BANK_STATEMENT', 'TAX_RETURN'];
    const outcomeOf = (id: string) => reviewOutcomeOf(stored().find((d) => d.id === id)!, engine.clock.now());

    it('needs no issuedOn: neither SPEC nor the reference has the field, and such a document counts as current', async () => {
      const holder = await customer();
      for (const documentType of types) {
        const { status, body } = await upload({ documentHolder: holder, documentType, country: 'US' }, file('bill.pdf', 'pdf'));
        expect(status, documentType).toBe(201);
        expect(outcomeOf(body.id)).toBeUndefined();
      }
    });

    it('takes an old issuedOn and reports it at review: the 3-month boundary is current, the day before EXPIRED_DOCUMENT', async () => {
      const holder = await customer();
      for (const documentType of types) {
        const current = await upload({ ...bill(holder, '2026-02-28'), documentType }, file('bill.pdf', 'pdf'));
        const old = await upload({ ...bill(holder, '2026-02-27'), documentType }, file('bill.pdf', 'pdf'));
        expect([current.status, old.status]).toEqual([201, 201]);
        expect(outcomeOf(current.body.id)).toBeUndefined();
        expect(outcomeOf(old.body.id)).toBe('EXPIRED_DOCUMENT');
      }
      expect(stored()[0]!.issuedOn).toBe('2026-02-28');
    });

    it('follows the engine clock as it moves', async () => {
      const holder = await customer();
      const { body } = await upload(bill(holder, '2026-03-15'), file('bill.pdf', 'pdf'));
      expect(outcomeOf(body.id)).toBeUndefined();
      engine.sandbox().advance(31 * 24 * 3600 * 1000); // 2026-07-01: the earliest is now 2026-04-01
      expect(outcomeOf(body.id)).toBe('EXPIRED_DOCUMENT');
    });

    it('reports a date after today as INVALID_DOCUMENT, refuses only a malformed date, and ages only proof of address', async () => {
      const holder = await customer();
      const future = await upload({ ...passport(holder), issuedOn: '2026-06-01' }, file('p.jpg'));
      expect(future.status).toBe(201);
      expect(outcomeOf(future.body.id)).toBe('INVALID_DOCUMENT');
      const malformed = await upload(bill(holder, '31/05/2026'), file('bill.pdf', 'pdf'));
      expect(errorOn(malformed.body, 'issuedOn')!.message).toBe('must be a date in the form YYYY-MM-DD');
      const oldPassport = await upload({ ...passport(holder), issuedOn: '2019-01-01' }, file('p.jpg'));
      expect(outcomeOf(oldPassport.body.id)).toBeUndefined();
    });

    it('computes calendar months with month-end clamping', () => {
      expect(monthsBefore('2026-05-31', 3)).toBe('2026-02-28');
      expect(monthsBefore('2028-05-31', 3)).toBe('2028-02-29');
      expect(monthsBefore('2026-01-15', 3)).toBe('2025-10-15');
      expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    });
  });

  describe('the file', () => {
    it('accepts PDF, JPEG and PNG by content and stores the sniffed type', async () => {
      const holder = await customer();
      for (const kind of ['pdf', 'jpeg', 'png'] as const) {
        expect((await upload(passport(holder), file(`p.${kind}`, kind))).status).toBe(201);
      }
      expect(stored().map((d) => d.contentType)).toEqual(['application/pdf', 'image/jpeg', 'image/png']);
      expect(sniffDocumentType(BYTES.gif)).toBeUndefined();
    });

    it('lets the content decide when no type is declared (application/octet-stream or none)', async () => {
      const holder = await customer();
      expect((await upload(passport(holder), file('scan', 'png', 'application/octet-stream'))).status).toBe(201);
      expect((await upload(passport(holder), file('scan2', 'pdf', ''))).status).toBe(201);
      expect(stored().map((d) => d.contentType)).toEqual(['image/png', 'application/pdf']);
    });

    it('refuses content that is none of PDF, JPEG, PNG, even when declared as one', async () => {
      const holder = await customer();
      const { status, body } = await upload(passport(holder), file('p.png', 'gif', 'image/png'));
      expect(status).toBe(400);
      expect(fieldsOf(body)).toEqual(['file']);
      expect(errorOn(body, 'file')).toEqual({
        field: 'file', message: 'is not a PDF, JPEG or PNG: its content starts with none of their signatures; accepted types are application/pdf, image/jpeg, image/png',
        constraint: { enum: ['application/pdf', 'image/jpeg', 'image/png'] },
      });
      const empty = await upload(passport(holder), { name: 'p.png', bytes: new Uint8Array(0), type: 'image/png' });
      expect(errorOn(empty.body, 'file')!.message).toMatch(/^is empty;/);
      expect(stored()).toEqual([]);
    });

    it('refuses a declared type that disagrees with the content, and a type that is not accepted', async () => {
      const holder = await customer();
      const mismatch = await upload(passport(holder), file('p.png', 'pdf', 'image/png'));
      expect(mismatch.status).toBe(400);
      expect(errorOn(mismatch.body, 'file')!.message).toBe('is declared as image/png but its content is a PDF (application/pdf)');
      const gif = await upload(passport(holder), file('p.jpg', 'jpeg', 'image/gif'));
      expect(errorOn(gif.body, 'file')!.message).toBe('is declared as image/gif; accepted types are application/pdf, image/jpeg, image/png');
      expect((await upload(passport(holder), file('p.jpg', 'jpeg', 'image/jpg'))).status).toBe(201); // a common alias
      expect(stored()).toHaveLength(1);
    });

    it('accepts exactly 10 MB and refuses 10 MB + 1 byte with the limit named', async () => {
      const holder = await customer();
      const big = (size: number) => {
        const bytes = new Uint8Array(size);
        bytes.set(BYTES.pdf);
        return { name: 'statement.pdf', bytes, type: 'application/pdf' };
      };
      const exact = await upload(passport(holder), big(DOCUMENT_MAX_BYTES));
      expect(exact.status).toBe(201);
      const over = await upload(passport(holder), big(DOCUMENT_MAX_BYTES + 1));
      expect(over.status).toBe(400);
      expect(over.body.details.errors).toEqual([{
        field: 'file', message: 'is 10485761 bytes: files may be at most 10 MB (10485760 bytes)', constraint: { maximum: 10485760 },
      }]);
      expect(stored().map((d) => d.sizeBytes)).toEqual([DOCUMENT_MAX_BYTES]);
    });

    it('answers 413 to a body beyond the upload limit without reading it to its end', async () => {
      const holder = await customer();
      let pulled = 0;
      const chunk = new Uint8Array(1024 * 1024);
      const head = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-');
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(head);
        },
        pull(controller) {
          pulled += chunk.byteLength;
          if (pulled > 64 * 1024 * 1024) controller.close(); // a guard: the engine must stop long before
          else controller.enqueue(chunk);
        },
      });
      const request = new Request(`http://sandbox.test${BASE_PATH}/documents?documentHolder=${holder}`, {
        method: 'POST', body, headers: { authorization: auth(), 'content-type': 'multipart/form-data; boundary=b' }, duplex: 'half',
      } as RequestInit);
      const { status, body: error } = await send(request);
      expect(status).toBe(413);
      expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { maxBodyBytes: DOCUMENT_FORM_LIMIT, errors: [{ field: 'body' }] } });
      expect(error.message).toContain(`larger than ${DOCUMENT_FORM_LIMIT} bytes`);
      expect(pulled).toBeLessThan(DOCUMENT_FORM_LIMIT + 4 * chunk.byteLength);
    });
  });

  describe('the request body', () => {
    it('must be multipart/form-data', async () => {
      const holder = await customer();
      const json = await call('POST', '/documents', passport(holder));
      expect(json.status).toBe(400);
      expect(json.body.code).toBe('INVALID_REQUEST_FORMAT');
      expect(json.body.message).toContain('Content-Type must be multipart/form-data');
    });

    it('a malformed multipart body is 400 INVALID_REQUEST_FORMAT, never a 5xx', async () => {
      for (const body of ['garbage', '--b\r\nContent-Disposition: form-data; name="country"\r\n\r\nUS', '--other\r\n\r\n--other--']) {
        const { status, body: error } = await send(new Request(`http://sandbox.test${BASE_PATH}/documents`, {
          method: 'POST', body, headers: { authorization: auth(), 'content-type': 'multipart/form-data; boundary=b' },
        }));
        expect(status).toBe(400);
        expect(error.code).toBe('INVALID_REQUEST_FORMAT');
        expect(error.message).toContain('not a valid multipart/form-data body');
      }
      const noBoundary = await send(new Request(`http://sandbox.test${BASE_PATH}/documents`, {
        method: 'POST', body: 'x', headers: { authorization: auth(), 'content-type': 'multipart/form-data' },
      }));
      expect(noBoundary.body.code).toBe('INVALID_REQUEST_FORMAT');
      expect(stored()).toEqual([]);
    });

    it('answers an empty multipart body with a 400, not a 5xx', async () => {
      const request = new Request(`http://sandbox.test${BASE_PATH}/documents`, {
        method: 'POST', body: '', headers: { authorization: auth(), 'content-type': 'multipart/form-data; boundary=abc' },
      });
      const { status } = await send(request);
      expect(status).toBe(400);
    });

    it('replays an upload sent again with the same Idempotency-Key', async () => {
      const holder = await customer();
      const first = await upload(passport(holder), file('p.jpg'), { headers: { 'idempotency-key': 'doc-1' } });
      const again = await upload(passport(holder), file('p.jpg'), { headers: { 'idempotency-key': 'doc-1' } });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      expect(stored()).toHaveLength(1);
      const otherFile = await upload(passport(holder), file('other.jpg'), { headers: { 'idempotency-key': 'doc-1' } });
      expect(otherFile.status).toBe(409);
      expect(otherFile.body.code).toBe('CONFLICT');
      expect(stored()).toHaveLength(1);
    });
  });

  describe('the holder', () => {
    it('may be a beneficial owner of a business customer', async () => {
      const business = await customer(acme);
      const created = await call('POST', '/beneficial-owners', { ...owner, customerId: business });
      expect(created.status).toBe(201);
      const { status, body } = await upload(passport(created.body.id), file('owner.jpg'));
      expect(status).toBe(201);
      expect(body.documentHolder).toBe(created.body.id);
    });

    it('must exist on this platform: an unknown customer or owner is a 404, and nothing is stored', async () => {
      const unknownCustomer = 'Customer:00000000-0000-4000-8000-000000000999';
      const unknownOwner = 'BeneficialOwner:00000000-0000-4000-8000-000000000999';
      const a = await upload(passport(unknownCustomer), file('p.jpg'));
      expect(a).toMatchObject({ status: 404, body: { status: 404, code: 'USER_NOT_FOUND', message: `Document holder not found: this platform has no customer ${unknownCustomer}` } });
      const b = await upload(passport(unknownOwner), file('p.jpg'));
      expect(b).toMatchObject({ status: 404, body: { code: 'REFERENCE_NOT_FOUND', message: `Document holder not found: this platform has no beneficial owner ${unknownOwner}` } });
      // A rejection marker applies only to an upload that is otherwise accepted: the missing holder answers first.
      expect((await upload(passport(unknownCustomer), file('p_blurry.jpg'))).status).toBe(404);
      // An id of another kind is not a holder at all: a field error.
      const c = await upload(passport('InternalAccount:00000000-0000-4000-8000-000000000999'), file('p.jpg'));
      expect(c.status).toBe(400);
      expect(errorOn(c.body, 'documentHolder')!.message).toBe('must be an id of the form Customer or BeneficialOwner:<uuid>');
      expect(stored()).toEqual([]);
    });

    it('of another platform looks unknown', async () => {
      const other = engine.createPlatform({ name: 'Other', clientId: 'other', clientSecret: 'other-secret' });
      const otherCredentials = { clientId: other.clientId, clientSecret: 'other-secret' };
      const theirs = await customer(alice, otherCredentials);
      const { status, body } = await upload(passport(theirs), file('p.jpg'));
      expect(status).toBe(404);
      expect(body).toMatchObject({ code: 'USER_NOT_FOUND', message: `Document holder not found: this platform has no customer ${theirs}` });
      expect((await upload(passport(theirs), file('p.jpg'), { credentials: otherCredentials })).status).toBe(201);
    });

    it('must not be a deleted customer', async () => {
      const holder = await customer();
      await call('DELETE', `/customers/${holder}`);
      const { body } = await upload(passport(holder), file('p.jpg'));
      expect(body.details.errors).toEqual([{ field: 'documentHolder', message: `customer ${holder} was deleted` }]);
    });
  });
});

describe('sandbox triggers in the file name', () => {
  it('refuse the upload with the status and code of their row, leaving no state', async () => {
    const holder = await customer();
    const expected: [string, number, string][] = [
      ['passport_cropped.jpg', 422, 'DOCUMENT_REJECTED'],
      ['passport_blurry.jpg', 422, 'DOCUMENT_REJECTED'],
      ['passport_grayscale.png', 422, 'DOCUMENT_REJECTED'],
      ['passport_reject_low_quality.jpg', 400, 'LOW_QUALITY'],
      ['passport_reject_mismatch.jpg', 400, 'DATA_MISMATCH'],
      ['passport_reject_expired.pdf', 400, 'EXPIRED'],
      ['passport_reject_fraud.jpg', 400, 'SUSPECTED_FRAUD'],
      ['passport_reject_unsuitable.jpg', 400, 'UNSUITABLE_DOCUMENT'],
      ['passport_reject_incomplete.jpg', 400, 'INCOMPLETE'],
    ];
    expect(expected).toHaveLength(Object.keys(DOCUMENT_REJECTION_TRIGGERS).length);
    for (const [name, status, code] of expected) {
      const kind = name.endsWith('.png') ? 'png' : name.endsWith('.pdf') ? 'pdf' : 'jpeg';
      const { status: got, body } = await upload(passport(holder), file(name, kind));
      expect([name, got, body.code]).toEqual([name, status, code]);
      expect(body.message).toMatch(/^The document was rejected: /);
      expect(body.details).toMatchObject({ fileName: name, sandboxTrigger: expect.stringMatching(/^_/) });
    }
    expect(stored()).toEqual([]);
    expect((await call('GET', `/documents?documentHolder=${holder}`)).body.totalCount).toBe(0);
  });

  it('the photo check names what failed', async () => {
    const holder = await customer();
    expect((await upload(passport(holder), file('passport_blurry.jpg'))).body.message).toBe('The document was rejected: the photo is not in focus');
    expect((await upload(passport(holder), file('passport_cropped.jpg'))).body.message).toBe('The document was rejected: the photo does not show all four corners of the document');
    expect((await upload(passport(holder), file('PASSPORT_GRAYSCALE.JPG'))).body.message).toBe('The document was rejected: the photo is not in color');
  });

  it('apply only once the upload is otherwise valid', async () => {
    const holder = await customer();
    const { status, body } = await upload({ documentHolder: holder, documentType: 'PASSPORT', country: 'US' }, file('passport_blurry.jpg'));
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_INPUT');
  });

  it('accept _verify_* uploads and record the verification error they will report', async () => {
    const holder = await customer();
    const expected: [string, string][] = [
      ['id_verify_invalid.jpg', 'INVALID_DOCUMENT'],
      ['id_verify_expired.jpg', 'EXPIRED_DOCUMENT'],
      ['id_verify_poor_quality.jpg', 'POOR_QUALITY_DOCUMENT'],
      ['id_verify_unreadable.jpg', 'UNREADABLE_DOCUMENT'],
      ['id_verify_incomplete.jpg', 'INCOMPLETE_DOCUMENT'],
      ['id_verify_wrong_type.jpg', 'WRONG_DOCUMENT_TYPE'],
      ['id_verify_fail.jpg', 'DOCUMENT_VERIFICATION_FAILED'],
      ['id_verify_fraud.jpg', 'SUSPECTED_FRAUD_DOCUMENT'],
    ];
    expect(expected).toHaveLength(Object.keys(DOCUMENT_VERIFICATION_TRIGGERS).length);
    for (const [name] of expected) {
      const { status, body } = await upload(passport(holder), file(name));
      expect(status).toBe(201);
      expect(body).not.toHaveProperty('sandboxOutcome');
    }
    expect(stored().map((d) => [d.fileName, d.sandboxOutcome])).toEqual(expected);
    expect(documentsOfHolder(tenant(), holder).map((d) => d.sandboxOutcome)).toEqual(expected.map(([, outcome]) => outcome));
  });

  it('are unambiguous: no marker ends with another, and a plain name matches none', () => {
    const markers = [...Object.keys(DOCUMENT_REJECTION_TRIGGERS), ...Object.keys(DOCUMENT_VERIFICATION_TRIGGERS)];
    for (const a of markers) for (const b of markers) if (a !== b) expect(a.endsWith(b), `${a} ends with ${b}`).toBe(false);
    expect(fileStemOf('Scan.Verify_Fail.PDF')).toBe('scan.verify_fail');
    expect(lookupFileMarker(DOCUMENT_VERIFICATION_TRIGGERS, 'scan_verify_fail.pdf')).toEqual({ marker: '_verify_fail', value: 'DOCUMENT_VERIFICATION_FAILED' });
    expect(lookupFileMarker(DOCUMENT_VERIFICATION_TRIGGERS, 'scan_verify_fail_v2.pdf')).toBeUndefined(); // the stem must END with it
    expect(lookupFileMarker(DOCUMENT_REJECTION_TRIGGERS, 'blurry.jpg')).toBeUndefined(); // the leading underscore is part of the marker
    expect(lookupFileMarker(DOCUMENT_REJECTION_TRIGGERS, 'passport.jpg')).toBeUndefined();
  });
});

describe('GET /documents', () => {
  it('lists a holder\'s documents newest first, in pages', async () => {
    const a = await customer();
    const b = await customer({ ...alice, platformCustomerId: 'bob' });
    const ids: string[] = [];
    for (const name of ['one.jpg', 'two.jpg', 'three.jpg']) ids.push((await upload(passport(a), file(name))).body.id);
    await upload(passport(b), file('bob.jpg'));

    const first = await call('GET', `/documents?documentHolder=${a}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.body.data.map((d: Json) => d.fileName)).toEqual(['three.jpg', 'two.jpg']);
    expect(first.body.data[0]).not.toHaveProperty('contentType');
    const second = await call('GET', `/documents?documentHolder=${a}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[0], fileName: 'one.jpg' })], hasMore: false, totalCount: 3 });

    expect((await call('GET', '/documents')).body.totalCount).toBe(4);
    expect((await call('GET', `/documents?documentHolder=${b}`)).body.data.map((d: Json) => d.fileName)).toEqual(['bob.jpg']);
    expect((await call('GET', '/documents?documentHolder=Customer:00000000-0000-4000-8000-000000000999')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('does not show another platform\'s documents', async () => {
    const holder = await customer();
    const { body } = await upload(passport(holder), file('p.jpg'));
    engine.createPlatform({ name: 'Other', clientId: 'other', clientSecret: 'other-secret' });
    const other = { clientId: 'other', clientSecret: 'other-secret' };
    expect((await call('GET', '/documents', undefined, other)).body.totalCount).toBe(0);
    expect((await call('GET', `/documents/${body.id}`, undefined, other)).status).toBe(404);
  });

  it('answers 404 REFERENCE_NOT_FOUND for an unknown document (SPEC §7 has no document code)', async () => {
    const { status, body } = await call('GET', '/documents/Document:00000000-0000-4000-8000-000000000999');
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Document Document:00000000-0000-4000-8000-000000000999 was not found' });
  });
});

describe('PUT /documents/{id}', () => {
  it('replaces the file and fields, keeping id, holder and createdAt', async () => {
    const holder = await customer();
    const original = (await upload(idCard(holder, 'FRONT'), file('front.jpg'))).body;
    engine.sandbox().advance(60_000);
    const { status, body } = await replace(original.id, { documentType: 'NATIONAL_ID', country: 'FR', documentNumber: 'FR123', issuingAuthority: 'Préfecture', side: 'BACK' }, file('back.png', 'png'));
    expect(status).toBe(200);
    expect(body).toEqual({
      id: original.id, documentHolder: holder, documentType: 'NATIONAL_ID', country: 'FR', documentNumber: 'FR123', issuingAuthority: 'Préfecture',
      side: 'BACK', fileName: 'back.png', createdAt: original.createdAt, updatedAt: '2026-05-31T12:01:00.000Z',
    });
    expect(stored()).toHaveLength(1);
    expect(stored()[0]).toMatchObject({ contentType: 'image/png', sizeBytes: BYTES.png.byteLength });
  });

  it('drops fields the replacement does not send', async () => {
    const holder = await customer();
    const original = (await upload({ ...passport(holder), issuedOn: '2020-01-01' }, file('p.jpg'))).body;
    const { body } = await replace(original.id, { documentType: 'UTILITY_BILL', country: 'US', issuedOn: '2026-05-01' }, file('bill.pdf', 'pdf'));
    expect(body).not.toHaveProperty('documentNumber');
    expect(body).toMatchObject({ documentType: 'UTILITY_BILL', issuedOn: '2026-05-01' });
  });

  it('validates like an upload and refuses documentHolder; a refused replacement changes nothing', async () => {
    const holder = await customer();
    const original = (await upload(passport(holder), file('p.jpg'))).body;
    const before = stored();
    // The holder never changes: a documentHolder on a replacement is ignored (a strict platform lists it).
    const bad = await replace(original.id, { documentHolder: holder, documentType: 'PASSPORT', country: 'US' }, file('p.gif', 'gif'));
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['documentNumber', 'file', 'issuingAuthority']);
    const { documentHolder: _h, ...fields } = passport(holder);
    const rejected = await replace(original.id, fields, file('p_blurry.jpg'));
    expect(rejected.status).toBe(422);
    expect(stored()).toEqual(before);
  });

  it('clears sandboxOutcome and submittedAt unless the new name carries a marker', async () => {
    const holder = await customer();
    const { documentHolder: _h, ...fields } = passport(holder);
    const id = (await upload(passport(holder), file('p_verify_unreadable.jpg'))).body.id;
    markDocumentsSubmitted(tenant(), [id]);
    expect(stored()[0]).toMatchObject({ sandboxOutcome: 'UNREADABLE_DOCUMENT', submittedAt: '2026-05-31T12:00:00.000Z' });

    expect((await replace(id, fields, file('p_clear.jpg'))).status).toBe(200);
    expect(stored()[0]!.sandboxOutcome).toBeUndefined();
    expect(stored()[0]!.submittedAt).toBeUndefined();

    expect((await replace(id, fields, file('p_verify_fraud.jpg'))).status).toBe(200);
    expect(stored()[0]!.sandboxOutcome).toBe('SUSPECTED_FRAUD_DOCUMENT');
  });

  it('answers 404 for an unknown document', async () => {
    const { status, body } = await replace('Document:00000000-0000-4000-8000-000000000999', { documentType: 'OTHER', country: 'US' }, file('x.pdf', 'pdf'));
    expect(status).toBe(404);
    expect(body.code).toBe('REFERENCE_NOT_FOUND');
  });
});

describe('DELETE /documents/{id}', () => {
  it('deletes a document not yet submitted (204)', async () => {
    const holder = await customer();
    const { body } = await upload(passport(holder), file('p.jpg'));
    const deleted = await call('DELETE', `/documents/${body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await call('GET', `/documents/${body.id}`)).status).toBe(404);
    expect((await call('DELETE', `/documents/${body.id}`)).status).toBe(404);
    expect(documentsOfHolder(tenant(), holder)).toEqual([]);
  });

  it('answers 409 CONFLICT once the document was submitted, and allows it again after a replacement', async () => {
    const holder = await customer();
    const { body } = await upload(passport(holder), file('p.jpg'));
    markDocumentsSubmitted(tenant(), [body.id]);
    const refused = await call('DELETE', `/documents/${body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(refused.body.message).toContain('was submitted for verification at 2026-05-31T12:00:00.000Z');
    expect((await call('GET', `/documents/${body.id}`)).status).toBe(200);

    const { documentHolder: _h, ...fields } = passport(holder);
    await replace(body.id, fields, file('p2.jpg'));
    expect((await call('DELETE', `/documents/${body.id}`)).status).toBe(204);
  });
});

describe('markDocumentsSubmitted', () => {
  it('keeps the first submission time and refuses unknown ids before changing anything', async () => {
    const holder = await customer();
    const a = (await upload(passport(holder), file('a.jpg'))).body.id;
    const b = (await upload(passport(holder), file('b.jpg'))).body.id;
    markDocumentsSubmitted(tenant(), [a]);
    engine.sandbox().advance(1000);
    markDocumentsSubmitted(tenant(), [a, b]);
    expect(stored().map((d) => d.submittedAt)).toEqual(['2026-05-31T12:00:00.000Z', '2026-05-31T12:00:01.000Z']);
    const c = (await upload(passport(holder), file('c.jpg'))).body.id;
    expect(() => markDocumentsSubmitted(tenant(), [c, 'Document:nope'])).toThrow('unknown document Document:nope');
    expect(stored()[2]!.submittedAt).toBeUndefined();
  });
});

describe('snapshots', () => {
  it('carry documents with their internal fields and restore them', async () => {
    const holder = await customer();
    const { body } = await upload(passport(holder), file('p_verify_expired.jpg'));
    const snapshot = engine.sandbox().snapshot();
    expect((snapshot.collections.documents as Json[])[0]).toMatchObject({ id: body.id, sandboxOutcome: 'EXPIRED_DOCUMENT', contentType: 'image/jpeg' });
    engine.sandbox().reset();
    expect((await call('GET', `/documents/${body.id}`)).status).toBe(404);
    engine.sandbox().restore(snapshot);
    expect((await call('GET', `/documents/${body.id}`)).body).toEqual(body);
    expect(documentsOfHolder(tenant(), holder).map((d) => d.id)).toEqual([body.id]);

    const broken = structuredClone(snapshot) as Json;
    broken.collections.documents[0].sandboxOutcome = 'APPLICANT_FRAUD';
    expect(() => engine.sandbox().restore(broken)).toThrow();
  });
});

describe('the standalone server', () => {
  it('takes a ~9 MB upload over HTTP', async () => {
    const server = await startServer(engine, { port: 0 });
    try {
      const holder = await customer();
      const bytes = new Uint8Array(9 * 1024 * 1024 + 123);
      bytes.set(BYTES.pdf);
      const form = new FormData();
      for (const [k, v] of Object.entries(bill(holder))) form.append(k, v);
      form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'statement.pdf');
      const response = await fetch(`${server.baseUrl}/documents`, { method: 'POST', body: form, headers: { authorization: auth() } });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ documentHolder: holder, fileName: 'statement.pdf', documentType: 'UTILITY_BILL', issuedOn: '2026-05-01' });
      expect(stored()[0]!.sizeBytes).toBe(bytes.byteLength);

      const tooBig = new Uint8Array(DOCUMENT_FORM_LIMIT + 1);
      const over = await fetch(`${server.baseUrl}/documents`, {
        method: 'POST', body: tooBig, headers: { authorization: auth(), 'content-type': 'multipart/form-data; boundary=b' },
      });
      expect(over.status).toBe(413);
      expect((await over.json()).code).toBe('INVALID_INPUT');
    } finally {
      await server.close();
    }
  });
});
