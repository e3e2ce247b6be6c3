import {
  BeneficialOwnerCreateRequest, TERMINAL_VERIFICATION_ERROR_TYPES, type Document, type FieldError, type Verification,
  type VerificationError,
} from '@railyard/contract';
import { createOwner, ownersOf } from '../beneficial-owners/owners.js';
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { toFieldErrors } from '../core/field-errors.js';
import { customerView, statusOf, type CustomerRecord } from '../customers/customers.js';
import { documentsOfHolder, documentView, uploadDocument } from '../documents/documents.js';
import { readDocumentForm } from '../documents/form.js';
import type { HttpResult, Incoming } from '../http/app.js';
import { decideVerification, listVerifications, outstandingRequirements, submitVerification } from '../verification/verification.js';
import { pageResult, seeOther } from './html.js';
import { finishLink, openLink, type KycLinkRecord, type LinkOutcome } from './kyc-links.js';
import { finishedPage, kycPage, unavailablePage, type KycPageView } from './pages.js';

// The hosted verification flow behind a kycUrl (SPEC §4.3): the page, its forms, and the buttons that finish the flow.
// Every answer is a page or a redirect, never a JSON error: the visitor is a person in a browser.

/** Confirmations shown after a successful form post, by the `notice` query parameter of the redirect. */
const NOTICES: Record<string, string> = {
  'document-uploaded': 'Thank you: your document was uploaded.',
  'owner-added': 'The owner was added.',
};

/** Largest owner form read. */
const OWNER_FORM_LIMIT = 64 * 1024;

type Problem = NonNullable<KycPageView['problem']>;
type Open = Extract<ReturnType<typeof openLink>, { state: 'open' }>;

/** The page path of a link, as the request reached it (served at the root and under the base path alike). */
const pagePathOf = (request: Incoming): string =>
  new URL(request.url).pathname.replace(/\/(documents|owners|complete|approve|reject)$/, '');

/** Resolves the link, or answers with the page that says why it cannot be used. */
function withOpenLink(tenant: TenantContext, token: string, run: (open: Open) => HttpResult | Promise<HttpResult>): HttpResult | Promise<HttpResult> {
  const found = openLink(tenant, token);
  switch (found.state) {
    case 'open':
      return run(found);
    case 'unknown':
      return pageResult(404, unavailablePage('unknown'));
    case 'used':
      return pageResult(410, unavailablePage('used', found.link.usedAt));
    case 'expired':
      return pageResult(410, unavailablePage('expired', found.link.expiresAt));
    case 'customer-gone':
      return pageResult(410, unavailablePage('customer-gone'));
  }
}

const isTerminal = (error: VerificationError) => (TERMINAL_VERIFICATION_ERROR_TYPES as readonly string[]).includes(error.type);

/** What the customer can still provide: the outstanding requirements minus terminal compliance outcomes. */
const fixableRequirements = (tenant: TenantContext, customerId: string) => outstandingRequirements(tenant, customerId).filter((e) => !isTerminal(e));

function latestVerification(tenant: TenantContext, customerId: string): Verification | undefined {
  return listVerifications(tenant, { customerId, limit: 1 }).data[0];
}

const underReview = (v: Verification | undefined) => v?.verificationStatus === 'IN_PROGRESS' || v?.verificationStatus === 'PENDING_MANUAL_REVIEW';

/** Renders the page of an open link. */
function renderPage(tenant: TenantContext, open: Open, pagePath: string, status = 200, extra: { notice?: string | undefined; problem?: Problem } = {}): HttpResult {
  const customer = customerView(open.customer);
  const owners = customer.customerType === 'BUSINESS' ? ownersOf(tenant, customer.id) : [];
  const documents: Document[] = [customer.id, ...owners.map((o) => o.id)].flatMap((holder) => documentsOfHolder(tenant, holder).map(documentView));
  const view: KycPageView = {
    customer,
    missing: fixableRequirements(tenant, customer.id),
    documents,
    owners,
    latestVerification: latestVerification(tenant, customer.id)?.verificationStatus,
    expiresAt: open.link.expiresAt,
    actions: {
      documents: `${pagePath}/documents`, owners: `${pagePath}/owners`, complete: `${pagePath}/complete`,
      approve: `${pagePath}/approve`, reject: `${pagePath}/reject`,
    },
    notice: extra.notice,
    problem: extra.problem,
  };
  return pageResult(status, kycPage(view));
}

/** An ApiError as a problem shown on the page (never as a JSON dump). */
const problemOf = (title: string, error: unknown): { status: number; problem: Problem } => {
  if (!(error instanceof ApiError)) throw error;
  const listed = (error.details?.errors as FieldError[] | undefined) ?? [];
  return { status: error.status, problem: { title, errors: listed.length > 0 ? listed : [{ field: 'body', message: error.message }] } };
};

/** `GET …/kyc/{token}`: the page. */
export function showKycPage(tenant: TenantContext, token: string, request: Incoming): HttpResult | Promise<HttpResult> {
  return withOpenLink(tenant, token, (open) => {
    const key = new URL(request.url).searchParams.get('notice') ?? '';
    const notice = Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : undefined;
    return renderPage(tenant, open, pagePathOf(request), 200, { notice });
  });
}

/**
 * `POST …/kyc/{token}/documents`: the upload form, handed to the documents area as `POST /documents` would be. The
 * holder must be the link's customer or one of its owners.
 */
