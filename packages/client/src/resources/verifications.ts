import type { ListVerificationsQuery, Verification, VerificationError, VerificationErrorType } from '@railyard/contract/routes';
import { TERMINAL_VERIFICATION_ERROR_TYPES, verificationEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, PageItemOf, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** A verification: its status and the problems that block it. */
export type { Verification };
/** Query of {@link Verifications.list}: `customerId`, `verificationStatus`, `limit`, `cursor`. */
export type VerificationListParams = ListVerificationsQuery;
/** A reviewer's decision in the sandbox. */
export type VerificationDecision = BodyParams<typeof verificationEndpoints.decideSandboxVerification>['decision'];
export type { VerificationError, VerificationErrorType };

/** What a customer still has to do, grouped the way the fixes are made. */
export interface OutstandingRequirements {
  /** The verification the list comes from, if the customer has one. */
  verification: Verification | undefined;
  /** Fields to set with PATCH on the resource named (customer or beneficial owner). */
  fields: VerificationError[];
  /** Documents to upload (missing ones, and replacements for rejected ones), with the types that are accepted. */
  documents: VerificationError[];
  /** Owners or a control person to register with `POST /beneficial-owners`. */
  owners: VerificationError[];
  /** Outcomes resubmitting cannot clear (screening, suspected fraud). */
  terminal: VerificationError[];
  /** True when nothing is left to fix (the packet is complete, or the verification is decided). */
  complete: boolean;
}

const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_VERIFICATION_ERROR_TYPES);

/** Sorts a verification's errors by what fixes them. */
export function groupRequirements(verification: Verification | undefined): OutstandingRequirements {
  const errors = verification?.errors ?? [];
  const out: OutstandingRequirements = { verification, fields: [], documents: [], owners: [], terminal: [], complete: false };
  for (const error of errors) {
    if (TERMINAL.has(error.type)) out.terminal.push(error);
    else if (error.type === 'MISSING_FIELD' || error.type === 'INVALID_FIELD') out.fields.push(error);
    else if (error.type === 'MISSING_BENEFICIAL_OWNER' || error.type === 'MISSING_CONTROL_PERSON') out.owners.push(error);
    else out.documents.push(error);
  }
  out.complete = verification !== undefined && errors.length === 0;
  return out;
}

/** Verification packets: submit, read, and (sandbox) decide. */
export class Verifications extends APIResource {
  /** Submits a customer's packet; the result is RESOLVE_ERRORS with every problem, or under review, or decided. */
  create(body: BodyParams<typeof verificationEndpoints.createVerification>, options?: RequestOptions): APIPromise<Verification> {
    return this._client.call(verificationEndpoints.createVerification, { body }, options);
  }

  /** Retrieves a verification. */
  retrieve(verificationId: string, options?: RequestOptions): APIPromise<Verification> {
    return this._client.call(verificationEndpoints.getVerification, { params: { verificationId } }, options);
  }

  /** Lists verifications, newest first. */
  list(query: VerificationListParams = {}, options?: RequestOptions): PagePromise<PageItemOf<typeof verificationEndpoints.listVerifications>> {
    return this._client.callPage(verificationEndpoints.listVerifications, { query }, options);
  }

  /**
   * What a customer still needs, from its latest verification's errors, grouped by the fix:
   *
   * ```ts
   * const needs = await client.verifications.outstanding(customer.id);
   * for (const doc of needs.documents) console.log(doc.type, doc.acceptedDocumentTypes);
   * ```
   */
  async outstanding(customerId: string, options?: RequestOptions): Promise<OutstandingRequirements> {
    const page = await this.list({ customerId, limit: 1 }, options);
    return groupRequirements(page.data[0]);
  }

  /** Sandbox: decide a verification in manual review as the service operator would (APPROVED, REJECTED or HOLD). */
  decide(verificationId: string, decision: VerificationDecision, options?: RequestOptions): APIPromise<Verification> {
    return this._client.call(verificationEndpoints.decideSandboxVerification, { params: { verificationId }, body: { decision } }, options);
  }
}
