import { afterEach, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, type Customer, type RailyardClient } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

// Bulk customer import through the typed client, over every transport: a CSV of valid and invalid rows, the job's
// counts and per-row errors with the codes POST /customers gives, the customers created with their fields and KYC
// outcomes, the BULK_UPLOAD.COMPLETED webhook delivered to a receiver; a file that cannot be imported; the refusals.

/** A client for a fresh regulated platform: individuals resolve their KYC suffix at creation. */
async function regulatedPlatform(scope: TransportScope): Promise<RailyardClient> {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'bulk import', regulated: true });
  return scope.transport.clientFor(created);
}

const CSV = [
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,addressLine2,city,state,postalCode,country,email,businessLegalName,businessRegistrationNumber,businessTaxId',
  '$grace@example.com,emp-1,INDIVIDUAL,Grace Hopper,1906-12-09,1 Navy Way,Apt 2,Arlington,VA,22202,US,grace@example.com,,,',
  '$rejected@example.com,emp-2,INDIVIDUAL,Riley Rejected002,1990-01-01,2 Main St,,Springfield,IL,62701,US,,,,',
  '$pending@example.com,emp-3,INDIVIDUAL,"Quinn ""Q"" Pending001",1990-01-01,3 Main St,,Springfield,IL,62701,US,,,,',
  '$acme@example.com,biz-1,BUSINESS,,,"100 Market St, Floor 3",,San Francisco,CA,94105,US,,Acme Corp,REG-777,12-3456789',
  'no-dollar@example.com,emp-4,INDIVIDUAL,Dana,1990-02-30,4 Main St,,Springfield,IL,62701,US,,,,',
  '$grace2@example.com,emp-1,INDIVIDUAL,Grace Again,1906-12-09,1 Navy Way,,Arlington,VA,22202,US,,,,',
  '$nameless@example.com,,BUSINESS,,,5 Main St,,Springfield,IL,62701,US,,,,',
].join('\r\n');

describeOverTransports('bulk import', (scope) => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await scope.transport.engine?.webhooks.settled();
    await receiver?.close();
    receiver = undefined;
  });

  it('imports the valid rows of a CSV, reports the others by row with their codes, and announces the end', async () => {
    const client = await regulatedPlatform(scope);
    receiver = await startReceiver(client, (await client.sandbox.webhookKey()).publicKeyPem);
    await client.config.update({ webhookEndpoint: receiver.url });

    const accepted = await client.customers.bulk.uploadCsv(`\uFEFF${CSV}\r\n`);
    expect(accepted).toEqual({ jobId: expect.stringMatching(/^Job:[0-9a-f-]{36}$/), status: 'PENDING' });
    expect(await client.customers.bulk.retrieveJob(accepted.jobId)).toMatchObject({
      status: 'PENDING', progress: { total: 7, processed: 0, successful: 0, failed: 0 }, errors: [],
    });

    const job = await client.customers.bulk.waitFor(accepted.jobId, { advanceClock: 1_000 });
    expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 7, processed: 7, successful: 4, failed: 3 }, completedAt: expect.any(String) });
    expect(job.errors.map((e) => [e.correlationId, e.code])).toEqual([['emp-4', 'INVALID_INPUT'], ['emp-1', 'CONFLICT'], ['8', 'INVALID_INPUT']]);
    const [badRow, duplicate, nameless] = job.errors;
    // The import adds the `$` its address lacks: only the date (February 30th) is wrong.
    expect((badRow!.details!.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['birthDate']);
    expect(duplicate!.message).toContain('emp-1');
    expect(nameless!.details!.errors).toEqual([
      expect.objectContaining({ field: 'platformCustomerId', constraint: { required: true } }),
      expect.objectContaining({ field: 'businessLegalName', constraint: { required: true } }),
    ]);
    // The same refusal POST /customers gives for the duplicate.
    await expect(client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'emp-1' })).rejects.toMatchObject({ status: 409, code: duplicate!.code });

    const imported = new Map<string, Customer>();
    for await (const customer of client.customers.list({ limit: 100 })) imported.set(customer.platformCustomerId, customer);
    expect([...imported.keys()].sort()).toEqual(['biz-1', 'emp-1', 'emp-2', 'emp-3']);
    expect(imported.get('emp-1')).toMatchObject({
      customerType: 'INDIVIDUAL', umaAddress: '$grace@example.com', fullName: 'Grace Hopper', birthDate: '1906-12-09', email: 'grace@example.com',
      kycStatus: 'APPROVED', address: { line1: '1 Navy Way', line2: 'Apt 2', city: 'Arlington', state: 'VA', postalCode: '22202', country: 'US' },
    });
    expect(imported.get('emp-2')).toMatchObject({ kycStatus: 'REJECTED' });
    expect(imported.get('emp-3')).toMatchObject({ fullName: 'Quinn "Q" Pending001', kycStatus: 'PENDING' });
    expect(imported.get('biz-1')).toMatchObject({
      customerType: 'BUSINESS', kybStatus: 'UNVERIFIED', address: { line1: '100 Market St, Floor 3', city: 'San Francisco' },
      businessInfo: { legalName: 'Acme Corp', registrationNumber: 'REG-777', taxId: '12-3456789' },
    });
    // Each imported customer got its accounts, as one created by POST /customers does.
    expect((await client.internalAccounts.list({ customerId: imported.get('emp-1')!.id })).data.length).toBeGreaterThan(0);

    await scope.transport.engine?.webhooks.settled();
    const deadline = Date.now() + 10_000;
    while (!receiver.events().some((e) => e.type === 'BULK_UPLOAD.COMPLETED') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const announced = receiver.events().find((e) => e.type === 'BULK_UPLOAD.COMPLETED');
    expect(announced?.data).toEqual(job);
  });

  it('fails the job of a file without a required column, and refuses a form without a file or an unknown job', async () => {
    const { client } = scope;
    const { jobId } = await client.customers.bulk.uploadCsv(new TextEncoder().encode('platformCustomerId,fullName\nx,Someone\n'));
    const job = await client.customers.bulk.waitFor(jobId, { advanceClock: true });
    expect(job).toMatchObject({ status: 'FAILED', progress: { total: 0, processed: 0, successful: 0, failed: 0 }, completedAt: expect.any(String) });
    expect(job.errors).toEqual([{
      correlationId: 'file', code: 'INVALID_INPUT', message: expect.stringContaining('umaAddress'),
      details: { errors: [expect.objectContaining({ field: 'umaAddress' }), expect.objectContaining({ field: 'customerType' })] },
    }]);
    expect((await client.sandbox.events.list({ type: 'BULK_UPLOAD.FAILED' })).data.map((e) => e.data)).toEqual([job]);

    const form = new FormData();
    form.append('note', 'the file part is missing');
    const noFile = client.request({ method: 'POST', path: '/customers/bulk/csv', body: form });
    await expect(noFile).rejects.toBeInstanceOf(BadRequestError);
    await expect(noFile).rejects.toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'file' })] } });
    await expect(client.customers.bulk.retrieveJob('Job:00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.customers.bulk.retrieveJob('nope')).rejects.toMatchObject({ status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND' });
  });
});
