import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, DEFAULT_CREDENTIALS, VirtualClock, type Engine } from '@railyard/engine';
import { startServer } from '@railyard/engine/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RailyardClient } from '../client.js';
import { BadRequestError, NotFoundError, RailyardError, UnprocessableEntityError } from '../core/errors.js';
import { documentForm } from './documents.js';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PDF = new TextEncoder().encode('%PDF-1.7\n');

const alice = {
  customerType: 'INDIVIDUAL' as const, fullName: 'Alice Liddell', birthDate: '1990-04-01', nationality: 'US',
  address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
};
const passport = { documentType: 'PASSPORT' as const, country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State' };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'railyard-documents-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('client.documents against an in-process engine', () => {
  let engine: Engine;
  let client: RailyardClient;
  let holder: string;
  beforeEach(async () => {
    engine = createEngine({ clock: new VirtualClock(Date.UTC(2026, 4, 31, 12)) });
    client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sleep: async () => undefined });
    holder = (await client.customers.create(alice)).id;
  });

  it('uploads bytes, a Blob, a File and a file path', async () => {
    const fromBytes = await client.documents.upload({ ...passport, documentHolder: holder, file: JPEG, fileName: 'passport.jpg' });
    expect(fromBytes).toMatchObject({ documentHolder: holder, documentType: 'PASSPORT', fileName: 'passport.jpg', documentNumber: 'X1234567' });

    const fromBlob = await client.documents.upload({ ...passport, documentHolder: holder, file: new Blob([PNG], { type: 'image/png' }) });
    expect(fromBlob.fileName).toBe('document.png');

    const fromFile = await client.documents.upload({ ...passport, documentHolder: holder, file: new File([PDF], 'scan.pdf', { type: 'application/pdf' }) });
    expect(fromFile.fileName).toBe('scan.pdf');

    const path = join(dir, 'electricity.pdf');
    await writeFile(path, PDF);
    const fromPath = await client.documents.upload({ documentHolder: holder, documentType: 'ELECTRICITY_BILL', country: 'US', issuedOn: '2026-05-02', file: path });
    expect(fromPath).toMatchObject({ fileName: 'electricity.pdf', documentType: 'ELECTRICITY_BILL', issuedOn: '2026-05-02' });

    const { data, response } = await client.documents.upload({ ...passport, documentHolder: holder, file: Buffer.from(JPEG), fileName: 'buffer.jpg' }).withResponse();
    expect(data.fileName).toBe('buffer.jpg');
    expect(response.status).toBe(201);
    expect(response.requestId).toMatch(/^req_/);

    const page = await client.documents.list({ documentHolder: holder, limit: 2 });
    expect(page.data.map((d) => d.fileName)).toEqual(['buffer.jpg', 'electricity.pdf']);
    const all: string[] = [];
    for await (const document of client.documents.list({ documentHolder: holder, limit: 2 })) all.push(document.fileName);
    expect(all).toEqual(['buffer.jpg', 'electricity.pdf', 'scan.pdf', 'document.png', 'passport.jpg']);
  });

  it('retrieves, replaces and deletes', async () => {
    const document = await client.documents.upload({ ...passport, documentHolder: holder, file: JPEG, fileName: 'p.jpg' });
    expect(await client.documents.retrieve(document.id)).toEqual(document);
    const replaced = await client.documents.replace(document.id, { ...passport, documentNumber: 'Y7654321', file: PNG, fileName: 'p2.png' });
    expect(replaced).toMatchObject({ id: document.id, documentNumber: 'Y7654321', fileName: 'p2.png', createdAt: document.createdAt });
    expect(await client.documents.delete(document.id)).toBeUndefined();
    await expect(client.documents.retrieve(document.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.documents.replace('', { ...passport, file: JPEG })).rejects.toThrow('Missing path parameter "documentId"');
  });

  it('maps refusals to typed errors with every invalid field', async () => {
    const invalid = await client.documents.upload({ documentHolder: holder, documentType: 'NATIONAL_ID', country: 'US', file: new Uint8Array([1, 2, 3]) }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(BadRequestError);
    const fields = ((invalid as BadRequestError).body as { details: { errors: { field: string }[] } }).details.errors.map((e) => e.field).sort();
    expect(fields).toEqual(['documentNumber', 'file', 'issuingAuthority']);

    const blurry = await client.documents.upload({ ...passport, documentHolder: holder, file: JPEG, fileName: 'passport_blurry.jpg' }).catch((e: unknown) => e);
    expect(blurry).toBeInstanceOf(UnprocessableEntityError);
    expect(blurry).toMatchObject({ status: 422, code: 'DOCUMENT_REJECTED' });

    const expired = await client.documents.upload({ ...passport, documentHolder: holder, file: JPEG, fileName: 'passport_reject_expired.jpg' }).catch((e: unknown) => e);
    expect(expired).toMatchObject({ status: 400, code: 'EXPIRED' });
    expect((await client.documents.list({ documentHolder: holder })).data).toEqual([]);
  });

  it('reports an unreadable path or a browser without fs as a RailyardError, sending nothing', async () => {
    const missing = join(dir, 'missing.pdf');
    const error = await client.documents.upload({ ...passport, documentHolder: holder, file: missing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RailyardError);
    expect((error as Error).message).toContain(`Cannot read the document file ${JSON.stringify(missing)}`);
    expect(engine.sandbox().events().totalCount).toBe(0);
    await expect(client.documents.upload({ ...passport, documentHolder: holder, file: 42 as never })).rejects.toThrow('`file` must be a Blob');
  });

  it('logs the form without the file bytes', async () => {
    const lines: string[] = [];
    const logged = client.withOptions({ debug: { log: (line) => lines.push(line) } });
    await logged.documents.upload({ ...passport, documentHolder: holder, file: JPEG, fileName: 'p.jpg' });
    const request = lines.find((l) => l.includes('request POST'))!;
    expect(request).toContain('<file p.jpg, image/jpeg, 11 bytes>');
    expect(request).toContain('"documentNumber":"X1234567"');
  });
});

describe('client.documents over HTTP', () => {
  it('sends multipart/form-data through fetch, with the same key on a retry', async () => {
    const seen: { headers: Headers; form: FormData }[] = [];
    const fetch = async (request: Request) => {
      seen.push({ headers: request.headers, form: await request.formData() });
      if (seen.length === 1) return new Response('{"status":503,"code":"SERVICE_UNAVAILABLE","message":"later"}', { status: 503, headers: { 'content-type': 'application/json' } });
      return new Response(JSON.stringify({ id: 'Document:1', fileName: 'p.jpg' }), { status: 201, headers: { 'content-type': 'application/json' } });
    };
    const client = createClient({ fetch, baseUrl: 'https://sandbox.example.com/2025-10-13', clientId: 'id', clientSecret: 'secret', sleep: async () => undefined });
    const document = await client.documents.upload({ ...passport, documentHolder: 'Customer:1', file: JPEG, fileName: 'p.jpg', issuedOn: '2020-01-01' });
    expect(document).toEqual({ id: 'Document:1', fileName: 'p.jpg' });
    expect(seen).toHaveLength(2);
    for (const { headers, form } of seen) {
      expect(headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
      expect(headers.get('authorization')).toBe(`Basic ${btoa('id:secret')}`);
      expect(Object.fromEntries([...form].filter(([, v]) => typeof v === 'string'))).toEqual({
        documentHolder: 'Customer:1', documentType: 'PASSPORT', country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State', issuedOn: '2020-01-01',
      });
      const file = form.get('file') as File;
      expect([file.name, file.type, [...new Uint8Array(await file.arrayBuffer())]]).toEqual(['p.jpg', 'image/jpeg', [...JPEG]]);
    }
    expect(seen[0]!.headers.get('idempotency-key')).toMatch(/^railyard-/);
    expect(seen[1]!.headers.get('idempotency-key')).toBe(seen[0]!.headers.get('idempotency-key'));
  });

  it('uploads a file path to the standalone server', async () => {
    const engine = createEngine();
    const server = await startServer(engine, { port: 0 });
    try {
      const client = createClient({ baseUrl: server.baseUrl, ...DEFAULT_CREDENTIALS });
      const holder = (await client.customers.create(alice)).id;
      const path = join(dir, 'national-id-front.png');
      await writeFile(path, PNG);
      const document = await client.documents.upload({ documentHolder: holder, documentType: 'NATIONAL_ID', side: 'FRONT', country: 'DE', documentNumber: 'L01X00T47', issuingAuthority: 'Stadt Berlin', file: path });
      expect(document).toMatchObject({ fileName: 'national-id-front.png', side: 'FRONT' });
      expect((await client.documents.list({ documentHolder: holder })).totalCount).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('documentForm', () => {
  it('leaves out absent fields and types bytes by name or content', async () => {
    const form = await documentForm({ documentHolder: 'Customer:1', documentType: 'OTHER', country: 'US', file: PDF });
    expect([...form.keys()]).toEqual(['documentHolder', 'documentType', 'country', 'file']);
    expect((form.get('file') as File).type).toBe('application/pdf');
    expect((form.get('file') as File).name).toBe('document.pdf');
    const named = await documentForm({ documentType: 'OTHER', country: 'US', file: new Uint8Array([1]), fileName: 'x.jpeg' });
    expect((named.get('file') as File).type).toBe('image/jpeg');
    const unknown = await documentForm({ documentType: 'OTHER', country: 'US', file: new Uint8Array([1]) });
    expect([(unknown.get('file') as File).name, (unknown.get('file') as File).type]).toEqual(['document', '']); // sent as application/octet-stream
  });
});
