import {
  BULK_CSV_MAX_BYTES, BULK_IMPORT_MAX_ROW_ERRORS, BulkCustomerImportJob, CustomerImportRequest, type BulkCustomerImportAccepted, type BulkImportError, type FieldError,
} from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidInput, notFound } from '../core/errors.js';
import { checkCustomerCreate, createCustomer } from '../customers/customers.js';
import type { DocumentForm } from '../documents/form.js';
import { byColumn, readHeader, rowRequest, type HeaderMap } from './columns.js';
import { CSV_MAX_FIELDS, CsvReader, decodeCsv, isBlank, type CsvRecord } from './csv.js';

// Bulk customer import: an upload is answered at once with a PENDING job; the job then reads the file on the engine
// clock, a chunk of rows per step, creating each valid row through `POST /customers`' own code (its checks, accounts,
// KYC outcomes and events), and ends COMPLETED or FAILED with a BULK_UPLOAD.* webhook.

export const BULK_IMPORT_JOBS = 'bulkImportJobs';
/** Clock-job kind: the next step of an import. */
export const BULK_IMPORT_STEP_JOB = 'bulk-import.step';
/** Engine time between the upload and the first step: the job is PENDING until then. */
export const BULK_IMPORT_START_DELAY_MS = 1_000;
/** Engine time between two steps: the job is PROCESSING in between, its progress readable. */
export const BULK_IMPORT_STEP_INTERVAL_MS = 100;
/** Rows a step creates. */
export const BULK_IMPORT_ROWS_PER_STEP = 1_000;

/** The correlationId of an error about the whole file rather than one row. */
export const FILE_CORRELATION_ID = 'file';

/**
 * A stored job: the resource, and while it runs the file, how far it has been read and where the header put each known
 * column (read once, at upload). A file found unusable at upload keeps its problems instead (`fileErrors`), reported by
 * the first step.
 */
export const BulkImportJobRecord = BulkCustomerImportJob.extend({
  csv: z.string().optional(),
  position: z.number().int().min(0).optional(),
  rows: z.number().int().min(0).optional(),
  /** Column name → index in the file. Absent from jobs stored before it existed: their header is read again. */
  columns: z.record(z.string(), z.number().int().min(0)).optional(),
  fileErrors: z.array(z.object({ field: z.string(), message: z.string().optional() }).loose()).optional(),
});
type BulkImportJobRecord = z.infer<typeof BulkImportJobRecord>;

const jobs = (tenant: TenantContext) => tenant.store.collection<BulkImportJobRecord>(BULK_IMPORT_JOBS, { createdAt: (j) => Date.parse(j.createdAt) });

/** The job as the API shows it: without the file and the reading state. */
const view = ({ csv: _csv, position: _position, rows: _rows, columns: _columns, fileErrors: _fileErrors, ...job }: BulkImportJobRecord): BulkCustomerImportJob => job;

/**
 * `POST /customers/bulk/csv`: 202 with a PENDING job. Only a form without exactly one `file` part is refused (400
 * INVALID_INPUT, field `file`); a file that cannot be imported (not UTF-8, no header, a required column missing, no
 * customer rows) is accepted and its job FAILS, as every row problem is reported by the job.
 */
