import { BULK_IMPORT_MAX_ROW_ERRORS, BulkCustomerImportJob } from '@railyard/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, formRequest, type Json } from '../testing/requests.js';
import { BULK_IMPORT_ROWS_PER_STEP, BULK_IMPORT_START_DELAY_MS, BULK_IMPORT_STEP_INTERVAL_MS } from './bulk-import.js';
import { CSV_MAX_FIELDS } from './csv.js';

// Bulk customer import: upload (202 PENDING), the job on the engine clock, row checks as POST /customers makes them.

let engine: Engine;
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
});

const HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,email,businessLegalName,businessRegistrationNumber';
const ADDRESS = '1 Main St,Springfield,IL,62701,US';

async function upload(csv: string | Uint8Array, fields: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const bytes = typeof csv === 'string' ? new TextEncoder().encode(csv) : csv;
  const response = await engine.fetch(formRequest('POST', '/customers/bulk/csv', fields, { name: 'customers.csv', bytes, type: 'text/csv' }));
  return { status: response.status, body: (await response.json()) as Json };
}
const job = async (jobId: string) => (await call('GET', `/customers/bulk/jobs/${jobId}`)).body;

describe('bulk customer import', () => {
  it('answers 202 PENDING, then creates the valid rows through POST /customers and reports the others by row', async () => {
    await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'taken', fullName: 'Already Here' });
    const csv = [
      HEADER,
      `$ada@example.com,p-1,INDIVIDUAL,Ada Lovelace,1815-12-10,${ADDRESS},ada@example.com,,`,
      `$pending@example.com,p-2,INDIVIDUAL,"Pending, Person 001",1990-01-01,${ADDRESS},,,`,
      `$acme@example.com,b-1,BUSINESS,,,${ADDRESS},,"Acme ""Tools"" Inc",REG-001`,
      `bob@example.com,p-3,INDIVIDUAL,Bob,1990-13-01,${ADDRESS},,,`,
      `$dup@example.com,taken,INDIVIDUAL,Dup,1990-01-01,${ADDRESS},,,`,
      `$noid@example.com,,INDIVIDUAL,No Id,1990-01-01,,Springfield,IL,62701,US,,,`,
    ].join('\r\n');
    const accepted = await upload(`\uFEFF${csv}\r\n`);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ jobId: expect.stringMatching(/^Job:/), status: 'PENDING' });
    const pending = await job(accepted.body.jobId);
    expect(pending).toMatchObject({ status: 'PENDING', progress: { total: 6, processed: 0, successful: 0, failed: 0 }, errors: [] });
    expect(pending.completedAt).toBeUndefined();

    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
    const done = await job(accepted.body.jobId);
    expect(BulkCustomerImportJob.parse(done)).toEqual(done);
    expect(done).toMatchObject({ status: 'COMPLETED', progress: { total: 6, processed: 6, successful: 3, failed: 3 }, completedAt: expect.any(String) });
    const byId = Object.fromEntries(done.errors.map((e: Json) => [e.correlationId, e]));
    expect(Object.keys(byId).sort()).toEqual(['7', 'p-3', 'taken']);
    expect(byId['p-3']).toMatchObject({ code: 'INVALID_INPUT' });
    // Its address lacks the `$`, which the import adds: only the date is wrong.
    expect(byId['p-3'].details.errors.map((e: Json) => e.field).sort()).toEqual(['birthDate']);
    // The same code and details as POST /customers for a platformCustomerId already in use.
    const direct = await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'taken', fullName: 'Dup' });
    expect(byId.taken).toMatchObject({ code: direct.body.code, details: direct.body.details });
    expect(byId['7']).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [
      { field: 'platformCustomerId', constraint: { required: true } }, { field: 'addressLine1', constraint: { required: true } },
    ] } });

    const customers = (await call('GET', '/customers?limit=10')).body.data as Json[];
    const ada = customers.find((c) => c.platformCustomerId === 'p-1')!;
    expect(ada).toMatchObject({
      customerType: 'INDIVIDUAL', umaAddress: '$ada@example.com', fullName: 'Ada Lovelace', birthDate: '1815-12-10', email: 'ada@example.com',
      kycStatus: 'APPROVED', address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    });
    expect(customers.find((c) => c.platformCustomerId === 'p-2')).toMatchObject({ fullName: 'Pending, Person 001', kycStatus: 'PENDING' });
    expect(customers.find((c) => c.platformCustomerId === 'b-1')).toMatchObject({
      customerType: 'BUSINESS', kybStatus: 'UNVERIFIED', businessInfo: { legalName: 'Acme "Tools" Inc', registrationNumber: 'REG-001' },
    });
    expect((await call('GET', `/accounts?customerId=${ada.id}`)).status).toBeLessThan(500);
    const event = await engine.webhooks.next('BULK_UPLOAD.COMPLETED');
    expect(event.data).toEqual(done);
  });

  it('adds the $ an address lacks (the reference\'s example file has none); a malformed address is refused as POST /customers refuses it', async () => {
    const { body } = await upload(`${HEADER}\nalice@example.com,p-1,INDIVIDUAL,Alice,1990-01-01,${ADDRESS},,,\n  $bob@example.com ,p-2,INDIVIDUAL,Bob,1990-01-01,${ADDRESS},,,\nnot an address,p-3,INDIVIDUAL,Carol,1990-01-01,${ADDRESS},,,\n`);
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
    const done = await job(body.jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', progress: { total: 3, processed: 3, successful: 2, failed: 1 } });
    const customers = (await call('GET', '/customers?limit=10')).body.data as Json[];
    expect(Object.fromEntries(customers.map((c) => [c.platformCustomerId, c.umaAddress]))).toEqual({ 'p-1': '$alice@example.com', 'p-2': '$bob@example.com' });
    // The address with its `$` is still not an UMA address: the code and details of POST /customers for it.
    const direct = await call('POST', '/customers', { customerType: 'INDIVIDUAL', umaAddress: '$not an address' });
    expect(direct.body.code).toBe('INVALID_UMA_ADDRESS');
    expect(done.errors).toEqual([{ correlationId: 'p-3', code: direct.body.code, message: expect.any(String), details: direct.body.details }]);
  });

  it('accepts an unusable file (202) and fails its job with one error on the file', async () => {
    const cases: [csv: string | Uint8Array, field: string][] = [
      ['platformCustomerId,customerType\np-1,INDIVIDUAL\n', 'umaAddress'],
      ['', 'file'],
      [`${HEADER}\n\n`, 'file'],
      [new Uint8Array([0x41, 0xff, 0x0a]), 'file'],
    ];
    for (const [csv, field] of cases) {
      const accepted = await upload(csv);
      expect(accepted.status).toBe(202);
      engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
      const failed = await job(accepted.body.jobId);
      expect(failed).toMatchObject({ status: 'FAILED', completedAt: expect.any(String), progress: { total: 0, processed: 0 } });
      expect(failed.errors).toEqual([{ correlationId: 'file', code: 'INVALID_INPUT', message: expect.any(String), details: { errors: [expect.objectContaining({ field })] } }]);
    }
  });

  it('refuses a form without a file part (400 INVALID_INPUT on file) or not multipart; 404 BULK_UPLOAD_JOB_NOT_FOUND', async () => {
    const response = await engine.fetch(formRequest('POST', '/customers/bulk/csv', { note: 'no file' }));
    const body = (await response.json()) as Json;
    expect([response.status, body.code, body.details.errors[0].field]).toEqual([400, 'INVALID_INPUT', 'file']);
    const json = await call('POST', '/customers/bulk/csv', { file: 'a,b' });
    expect([json.status, json.body.code]).toEqual([400, 'INVALID_REQUEST_FORMAT']);
    const missing = await call('GET', '/customers/bulk/jobs/Job:00000000-0000-4000-8000-000000000000');
    expect([missing.status, missing.body.code]).toEqual([404, 'BULK_UPLOAD_JOB_NOT_FOUND']);
  });

  it('works through a large file a chunk per step, PROCESSING in between; jobs are per platform and survive a snapshot', async () => {
    const rows = Array.from({ length: BULK_IMPORT_ROWS_PER_STEP + 5 }, (_, i) => `$u${i}@example.com,p-${i},INDIVIDUAL,User ${i},1990-01-01,${ADDRESS},,,`);
    const { body } = await upload([HEADER, ...rows].join('\n'));
    const saved = engine.sandbox().snapshot();
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
    expect(await job(body.jobId)).toMatchObject({ status: 'PROCESSING', progress: { total: rows.length, processed: BULK_IMPORT_ROWS_PER_STEP } });
    engine.sandbox().advance(1_000);
    expect(await job(body.jobId)).toMatchObject({ status: 'COMPLETED', progress: { processed: rows.length, successful: rows.length, failed: 0 } });

    const other = engine.createPlatform({ name: 'other' });
    const fromOther = await callApi(engine, 'GET', `/customers/bulk/jobs/${body.jobId}`, undefined, undefined, { clientId: other.clientId, clientSecret: other.clientSecret });
    expect(fromOther.body.code).toBe('BULK_UPLOAD_JOB_NOT_FOUND');

    // Restored after its start time has passed, the job's due step runs as part of the restore (and the next on the clock).
    engine.sandbox().restore(structuredClone(saved));
    expect(await job(body.jobId)).toMatchObject({ status: 'PROCESSING', progress: { processed: BULK_IMPORT_ROWS_PER_STEP } });
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS + 1_000);
    expect((await job(body.jobId)).progress.successful).toBe(rows.length);
  });
  it('keeps the first row errors only, counting the others: failed stays exact and the job small', async () => {
    const rows = 2 * BULK_IMPORT_MAX_ROW_ERRORS + 500;
    const { body } = await upload(`${HEADER}\n${'x\n'.repeat(rows)}`);
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS + 10 * BULK_IMPORT_STEP_INTERVAL_MS);
    const response = await call('GET', `/customers/bulk/jobs/${body.jobId}`);
    const done = response.body;
    expect(BulkCustomerImportJob.parse(done)).toEqual(done);
    expect(done).toMatchObject({ status: 'FAILED', progress: { total: rows, processed: rows, successful: 0, failed: rows }, errorsOmitted: rows - BULK_IMPORT_MAX_ROW_ERRORS });
    expect(done.errors).toHaveLength(BULK_IMPORT_MAX_ROW_ERRORS);
    expect([done.errors[0].correlationId, done.errors.at(-1).correlationId]).toEqual(['2', String(BULK_IMPORT_MAX_ROW_ERRORS + 1)]);
    expect(JSON.stringify(done).length).toBeLessThan(BULK_IMPORT_MAX_ROW_ERRORS * 2_000);
    expect((await engine.webhooks.next('BULK_UPLOAD.FAILED')).data).toEqual(done);
    // Under the limit nothing is left out, and the field is absent.
    const few = await upload(`${HEADER}\nx\n`);
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
    expect(Object.keys(await job(few.body.jobId))).not.toContain('errorsOmitted');
  });

  it('skips rows of empty or space-only cells, which still count for row numbers', async () => {
    const csv = [HEADER, ',,,,,,,,,,,,', '   ', ` , ,"",\t`, `$a@example.com,,INDIVIDUAL,Ann,1990-01-01,${ADDRESS},,,`, ''].join('\r\n');
    const { body } = await upload(csv);
    expect((await job(body.jobId)).progress.total).toBe(1);
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
    const done = await job(body.jobId);
    expect(done).toMatchObject({ progress: { total: 1, processed: 1, failed: 1 } });
    expect(done.errors.map((e: Json) => e.correlationId)).toEqual(['5']);
  });

  it('refuses a row of more than CSV_MAX_FIELDS cells (row error) and a header of more (file error)', async () => {
    const wide = `$w@example.com,w-1,INDIVIDUAL,Wide,1990-01-01,${ADDRESS},,,${','.repeat(CSV_MAX_FIELDS)}`;
    const { body } = await upload([HEADER, wide, `$n@example.com,n-1,INDIVIDUAL,Narrow,1990-01-01,${ADDRESS},,,`].join('\n'));
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
    const done = await job(body.jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', progress: { total: 2, successful: 1, failed: 1 } });
    expect(done.errors).toEqual([{ correlationId: 'w-1', code: 'INVALID_INPUT', message: expect.any(String), details: { errors: [expect.objectContaining({ field: 'row', constraint: { maximum: CSV_MAX_FIELDS } })] } }]);

    const header = await upload(`${HEADER}${',x'.repeat(CSV_MAX_FIELDS)}\n$h@example.com,h-1,INDIVIDUAL,Head,1990-01-01,${ADDRESS},,,\n`);
    engine.sandbox().advance(BULK_IMPORT_START_DELAY_MS);
    const failed = await job(header.body.jobId);
    expect(failed).toMatchObject({ status: 'FAILED', progress: { total: 0 } });
    expect(failed.errors[0].details.errors).toEqual([expect.objectContaining({ field: 'file', constraint: { maximum: CSV_MAX_FIELDS } })]);
  });
});
