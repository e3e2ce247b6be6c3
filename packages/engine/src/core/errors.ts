import type { ErrorCodeFor, ErrorStatus, FieldError } from '@railyard/contract';

/**
 * The one error type of the engine. Domain code throws it; the HTTP layer maps it to the API's error body in one place.
 */
export class ApiError<S extends ErrorStatus = ErrorStatus> extends Error {
  constructor(
    readonly status: S,
    readonly code: ErrorCodeFor<S>,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers, e.g. `WWW-Authenticate` on a 401. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The API's error object. */
  toBody(): { status: number; code: string; message: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { status: this.status, code: this.code, message: this.message }
      : { status: this.status, code: this.code, message: this.message, details: this.details };
  }
}

/**
 * Fields whose errors have a code of their own: when every invalid field of a request is one
 * of them, the 400 carries that code instead of INVALID_INPUT (still with `details.errors`).
 */
// A Map, not an object: a field is named by the request, and a field called `constructor` must not find Object's.
const DEDICATED_CODES: ReadonlyMap<string, ErrorCodeFor<400>> = new Map([['umaAddress', 'INVALID_UMA_ADDRESS']]);

/** 400 INVALID_INPUT listing every invalid field. */
export const invalidInput = (errors: FieldError[], message?: string): ApiError<400> => {
  const codes = new Set(errors.map((e) => DEDICATED_CODES.get(e.field)));
  const code = codes.size === 1 ? [...codes][0] : undefined;
  return new ApiError(400, code ?? 'INVALID_INPUT', message ?? describeFieldErrors(errors), { errors });
};

/** A one-field INVALID_INPUT. */
export const invalidField = (field: string, message: string, constraint?: FieldError['constraint']): ApiError<400> =>
  invalidInput([constraint ? { field, message, constraint } : { field, message }]);

/**
 * 404 for a resource. `code` names the resource where the API has a code for it (USER_NOT_FOUND, QUOTE_NOT_FOUND, …);
 * every other resource (documents, accounts, owners, verifications, credentials, sessions) is REFERENCE_NOT_FOUND,
 * the listed code for "what the request refers to does not exist".
 */
export const notFound = (what: string, id: string, code: ErrorCodeFor<404> = 'REFERENCE_NOT_FOUND'): ApiError<404> =>
  new ApiError(404, code, `${what} ${id} was not found`);

/**
 * 413 for a body over `limit` bytes: HTTP's status, with the listed INVALID_INPUT (the spec names no code for it) and
 * the field that is too large.
 */
export const payloadTooLarge = (limit: number, message: string, field = 'body'): ApiError<413> =>
  new ApiError(413, 'INVALID_INPUT', message, {
    maxBodyBytes: limit,
    errors: [{ field, message: `is larger than ${limit} bytes, the limit for this request`, constraint: { maximum: limit } }],
  });

export const conflict = (message: string, code: ErrorCodeFor<409> = 'CONFLICT', details?: Record<string, unknown>): ApiError<409> =>
  new ApiError(409, code, message, details);

/** 429 RATE_LIMITED with `Retry-After`: the caller may try again in `waitMs`. */
export const rateLimited = (message: string, waitMs: number): ApiError<429> => {
  const seconds = Math.ceil(waitMs / 1000);
  return new ApiError(429, 'RATE_LIMITED', `${message}: retry after ${seconds} s`, undefined, { 'retry-after': String(seconds) });
};

function describeFieldErrors(errors: FieldError[]): string {
  if (errors.length === 0) return 'The request is invalid';
  const first = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more invalid field${errors.length > 2 ? 's' : ''})` : '';
  return `${first.field}: ${first.message ?? 'is invalid'}${more}`;
}
