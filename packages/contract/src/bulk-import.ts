import { z } from 'zod';
import { IdParam, Timestamp, resourceId } from './common.js';
import { defineEndpoint } from './endpoint.js';

// Bulk customer import: a CSV file of customers, created by a job that runs after the upload has been answered.

/** Largest CSV file accepted: 16 MiB (about 80,000 customer rows of typical length). */
export const BULK_CSV_MAX_BYTES = 16 * 1024 * 1024;
/** Largest upload body read: the file plus 64 KiB for the multipart envelope. */
export const BULK_CSV_FORM_MAX_BYTES = BULK_CSV_MAX_BYTES + 64 * 1024;
/** Most row errors a job lists: the first ones; `errorsOmitted` counts the refused rows left out. */
export const BULK_IMPORT_MAX_ROW_ERRORS = 1_000;

export const BulkImportJobId = resourceId('Job').meta({ id: 'BulkImportJobId' });

/** PENDING (accepted, not started), PROCESSING (rows being created), then COMPLETED or FAILED. */
export const BulkImportJobStatus = z.enum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']).meta({ id: 'BulkImportJobStatus' });
export type BulkImportJobStatus = z.infer<typeof BulkImportJobStatus>;

/** How far a job has got: `processed` = `successful` + `failed`, out of `total` customer rows. */
export const BulkImportProgress = z
  .object({
    total: z.number().int().min(0),
    processed: z.number().int().min(0),
    successful: z.number().int().min(0),
    failed: z.number().int().min(0),
  })
  .meta({ id: 'BulkImportProgress' });
export type BulkImportProgress = z.infer<typeof BulkImportProgress>;

/**
 * Why a row (or the whole file) was not imported: `correlationId` is the row's platformCustomerId, or its row number
 * when it has none (the header is row 1); `code` and `details` are those `POST /customers` answers for the same data.
 */
export const BulkImportError = z
  .object({
    correlationId: z.string(),
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'BulkImportError' });
export type BulkImportError = z.infer<typeof BulkImportError>;

/** A bulk customer import job, as `GET /customers/bulk/jobs/{jobId}` and the BULK_UPLOAD.* webhooks carry it. */
export const BulkCustomerImportJob = z
  .object({
    id: BulkImportJobId,
    status: BulkImportJobStatus,
    progress: BulkImportProgress,
    errors: z.array(BulkImportError),
    /**
     * How many refused rows `errors` leaves out: it lists the first {@link BULK_IMPORT_MAX_ROW_ERRORS}, and
     * `progress.failed` counts them all. Absent when none were left out. A sandbox addition (the reference lists every
     * error).
     */
    errorsOmitted: z.number().int().min(1).optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    /** When the job ended: only on COMPLETED and FAILED. */
    completedAt: Timestamp.optional(),
  })
  .meta({ id: 'BulkCustomerImportJob' });
export type BulkCustomerImportJob = z.infer<typeof BulkCustomerImportJob>;

/** The answer to an upload: the job to follow. */
export const BulkCustomerImportAccepted = z
  .object({ jobId: BulkImportJobId, status: z.enum(['PENDING', 'PROCESSING']) })
  .meta({ id: 'BulkCustomerImportAccepted' });
export type BulkCustomerImportAccepted = z.infer<typeof BulkCustomerImportAccepted>;

/** `POST /customers/bulk/csv` (multipart/form-data): the CSV file as the `file` part. */
export const BulkCustomerCsvUpload = z
  .object({ file: z.file().max(BULK_CSV_MAX_BYTES, { message: 'must be at most 16 MiB' }) })
  .meta({ id: 'BulkCustomerCsvUpload' });
export type BulkCustomerCsvUpload = z.input<typeof BulkCustomerCsvUpload>;

const tag = 'Customers';

/** Bulk customer import endpoints. The upload is multipart/form-data; the area serving it parses the form. */
export const bulkImportEndpoints = {
  uploadCustomersCsv: defineEndpoint({
    operationId: 'uploadCustomersCsv', method: 'POST', path: '/customers/bulk/csv', tag,
    summary: 'Import customers from a CSV file (multipart/form-data, part "file"); a job creates them',
    description:
      'UTF-8 CSV with a header row; one customer per row, with the columns and rules of POST /customers. The answer is ' +
      'the job at once (202); rows are checked and created by the job, whose errors list every row refused. Only a ' +
      'request without a file part is refused here (400 INVALID_INPUT, field file).',
    body: BulkCustomerCsvUpload, multipart: true, maxBodyBytes: BULK_CSV_FORM_MAX_BYTES,
    response: { status: 202, description: 'The import job, accepted', schema: BulkCustomerImportAccepted },
  }),
  getBulkCustomerImportJob: defineEndpoint({
    operationId: 'getBulkCustomerImportJob', method: 'GET', path: '/customers/bulk/jobs/{jobId}', tag,
    summary: 'Retrieve a bulk customer import job: status, progress and the errors of refused rows',
    params: z.object({ jobId: IdParam }),
    response: { status: 200, description: 'The job', schema: BulkCustomerImportJob },
    errors: [404],
  }),
} as const;
