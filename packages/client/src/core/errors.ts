import type { ApiErrorBody, ErrorCodeFor, FieldError, Transaction } from '@railyard/contract/routes';
import type { SignatureRequired } from './signed-retry.js';

/**
 * Base class of every error the Railyard client throws, so `catch (e) { if (e instanceof RailyardError) ... }`
 * separates SDK errors from bugs in the calling code.
 */
export class RailyardError extends Error {
  override readonly name: string = 'RailyardError';
}

/** Details of a failed response, as the client hands them to {@link APIError}. */
export interface APIErrorInit {
  /** HTTP status of the response. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The parsed JSON body, or the raw text when the body was not JSON, or `undefined` when it was empty. */
  body: unknown;
  /** HTTP method of the request, for the message. */
  method?: string;
  /** URL of the request, for the message. */
  url?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Pulls the API's error object out of a body, tolerating bodies that do not follow it. */
function readErrorBody(body: unknown): { code?: string; message?: string; details?: ApiErrorBody['details'] } {
  if (!isRecord(body)) return {};
  return {
    code: typeof body.code === 'string' ? body.code : undefined,
    message: typeof body.message === 'string' ? body.message : undefined,
    details: isRecord(body.details) ? (body.details as ApiErrorBody['details']) : undefined,
  };
}

/**
 * The API answered with a non-2xx status. Subclasses narrow {@link APIError.status} and {@link APIError.code}
 * (for example {@link ConflictError} has `code: ErrorCodeFor<409>`), so `instanceof` checks give typed codes.
 *
 * @typeParam S - The HTTP status the class stands for.
 * @typeParam C - The error codes that status carries.
 */
export class APIError<S extends number = number, C extends string = string> extends RailyardError {
  override readonly name: string = 'APIError';
  /** HTTP status of the response (equals the body's `status`). */
  readonly status: S;
  /**
   * The machine-readable error code from the body, e.g. `CONFLICT` or `INVALID_INPUT`.
   * `undefined` only when the response carried no error object (e.g. a proxy's bare 502).
   */
  readonly code: C | undefined;
  /** The `details` object of the error body (free-form; `details.errors` lists invalid fields on 400). */
  readonly details: ApiErrorBody['details'] | undefined;
  /** Every invalid field of a validation error (`details.errors`), or `[]`. */
  readonly fieldErrors: FieldError[];
  /** Value of the `X-Request-Id` response header, to quote when reporting a problem. */
  readonly requestId: string | undefined;
  /** Response headers. */
  readonly headers: Headers;
  /** The parsed response body (the error object), or its raw text when it was not JSON. */
  readonly body: unknown;
  /** The server's human-readable message (without the status and code prefix of {@link Error.message}). */
  readonly serverMessage: string | undefined;

