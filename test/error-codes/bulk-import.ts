import type { CodeTriggers } from './triggers.js';

/** What triggers each code the bulk customer import owns: a function that makes the request(s) and returns the refused answer. */
export const triggers: CodeTriggers = {
  // A job id no upload of this platform made (the shape of a real one, so only its absence is refused).
  BULK_UPLOAD_JOB_NOT_FOUND: async ({ call }) => call('GET', '/customers/bulk/jobs/Job:00000000-0000-4000-8000-00000000beef'),
};
