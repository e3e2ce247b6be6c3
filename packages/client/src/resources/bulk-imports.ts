import type { BulkCustomerImportAccepted, BulkCustomerImportJob } from '@railyard/contract/routes';
import { bulkImportEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import { APIPromise, parseJsonBody, type RawAPIResponse } from '../core/api-promise.js';
import type { ResultOf } from '../core/endpoint.js';
import { BulkImportWaitTimeoutError, RailyardError } from '../core/errors.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';
import { pollUntil, type WaitForOptions } from './wait-for-transaction.js';

/** A bulk customer import job: `status`, `progress` (`total`, `processed`, `successful`, `failed`), `errors` by row. */
export type BulkImportJob = BulkCustomerImportJob;
/** What an upload answers: `{ jobId, status: 'PENDING' }`. */
export type BulkImportAccepted = BulkCustomerImportAccepted;
/** One refused row (or the file): `correlationId` (platformCustomerId, else the row number; `file`), `code`, `message`, `details`. */
export type BulkImportError = BulkImportJob['errors'][number];
/** Options of {@link CustomerBulkImports.waitFor}: as {@link WaitForOptions}, with `until` reading the job. */
export type BulkImportWaitForOptions = Omit<WaitForOptions, 'until'> & { until?: (job: BulkImportJob) => boolean };

/**
 * The CSV to import: its text as a string, a `Blob` (or `File`), or its bytes (`Uint8Array`, Node `Buffer`,
 * `ArrayBuffer`). UTF-8, with a header row.
 */
export type BulkImportCsv = string | Blob | Uint8Array | ArrayBuffer;

/**
 * Bulk customer import (`client.customers.bulk`): upload a CSV of customers, then follow the job that creates them.
 *
 * ```ts
 * const { jobId } = await client.customers.bulk.uploadCsv(csvText);
 * const job = await client.customers.bulk.waitFor(jobId, { advanceClock: true });
 * console.log(job.status, job.progress, job.errors);
 * ```
 */
export class CustomerBulkImports extends APIResource {
  readonly #sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;

  /** @param sleep - How {@link CustomerBulkImports.waitFor} sleeps between reads; the client passes its own. */
  constructor(client: RailyardClient, sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>) {
    super(client);
    this.#sleep = sleep;
  }

  /**
   * Uploads a CSV as multipart/form-data (part `file`) and resolves with the job, PENDING. Rows are checked and created
   * by the job, not here: read {@link CustomerBulkImports.retrieveJob} or {@link CustomerBulkImports.waitFor} for the
   * outcome. `fileName` is sent with the file (default `customers.csv`).
   */
  uploadCsv(csv: BulkImportCsv, options?: RequestOptions & { fileName?: string }): APIPromise<BulkImportAccepted> {
    const { fileName = 'customers.csv', ...requestOptions } = options ?? {};
    let body: FormData;
    try {
      body = new FormData();
      body.append('file', csvBlob(csv), fileName);
    } catch (error) {
      return new APIPromise<never>(Promise.reject(error), async () => {
        throw error;
      });
    }
    const raw: Promise<RawAPIResponse> = this._client
      .request<BulkImportAccepted>({ method: 'POST', path: bulkImportEndpoints.uploadCustomersCsv.path, body }, requestOptions)
      ._thenUnwrap((_data, exchange) => exchange);
    return new APIPromise<BulkImportAccepted>(raw, async (exchange) => (await parseJsonBody(exchange.response)) as BulkImportAccepted);
  }

  /** Retrieves a job. An unknown id (or another platform's) rejects with a {@link NotFoundError} `BULK_UPLOAD_JOB_NOT_FOUND`. */
  retrieveJob(jobId: string, options?: RequestOptions): APIPromise<BulkImportJob> {
    return this._client.call(bulkImportEndpoints.getBulkCustomerImportJob, { params: { jobId } }, options);
  }

  /**
   * Reads the job until it has ended (COMPLETED or FAILED) or `until` holds; against a sandbox with a virtual clock,
   * `advanceClock: true` moves the clock instead of sleeping. Rejects with a {@link BulkImportWaitTimeoutError} once
   * `timeout` is spent.
   */
  waitFor(jobId: string, options: BulkImportWaitForOptions = {}): Promise<BulkImportJob> {
    return pollUntil(this._client, {
      read: (request) => this.retrieveJob(jobId, request),
      done: options.until ?? ((job) => job.status === 'COMPLETED' || job.status === 'FAILED'),
      timedOut: (job, timeout, advancedClock) => new BulkImportWaitTimeoutError({ jobId, job, timeout, advancedClock }),
    }, options, this.#sleep);
  }
}

/** The CSV as a Blob typed text/csv. */
function csvBlob(csv: BulkImportCsv): Blob {
  if (typeof csv === 'string') return new Blob([csv], { type: 'text/csv' });
  if (typeof Blob !== 'undefined' && csv instanceof Blob) return csv;
  if (csv instanceof ArrayBuffer || ArrayBuffer.isView(csv)) return new Blob([csv as Uint8Array<ArrayBuffer>], { type: 'text/csv' });
  throw new RailyardError('The CSV must be its text (a string), a Blob, a Uint8Array or Buffer, or an ArrayBuffer.');
}