  constructor(init: APIErrorInit) {
    const parsed = readErrorBody(init.body);
    const serverMessage = parsed.message ?? (typeof init.body === 'string' && init.body !== '' ? init.body.slice(0, 500) : undefined);
    const prefix = parsed.code ? `${init.status} ${parsed.code}` : `${init.status} status code`;
    const where = init.method && init.url ? ` (${init.method} ${init.url})` : '';
    super(`${prefix}: ${serverMessage ?? 'no error body'}${where}`);
    this.status = init.status as S;
    this.code = parsed.code as C | undefined;
    this.details = parsed.details;
    this.fieldErrors = Array.isArray(parsed.details?.errors) ? parsed.details.errors : [];
    this.requestId = init.headers.get('x-request-id') ?? undefined;
    this.headers = init.headers;
    this.body = init.body;
    this.serverMessage = serverMessage;
  }
}

/** 400: the request was invalid; {@link APIError.fieldErrors} lists every invalid field. */
export class BadRequestError extends APIError<400, ErrorCodeFor<400>> {
  override readonly name: string = 'BadRequestError';
}
/** 401: missing or wrong credentials, or a bad signature. */
export class AuthenticationError extends APIError<401, ErrorCodeFor<401>> {
  override readonly name: string = 'AuthenticationError';
}
/** 403: the credentials are valid but not allowed to do this. */
export class PermissionDeniedError extends APIError<403, ErrorCodeFor<403>> {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: the resource or route does not exist. */
export class NotFoundError extends APIError<404, ErrorCodeFor<404>> {
  override readonly name: string = 'NotFoundError';
}
/** 405: the route does not support this method. */
export class MethodNotAllowedError extends APIError<405, ErrorCodeFor<405>> {
  override readonly name: string = 'MethodNotAllowedError';
}
/** 409: the request conflicts with the resource's state (or an Idempotency-Key was reused with another body). */
export class ConflictError extends APIError<409, ErrorCodeFor<409>> {
  override readonly name: string = 'ConflictError';
}
/** 410: the resource existed but is gone (e.g. a deleted customer). */
export class GoneError extends APIError<410, ErrorCodeFor<410>> {
  override readonly name: string = 'GoneError';
}
/** 412: a precondition failed (e.g. an incompatible UMA version). */
export class PreconditionFailedError extends APIError<412, ErrorCodeFor<412>> {
  override readonly name: string = 'PreconditionFailedError';
}
/** 413: the request body is too large. */
export class PayloadTooLargeError extends APIError<413, ErrorCodeFor<413>> {
  override readonly name: string = 'PayloadTooLargeError';
}
/** 422: the request was understood but rejected (e.g. a document photo). */
export class UnprocessableEntityError extends APIError<422, ErrorCodeFor<422>> {
  override readonly name: string = 'UnprocessableEntityError';
}
/** 423: the account is locked (SCA). */
export class LockedError extends APIError<423, ErrorCodeFor<423>> {
  override readonly name: string = 'LockedError';
}
/** 424: a counterparty the request depends on failed. */
export class FailedDependencyError extends APIError<424, ErrorCodeFor<424>> {
  override readonly name: string = 'FailedDependencyError';
}
/** 429: rate limited or over a volume limit. `headers.get('retry-after')` says when to come back. */
export class RateLimitError extends APIError<429, ErrorCodeFor<429>> {
  override readonly name: string = 'RateLimitError';
}
/** Any 5xx: the service failed. */
export class InternalServerError extends APIError<number, ErrorCodeFor<500> | ErrorCodeFor<501> | ErrorCodeFor<503>> {
  override readonly name: string = 'InternalServerError';
}
/**
 * 501: the service does not implement what the request needs, e.g. a counterparty asking for a mandatory payee data
 * key it does not know (`UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY`). A 5xx, so still an {@link InternalServerError}, but
 * never retried: the same request gets the same answer.
 */
export class NotImplementedError extends InternalServerError {
  override readonly name: string = 'NotImplementedError';
  declare readonly status: 501;
  declare readonly code: ErrorCodeFor<501> | undefined;
}

/** The request never got a response: DNS, refused connection, reset, or a `fetch` that threw. */
export class APIConnectionError extends RailyardError {
  override readonly name: string = 'APIConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No response arrived within the request's `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override readonly name: string = 'APIConnectionTimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The caller aborted the request through its `signal`. Never retried. */
export class APIUserAbortError extends RailyardError {
  override readonly name: string = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A sandbox control-plane call (`client.sandbox.*`, any `/_sandbox/` path) was refused before anything was sent,
 * because the client points at a base URL that is not a sandbox. Pass `sandbox: true` to `createClient` if it is one.
 */
export class SandboxOnlyError extends RailyardError {
  override readonly name: string = 'SandboxOnlyError';
}

/** What {@link TransactionWaitTimeoutError} reports. */
export interface TransactionWaitTimeoutInit {
  transactionId: string;
  /** The transaction as last read. */
  transaction: Transaction;
  /** The time budget that was spent, in milliseconds. */
  timeout: number;
  /** Whether the wait advanced a virtual clock (else it polled). */
  advancedClock: boolean;
}

/**
 * `client.transactions.waitFor` spent its `timeout` before the transaction settled. {@link transaction} is the last
 * state read, e.g. still PROCESSING, or FAILED with its refund still PENDING.
 */
export class TransactionWaitTimeoutError extends RailyardError {
  override readonly name: string = 'TransactionWaitTimeoutError';
  /** The transaction waited for. */
  readonly transactionId: string;
  /** The transaction as last read. */
  readonly transaction: Transaction;
  /** The time budget, in milliseconds (engine time when the clock was advanced). */
  readonly timeout: number;

  constructor(init: TransactionWaitTimeoutInit) {
    const { transaction } = init;
    const refund = transaction.type !== 'CARD' && transaction.refund ? `, refund ${transaction.refund.status}` : '';
    const how = init.advancedClock ? 'after advancing the sandbox clock' : 'after waiting';
    super(`Transaction ${init.transactionId} did not settle ${how} ${init.timeout}ms: it is ${transaction.status}${refund}.`);
    this.transactionId = init.transactionId;
    this.transaction = transaction;
    this.timeout = init.timeout;
  }
}

/** What {@link CardWaitTimeoutError} reports. */
export interface CardWaitTimeoutInit {
  cardId: string;
  /** The card as last read. */
  card: { state: string };
  /** The time budget that was spent, in milliseconds. */
  timeout: number;
  /** Whether the wait advanced a virtual clock (else it polled). */
  advancedClock: boolean;
}

/**
 * A `waitFor` of the client spent its `timeout` before the resource reached what it waited for; the subclass names
 * the resource and keeps its last version read.
 */
export abstract class WaitTimeoutError extends RailyardError {
  /** The time budget that was spent, in milliseconds (engine time when the clock was advanced). */
  readonly timeout: number;

  protected constructor(what: string, state: string | undefined, init: { timeout: number; advancedClock: boolean }) {
    const how = init.advancedClock ? 'after advancing the sandbox clock' : 'after waiting';
    super(`${what} is still ${state} ${how} ${init.timeout}ms.`);
    this.timeout = init.timeout;
  }
}

/** `client.cards.waitFor` spent its `timeout` before the card left PROCESSING (or its `until` held). */
export class CardWaitTimeoutError extends WaitTimeoutError {
  override readonly name: string = 'CardWaitTimeoutError';
  readonly cardId: string;
  /** The card as last read. */
  readonly card: { state: string };

  constructor(init: CardWaitTimeoutInit) {
    super(`Card ${init.cardId}`, init.card.state, init);
    this.cardId = init.cardId;
    this.card = init.card;
  }
}

/**
 * A stablecoin `waitFor` (`client.stablecoins.waitFor`, `client.stablecoinOperations.waitFor`) spent its `timeout`
 * before the coin or the operation reached what it waited for. {@link resource} is the last version read.
 */
export class StablecoinWaitTimeoutError extends WaitTimeoutError {
  override readonly name: string = 'StablecoinWaitTimeoutError';
  /** The stablecoin or operation waited for. */
  readonly resourceId: string;
  /** Its last version read. */
  readonly resource: { status?: string; issuanceStatus?: string };

  constructor(init: { resourceId: string; resource: { status?: string; issuanceStatus?: string }; timeout: number; advancedClock: boolean }) {
    super(init.resourceId, init.resource.status ?? init.resource.issuanceStatus, init);
    this.resourceId = init.resourceId;
    this.resource = init.resource;
  }
}

/** `agentClient.actions.waitFor` spent its `timeout` while the platform had not decided the action. */
export class AgentActionWaitTimeoutError extends WaitTimeoutError {
  override readonly name: string = 'AgentActionWaitTimeoutError';
  readonly actionId: string;
  /** The action as last read. */
  readonly action: { status: string };

  constructor(init: { actionId: string; action: { status: string }; timeout: number; advancedClock: boolean }) {
    super(`Agent action ${init.actionId}`, init.action.status, init);
    this.actionId = init.actionId;
    this.action = init.action;
  }
}

/** What {@link WalletOperationTimeoutError} reports. */
export interface WalletOperationTimeoutInit {
  /** The contract operation, e.g. `exportWallet`. */
  operationId: string;
  /** The time budget that was spent waiting, in milliseconds (`processingTimeout`). */
  timeout: number;
  /** How many times the request was sent. */
  sends: number;
  /** The `message` of the last PROCESSING answer. */
  serverMessage?: string | undefined;
  /** For a signed retry: the operation, to finish later with `client.signedRetry.complete(pending, stamp)`. */
  pending?: SignatureRequired;
  /** For a signed retry: the stamp that was sent (re-sending it repeats the identical request). */
  stamp?: string;
}

/**
 * A wallet operation was accepted but still answered `{status: 'PROCESSING'}` when its `processingTimeout` ran out
 *. For a signed retry, `client.signedRetry.complete(error.pending, error.stamp)` re-sends the
 * identical request and goes on waiting.
 */
export class WalletOperationTimeoutError extends RailyardError {
  override readonly name: string = 'WalletOperationTimeoutError';
  /** The contract operation, e.g. `exportWallet`. */
  readonly operationId: string;
  /** The time budget, in milliseconds. */
  readonly timeout: number;
  /** The `message` of the last PROCESSING answer. */
  readonly serverMessage: string | undefined;
  /** For a signed retry: the pending operation to finish with `client.signedRetry.complete`. */
  readonly pending: SignatureRequired | undefined;
  /** For a signed retry: the stamp that was sent. */
  readonly stamp: string | undefined;

  constructor(init: WalletOperationTimeoutInit) {
    super(`${init.operationId} was still PROCESSING after ${init.sends} sends and ${init.timeout}ms of waiting` +
      `${init.serverMessage ? ` (${init.serverMessage})` : ''}.`);
    this.operationId = init.operationId;
    this.timeout = init.timeout;
    this.serverMessage = init.serverMessage;
    this.pending = init.pending;
    this.stamp = init.stamp;
  }
}

/**
 * A wallet operation answered 202 (a signed-retry challenge) to a call that promises a terminal result, without a
 * `stamper` to sign it. {@link SignatureRequiredError.pending} holds the challenge: stamp its `payloadToSign` and
 * call `client.signedRetry.complete(error.pending, stamp)`.
 */
export class SignatureRequiredError extends RailyardError {
  override readonly name: string = 'SignatureRequiredError';
  /** The operation waiting for its stamp. */
  readonly pending: SignatureRequired;

  constructor(pending: SignatureRequired) {
    super(`${pending.request.method} ${pending.request.path} needs a signed retry (202): pass a stamper, or stamp ` +
      'pending.challenge.payloadToSign and call client.signedRetry.complete(pending, stamp).');
    this.pending = pending;
  }
}

const STATUS_CLASSES: Record<number, new (init: APIErrorInit) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  410: GoneError,
  412: PreconditionFailedError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  423: LockedError,
  424: FailedDependencyError,
  429: RateLimitError,
  501: NotImplementedError,
};

/** Builds the {@link APIError} subclass that matches a response status. */
export function makeAPIError(init: APIErrorInit): APIError {
  const Class = STATUS_CLASSES[init.status] ?? (init.status >= 500 ? InternalServerError : APIError);
  return new Class(init);
}

/** `client.customers.bulk.waitFor` spent its `timeout` before the import job ended (or its `until` held). */
export class BulkImportWaitTimeoutError extends WaitTimeoutError {
  override readonly name: string = 'BulkImportWaitTimeoutError';
  readonly jobId: string;
  /** The job as last read. */
  readonly job: { status: string };

  constructor(init: { jobId: string; job: { status: string }; timeout: number; advancedClock: boolean }) {
    super(`Bulk import job ${init.jobId}`, init.job.status, init);
    this.jobId = init.jobId;
    this.job = init.job;
  }
}