export function uploadCustomersCsv(tenant: TenantContext, form: DocumentForm): BulkCustomerImportAccepted {
  const problems = form.problems.filter((p) => p.field === 'file');
  if (form.file === undefined) problems.push({ field: 'file', message: 'is required: attach the CSV as a file part named "file"', constraint: { required: true } });
  else if (form.file.bytes.byteLength > BULK_CSV_MAX_BYTES) {
    problems.push({ field: 'file', message: `is ${form.file.bytes.byteLength} bytes: a CSV file may be at most ${BULK_CSV_MAX_BYTES} bytes`, constraint: { maximum: BULK_CSV_MAX_BYTES } });
  }
  if (problems.length > 0 || form.file === undefined) throw invalidInput(problems);

  const now = tenant.nowIso();
  const prepared = prepareFile(form.file.bytes);
  const job: BulkImportJobRecord = {
    id: tenant.ids('Job'), status: 'PENDING', progress: { total: prepared.total, processed: 0, successful: 0, failed: 0 },
    errors: [], createdAt: now, updatedAt: now,
    ...(prepared.fileErrors.length > 0 ? { fileErrors: prepared.fileErrors } : { csv: prepared.csv, position: 0, rows: 0, columns: prepared.columns }),
  };
  jobs(tenant).insert(job);
  tenant.schedule(BULK_IMPORT_START_DELAY_MS, BULK_IMPORT_STEP_JOB, { jobId: job.id });
  return { jobId: job.id, status: 'PENDING' };
}

/** `GET /customers/bulk/jobs/{jobId}`, or 404 BULK_UPLOAD_JOB_NOT_FOUND. */
export function retrieveBulkImportJob(tenant: TenantContext, jobId: string): BulkCustomerImportJob {
  const job = jobs(tenant).get(jobId);
  if (!job) throw notFound('Bulk import job', jobId, 'BULK_UPLOAD_JOB_NOT_FOUND');
  return view(job);
}

interface PreparedFile {
  csv: string;
  total: number;
  columns: Record<string, number>;
  fileErrors: FieldError[];
}

/**
 * The text of the file, its header's columns and its number of customer rows (one linear pass), or the problems that
 * make it unusable.
 */
function prepareFile(bytes: Uint8Array): PreparedFile {
  const csv = decodeCsv(bytes);
  const unusable = (fileErrors: FieldError[]): PreparedFile => ({ csv: csv ?? '', total: 0, columns: {}, fileErrors });
  if (csv === undefined) return unusable([{ field: 'file', message: 'is not UTF-8 text' }]);
  const reader = new CsvReader(csv);
  const header = nextRecord(reader);
  if (header === undefined) return unusable([{ field: 'file', message: 'is empty: it needs a header row and customer rows' }]);
  if (header.width > CSV_MAX_FIELDS) {
    return unusable([{ field: 'file', message: `has a header row of ${header.width} columns: at most ${CSV_MAX_FIELDS}`, constraint: { maximum: CSV_MAX_FIELDS } }]);
  }
  const { columns, problems } = readHeader(header.fields);
  if (problems.length > 0) return unusable(problems);
  let total = 0;
  while (nextRecord(reader) !== undefined) total++;
  if (total === 0) return unusable([{ field: 'file', message: 'has a header row and no customer rows' }]);
  return { csv, total, columns: Object.fromEntries(columns), fileErrors: [] };
}

/** Where the job's header put each known column: stored at upload, or read again for a job stored without it. */
const columnsOf = (csv: string, stored: Record<string, number> | undefined): HeaderMap =>
  stored === undefined ? readHeader(nextRecord(new CsvReader(csv))?.fields ?? []).columns : new Map(Object.entries(stored));

/** The next record that is not a blank line. */
function nextRecord(reader: CsvReader): CsvRecord | undefined {
  for (let record = reader.next(); record !== undefined; record = reader.next()) if (!isBlank(record)) return record;
  return undefined;
}

