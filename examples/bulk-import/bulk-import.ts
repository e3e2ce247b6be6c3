import type { RailyardClient } from '@railyard/client';

/**
 * A small customer file: three individuals (one with a KYC trigger; Alan's UMA address written without its `$`, which
 * the import adds), a business, and two rows the import refuses.
 */
export const CUSTOMERS_CSV = [
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,email,businessLegalName',
  '$ada@example.com,user-1,INDIVIDUAL,Ada Lovelace,1815-12-10,12 St James Sq,London,London,SW1Y 4JH,GB,ada@example.com,',
  'alan@example.com,user-2,INDIVIDUAL,Alan Turing,1912-06-23,2 Bletchley Park,Milton Keynes,Bucks,MK3 6EB,GB,,',
  '$grace@example.com,user-3,INDIVIDUAL,Grace Review001,1906-12-09,1 Navy Way,Arlington,VA,22202,US,,',
  '$acme@example.com,biz-1,BUSINESS,,,"100 Market St, Floor 3",San Francisco,CA,94105,US,,Acme Corp',
  'not-an-address,user-4,INDIVIDUAL,No Address,1990-01-01,1 Main St,Springfield,IL,62701,US,,',
  '$dup@example.com,user-1,INDIVIDUAL,Ada Again,1815-12-10,12 St James Sq,London,London,SW1Y 4JH,GB,,',
].join('\n');

/** A fresh regulated sandbox platform (individuals resolve their KYC at creation) and a client for it. */
export async function bulkImportSandboxPlatform(root: RailyardClient): Promise<RailyardClient> {
  const platform = await root.sandbox.platforms.create({ name: 'Bulk import example', regulated: true });
  return root.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
}

/** Uploads the file, waits for its job (moving a virtual clock, else polling), and prints what came of each row. */
export async function importCustomers(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };
  const { jobId, status } = await client.customers.bulk.uploadCsv(CUSTOMERS_CSV);
  say(`Uploaded: job ${status}`);
  const job = await client.customers.bulk.waitFor(jobId, { advanceClock: true, interval: 250 });
  say(`Job ${job.status}: ${job.progress.successful} created, ${job.progress.failed} refused of ${job.progress.total}`);
  for (const error of job.errors) say(`Refused ${error.correlationId}: ${error.code}`);
  for (const id of ['user-1', 'user-2', 'user-3', 'biz-1']) {
    const [customer] = (await client.customers.list({ platformCustomerId: id })).data;
    const status = customer?.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer?.kybStatus;
    say(`${id}: ${customer?.customerType} ${status}`);
  }
  return trace;
}
