import { BULK_CSV_FORM_MAX_BYTES, BULK_CSV_MAX_BYTES, bulkImportEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import { readMultipartForm } from '../documents/form.js';
import { BULK_IMPORT_STEP_JOB, bulkImportStepJob, retrieveBulkImportJob, uploadCustomersCsv } from './bulk-import.js';

/** HTTP bindings of the bulk customer import. The upload reads its own multipart body. */
export const bulkImportRoutes = [
  bind(e.uploadCustomersCsv, async ({ tenant, request }) => uploadCustomersCsv(tenant, await readMultipartForm(request, {
    limit: BULK_CSV_FORM_MAX_BYTES,
    what: 'the CSV file',
    tooLarge: `The upload is larger than ${BULK_CSV_FORM_MAX_BYTES} bytes: a CSV file may be at most ${BULK_CSV_MAX_BYTES} bytes`,
  }))),
  bind(e.getBulkCustomerImportJob, ({ tenant, params }) => retrieveBulkImportJob(tenant, params.jobId)),
];

/** Timed jobs of the bulk import, by kind. */
export const bulkImportJobs = { [BULK_IMPORT_STEP_JOB]: bulkImportStepJob };
