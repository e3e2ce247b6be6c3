import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { BulkImportWaitTimeoutError, NotFoundError, RailyardError } from '../core/errors.js';

// client.customers.bulk against an in-process engine: the file forms it sends, the wait, and its timeout.

const CSV = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n'
  + '$ada@example.com,user-1,INDIVIDUAL,Ada Lovelace,1815-12-10,12 St James Sq,London,London,SW1Y 4JH,GB\n';

function setup() {
  const engine = createEngine({ platform: { regulated: true } });
  return { engine, client: createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sandbox: true, sleep: async () => undefined }) };
}

describe('client.customers.bulk', () => {
  it('uploads text, a Blob and bytes alike; waitFor advances the virtual clock to the end of each job', async () => {
    const { client } = setup();
    const bytes = new TextEncoder().encode(CSV.replace(/user-1/g, 'user-3').replace('$ada', '$ada3'));
    const files = [CSV, new Blob([CSV.replace(/user-1/g, 'user-2').replace('$ada', '$ada2')]), bytes, bytes.buffer];
    const jobs = [];
    for (const file of files) jobs.push(await client.customers.bulk.uploadCsv(file, { fileName: 'people.csv' }));
    expect(jobs.map((j) => j.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING']);
    const ended = await Promise.all(jobs.map((j) => client.customers.bulk.waitFor(j.jobId, { advanceClock: true })));
    expect(ended.map((j) => [j.status, j.progress.successful, j.errors.map((e) => e.code)])).toEqual([
      ['COMPLETED', 1, []], ['COMPLETED', 1, []], ['COMPLETED', 1, []], ['FAILED', 0, ['CONFLICT']],
    ]);
  });

  it('rejects what is not a CSV before sending, an unknown job with NotFoundError, and a wait past its timeout', async () => {
    const { client } = setup();
    await expect(client.customers.bulk.uploadCsv(42 as unknown as string)).rejects.toBeInstanceOf(RailyardError);
    await expect(client.customers.bulk.retrieveJob('Job:00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    const { jobId } = await client.customers.bulk.uploadCsv(CSV);
    const waiting = client.customers.bulk.waitFor(jobId, { timeout: 50, interval: 10 });
    await expect(waiting).rejects.toBeInstanceOf(BulkImportWaitTimeoutError);
    await expect(waiting).rejects.toMatchObject({ jobId, job: { status: 'PENDING' } });
  });
});