export function uploadFromPage(tenant: TenantContext, token: string, request: Incoming): HttpResult | Promise<HttpResult> {
  return withOpenLink(tenant, token, async (open) => {
    const pagePath = pagePathOf(request);
    try {
      const form = await readDocumentForm(request);
      const holder = form.fields.documentHolder ?? open.customer.id;
      const allowed = [open.customer.id, ...ownersOf(tenant, open.customer.id).map((o) => o.id)];
      if (!allowed.includes(holder)) {
        return renderPage(tenant, open, pagePath, 400, {
          problem: { title: 'The document was not uploaded', errors: [{ field: 'documentHolder', message: 'must be this customer or one of its owners' }] },
        });
      }
      await uploadDocument(tenant, { ...form, fields: { ...form.fields, documentHolder: holder } });
      return seeOther(`${pagePath}?notice=document-uploaded`);
    } catch (error) {
      const { status, problem } = problemOf('The document was not uploaded', error);
      return renderPage(tenant, open, pagePath, status, { problem });
    }
  });
}

/** Reads a small form (urlencoded or multipart) into its fields; repeated fields become arrays. */
async function readSmallForm(request: Incoming): Promise<Record<string, string | string[]>> {
  const bytes = await request.bytes(OWNER_FORM_LIMIT);
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': request.header('content-type') ?? '' } }).formData();
  } catch {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', 'The form could not be read: send it as multipart/form-data or application/x-www-form-urlencoded');
  }
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of form) {
    if (typeof value !== 'string' || value.trim() === '') continue;
    const existing = fields[name];
    fields[name] = existing === undefined ? value.trim() : [...(Array.isArray(existing) ? existing : [existing]), value.trim()];
  }
  return fields;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The owner form as a `POST /beneficial-owners` body. */
function ownerRequest(customerId: string, f: Record<string, string | string[]>) {
  const roles = f.roles === undefined ? [] : Array.isArray(f.roles) ? f.roles : [f.roles];
  const percentage = single(f.ownershipPercentage);
  const address = { line1: single(f.line1), city: single(f.city), postalCode: single(f.postalCode), country: single(f.addressCountry) };
  return {
    customerId,
    roles,
    ownershipPercentage: percentage !== undefined && /^\d{1,3}(\.\d+)?$/.test(percentage) ? Number(percentage) : percentage,
    personalInfo: {
      firstName: single(f.firstName), lastName: single(f.lastName), birthDate: single(f.birthDate), nationality: single(f.nationality),
      address: Object.fromEntries(Object.entries(address).filter(([, v]) => v !== undefined)),
      idType: single(f.idType), identifier: single(f.identifier),
    },
  };
}

/** `POST …/kyc/{token}/owners`: adds a beneficial owner to the link's business, as `POST /beneficial-owners` would. */
export function addOwnerFromPage(tenant: TenantContext, token: string, request: Incoming): HttpResult | Promise<HttpResult> {
  return withOpenLink(tenant, token, async (open) => {
    const pagePath = pagePathOf(request);
    const title = 'The owner was not added';
    try {
      if (open.customer.customerType !== 'BUSINESS') {
        return renderPage(tenant, open, pagePath, 400, { problem: { title, errors: [{ field: 'body', message: 'only businesses have beneficial owners' }] } });
      }
      const parsed = BeneficialOwnerCreateRequest.safeParse(ownerRequest(open.customer.id, await readSmallForm(request)), { reportInput: true });
      if (!parsed.success) return renderPage(tenant, open, pagePath, 400, { problem: { title, errors: toFieldErrors(parsed.error.issues) } });
      createOwner(tenant, parsed.data);
      return seeOther(`${pagePath}?notice=owner-added`);
    } catch (error) {
      const { status, problem } = problemOf(title, error);
      return renderPage(tenant, open, pagePath, status, { problem });
    }
  });
}

/**
 * Finishes the flow (Complete, or the sandbox's Approve / Reject): submits the verification unless one is already under
 * review or the customer's status is final, decides it for Approve / Reject, uses the link up and redirects (303) to
 * `redirectUri?status=completed`. While something is still missing the page is shown again (409) and the link stays open.
 */
export function finishFromPage(tenant: TenantContext, token: string, request: Incoming, outcome: LinkOutcome): HttpResult | Promise<HttpResult> {
  return withOpenLink(tenant, token, (open) => {
    const pagePath = pagePathOf(request);
    try {
      const result = finishFlow(tenant, open.customer, outcome);
      if (result !== undefined) return renderPage(tenant, open, pagePath, 409, { problem: result });
      const redirect = finishLink(tenant, open.link as KycLinkRecord, outcome);
      return redirect === undefined ? pageResult(200, finishedPage()) : seeOther(redirect);
    } catch (error) {
      const { status, problem } = problemOf('The verification could not be finished', error);
      return renderPage(tenant, open, pagePath, status, { problem });
    }
  });
}

/** Submits and decides as the button asks; a problem to show instead, or undefined when the flow may finish. */
function finishFlow(tenant: TenantContext, customer: CustomerRecord, outcome: LinkOutcome): Problem | undefined {
  const status = statusOf(customer);
  const final = status === 'APPROVED' || status === 'REJECTED';
  let verification = latestVerification(tenant, customer.id);
  if (!final && !underReview(verification)) {
    const missing = fixableRequirements(tenant, customer.id);
    if (missing.length > 0) return { title: 'Something is still missing', errors: [], verificationErrors: missing };
    verification = submitVerification(tenant, customer.id);
    if (verification.verificationStatus === 'RESOLVE_ERRORS') {
      return { title: 'The verification needs something more', errors: [], verificationErrors: verification.errors };
    }
  }
  if (outcome === 'COMPLETED') return undefined;
  if (final) {
    return status === outcome ? undefined : { title: `The customer is already ${status}`, errors: [{ field: 'body', message: `${status} is final in the sandbox and cannot be changed` }] };
  }
  if (verification && underReview(verification)) decideVerification(tenant, verification.id, outcome);
  return undefined;
}