/** A step of an import job (clock job {@link BULK_IMPORT_STEP_JOB}): the next chunk of rows, or the end. */
export const bulkImportStepJob = (tenant: TenantContext, payload: unknown): void => {
  const jobId = (payload as { jobId?: unknown } | null)?.jobId;
  const job = typeof jobId === 'string' ? jobs(tenant).get(jobId) : undefined;
  if (!job || job.status === 'COMPLETED' || job.status === 'FAILED') return;
  if (job.fileErrors !== undefined || job.csv === undefined) {
    // INVALID_INPUT even for a missing umaAddress column: the problem is the file's, not an address.
    const errors = (job.fileErrors ?? [{ field: 'file', message: 'is missing' }]) as FieldError[];
    const message = `The file cannot be imported: ${errors.map((e) => `${e.field} ${e.message ?? 'is invalid'}`).join('; ')}`;
    finish(tenant, { ...job, errors: [{ correlationId: FILE_CORRELATION_ID, code: 'INVALID_INPUT', message, details: { errors } }] }, 'FAILED');
    return;
  }
  const reader = new CsvReader(job.csv, job.position ?? 0, job.rows ?? 0);
  const columns = columnsOf(job.csv, job.columns);
  if (reader.rows === 0) nextRecord(reader); // the header
  const progress = { ...job.progress };
  // The first BULK_IMPORT_MAX_ROW_ERRORS row errors are kept, the others only counted: the job stays small whatever
  // the file. Records are frozen, so the list is copied, only in steps that add to it (at most that many entries).
  const added: BulkImportError[] = [];
  const room = BULK_IMPORT_MAX_ROW_ERRORS - job.errors.length;
  let omitted = job.errorsOmitted ?? 0;
  for (let done = 0; done < BULK_IMPORT_ROWS_PER_STEP; done++) {
    const record = nextRecord(reader);
    if (record === undefined) break;
    const error = importRow(tenant, columns, record);
    progress.processed++;
    if (error === undefined) progress.successful++;
    else {
      progress.failed++;
      if (added.length < room) added.push(error);
      else omitted++;
    }
  }
  const next: BulkImportJobRecord = {
    ...job, status: 'PROCESSING', progress, errors: added.length > 0 ? [...job.errors, ...added] : job.errors,
    ...(omitted > 0 ? { errorsOmitted: omitted } : {}),
    position: reader.position, rows: reader.rows, updatedAt: tenant.nowIso(),
  };
  if (reader.done || progress.processed >= progress.total) {
    finish(tenant, next, progress.successful === 0 ? 'FAILED' : 'COMPLETED');
    return;
  }
  jobs(tenant).replace(next);
  tenant.schedule(BULK_IMPORT_STEP_INTERVAL_MS, BULK_IMPORT_STEP_JOB, { jobId: job.id });
};

/** Ends a job: its final status, `completedAt`, the file dropped, and the BULK_UPLOAD.* webhook. */
function finish(tenant: TenantContext, job: BulkImportJobRecord, status: 'COMPLETED' | 'FAILED'): void {
  const now = tenant.nowIso();
  const ended: BulkImportJobRecord = { ...view(job), status, updatedAt: now, completedAt: now };
  jobs(tenant).replace(ended);
  tenant.emit(`BULK_UPLOAD.${status}`, view(ended));
}

/** Creates the customer of one row; the row's error when `POST /customers` would have refused it. */
function importRow(tenant: TenantContext, columns: HeaderMap, record: CsvRecord): BulkImportError | undefined {
  const { body, missing } = rowRequest(columns, record.fields);
  const correlationId = typeof body.platformCustomerId === 'string' ? body.platformCustomerId : String(record.row);
  if (record.unterminated) missing.push({ field: 'row', message: 'has a quoted field that is never closed: the rest of the file went into it' });
  if (record.width > CSV_MAX_FIELDS) {
    missing.push({ field: 'row', message: `has ${record.width} fields: a row may have at most ${CSV_MAX_FIELDS}`, constraint: { maximum: CSV_MAX_FIELDS } });
  }
  const checked = checkCustomerCreate(tenant, body, CustomerImportRequest);
  const reported = new Set(missing.map((e) => e.field));
  const errors = [...missing, ...checked.errors.map(byColumn).filter((e) => !reported.has(e.field))];
  try {
    if (errors.length > 0 || checked.request === undefined) throw invalidInput(errors);
    createCustomer(tenant, checked.request);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { correlationId, ...rowError(error) };
  }
}

/** The code, message and details of a refusal, as a row error carries them. */
const rowError = (error: ApiError): Omit<BulkImportError, 'correlationId'> =>
  error.details === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, details: error.details };
