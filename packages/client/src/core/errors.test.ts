import type { ErrorCodeFor, FieldError } from '@railyard/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  APIError, AuthenticationError, BadRequestError, ConflictError, FailedDependencyError, GoneError, InternalServerError, LockedError, NotImplementedError,
  MethodNotAllowedError, NotFoundError, PayloadTooLargeError, PermissionDeniedError, PreconditionFailedError, RailyardError,
  RateLimitError, UnprocessableEntityError,
} from '../index.js';
import { errorBody, setup } from '../test-support.js';

const catchError = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e);

describe('error mapping', () => {
  it('maps each status to its class', async () => {
    const table = [
      [400, 'INVALID_INPUT', BadRequestError],
      [401, 'UNAUTHORIZED', AuthenticationError],
      [403, 'FORBIDDEN', PermissionDeniedError],
      [404, 'USER_NOT_FOUND', NotFoundError],
      [405, 'METHOD_NOT_ALLOWED', MethodNotAllowedError],
      [409, 'CONFLICT', ConflictError],
      [410, 'CUSTOMER_DELETED', GoneError],
      [412, 'UNSUPPORTED_UMA_VERSION', PreconditionFailedError],
      [413, 'INVALID_INPUT', PayloadTooLargeError],
      [422, 'DOCUMENT_REJECTED', UnprocessableEntityError],
      [423, 'ACCOUNT_LOCKED', LockedError],
      [424, 'LNURLP_REQUEST_FAILED', FailedDependencyError],
      [429, 'RATE_LIMITED', RateLimitError],
      [500, 'INTERNAL_ERROR', InternalServerError],
      [501, 'NOT_IMPLEMENTED', NotImplementedError],
      [501, 'UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY', NotImplementedError],
      [503, 'SERVICE_UNAVAILABLE', InternalServerError],
      [418, 'TEAPOT', APIError],
    ] as const;
    for (const [status, code, Class] of table) {
      const { client } = setup([errorBody(status, code, `message ${status}`)], { maxRetries: 0 });
      const error = await catchError(client.customers.retrieve('c'));
      expect(error, `status ${status}`).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(RailyardError);
      expect(error).toBeInstanceOf(Error);
      expect((error as APIError).status).toBe(status);
      expect((error as APIError).code).toBe(code);
      // A 501 is still a server error for code that catches every 5xx.
      if (status >= 500) expect(error).toBeInstanceOf(InternalServerError);
      expect((error as APIError).name).toBe(Class.name);
    }
  });

  it('exposes a typed code, the server message, the request id, headers and body of a 409', async () => {
    const { client } = setup([
      { ...errorBody(409, 'CONFLICT', 'platformCustomerId pc-1 is already used by Customer:1'), headers: { 'x-request-id': 'req_409' } },
    ]);
    const error = await catchError(client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'pc-1' }));
    if (!(error instanceof ConflictError)) throw new Error('expected a ConflictError');
    expectTypeOf(error.code).toEqualTypeOf<ErrorCodeFor<409> | undefined>();
    expectTypeOf(error.status).toEqualTypeOf<409>();
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toBe(`409 CONFLICT: platformCustomerId pc-1 is already used by Customer:1 (POST http://127.0.0.1:4100/2025-10-13/customers)`);
    expect(error.message.startsWith('409 CONFLICT: platformCustomerId pc-1')).toBe(true);
    expect(error.serverMessage).toBe('platformCustomerId pc-1 is already used by Customer:1');
    expect(error.requestId).toBe('req_409');
    expect(error.headers.get('content-type')).toBe('application/json');
    expect(error.body).toEqual({ status: 409, code: 'CONFLICT', message: 'platformCustomerId pc-1 is already used by Customer:1' });
    expect(error.fieldErrors).toEqual([]);
  });

  it('lists every invalid field of a 400 in fieldErrors', async () => {
    const errors: FieldError[] = [
      { field: 'email', constraint: { format: 'email' }, message: 'must be an email address' },
      { field: 'address.country', constraint: { format: 'iso3166-1-alpha-2' }, message: 'must be an ISO 3166-1 alpha-2 country code' },
    ];
    const { client } = setup([errorBody(400, 'INVALID_INPUT', '2 fields are invalid', { errors })]);
    const error = await catchError(client.customers.create({ customerType: 'INDIVIDUAL', email: 'nope' }));
    if (!(error instanceof BadRequestError)) throw new Error('expected a BadRequestError');
    expectTypeOf(error.code).toEqualTypeOf<ErrorCodeFor<400> | undefined>();
    expectTypeOf(error.fieldErrors).toEqualTypeOf<FieldError[]>();
    expect(error.fieldErrors).toEqual(errors);
    expect(error.fieldErrors.map((f) => f.field)).toEqual(['email', 'address.country']);
    expect(error.details?.errors).toHaveLength(2);
  });

  it('keeps extra details (e.g. lockedUntil of a 423)', async () => {
    const { client } = setup([errorBody(423, 'ACCOUNT_LOCKED', 'locked', { lockedUntil: '2025-10-13T01:00:00Z', failedAttempts: 5 })]);
    const error = (await catchError(client.customers.retrieve('c'))) as LockedError;
    expect(error.details).toEqual({ lockedUntil: '2025-10-13T01:00:00Z', failedAttempts: 5 });
    expect(error.fieldErrors).toEqual([]);
  });

  it('copes with an error response that is not the error object', async () => {
    const { client } = setup([{ status: 502, raw: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } }], { maxRetries: 0 });
    const error = (await catchError(client.customers.retrieve('c'))) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBeUndefined();
    expect(error.body).toBe('<html>Bad Gateway</html>');
    expect(error.message).toMatch(/^502 status code: <html>Bad Gateway<\/html>/);
    const empty = setup([{ status: 404 }]);
    const notFound = (await catchError(empty.client.customers.retrieve('c'))) as NotFoundError;
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound.message).toMatch(/^404 status code: no error body/);
  });
});
