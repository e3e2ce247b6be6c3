import { z } from 'zod';
import { IdParam, MAX_LENGTH, Timestamp, cappedString } from './common.js';
import { Customer, CustomerPath } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { DOCUMENT_FORM_MAX_BYTES } from './onboarding.js';

// Contact verification and the hosted verification link (SPEC §3.4, §4.3; REFERENCE §2.1, §13).

/** A contact channel that a region may require to be verified; the customer field it verifies is `email` or `phoneNumber`. */
export const ContactChannel = z.enum(['email', 'phone']).meta({ id: 'ContactChannel' });
export type ContactChannel = z.infer<typeof ContactChannel>;

/** The one-time code of the sandbox: every contact-verification code is `123456`. */
export const SANDBOX_CONTACT_VERIFICATION_CODE = '123456';
/** How long a contact-verification code stays valid, in engine time. */
export const CONTACT_CODE_TTL_MS = 10 * 60 * 1000;

/** `POST /customers/{customerId}/verify-email/confirm` and `…/verify-phone/confirm`. */
export const ContactVerificationConfirmRequest = z
  .object({ code: cappedString(MAX_LENGTH.id).min(1, { message: 'must not be empty' }) })
  .meta({ id: 'ContactVerificationConfirmRequest' });
export type ContactVerificationConfirmRequest = z.input<typeof ContactVerificationConfirmRequest>;

/** Hosts for which a plain-http `redirectUri` is accepted (local development), beside `*.localhost` and private addresses. */
export const LOCAL_REDIRECT_HOSTS = ['localhost', '127.0.0.1', '[::1]', '0.0.0.0', 'host.docker.internal'] as const;

/** A host of local development: a loopback or private address, `*.localhost`, `*.local`, or one of {@link LOCAL_REDIRECT_HOSTS}. */
export function isLocalDevelopmentHost(hostname: string): boolean {
  if ((LOCAL_REDIRECT_HOSTS as readonly string[]).includes(hostname)) return true;
  if (/\.(localhost|local)$/.test(hostname)) return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(hostname);
  if (!octets) return false;
  const [a, b] = [Number(octets[1]), Number(octets[2])];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31);
}

/** True when `value` is an https URL, or an http URL on a local development host. */
export function isAcceptedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLocalDevelopmentHost(url.hostname);
}

/** Where the customer's browser goes once the hosted flow finishes: https, or http on a local host for local development. */
export const RedirectUri = cappedString(MAX_LENGTH.url)
  .refine(isAcceptedRedirectUri, {
    message: 'must be an absolute https URL (http is accepted only for local development: localhost, *.localhost, private addresses)',
    params: { constraint: { format: 'url' } },
  });

/**
 * `POST /customers/{customerId}/kyc-link` body, itself optional. Without `redirectUri` the hosted flow ends on a page
 * that tells the customer they are done.
 */
export const KycLinkCreateRequest = z.object({ redirectUri: RedirectUri.optional() }).meta({ id: 'KycLinkCreateRequest' });
export type KycLinkCreateRequest = z.input<typeof KycLinkCreateRequest>;

/** Query of the deprecated `GET /customers/kyc-link`: the customer by `platformCustomerId`, and the link's `redirectUri`. */
export const KycLinkLegacyQuery = z.object({ platformCustomerId: IdParam.min(1), redirectUri: RedirectUri.optional() });
export type KycLinkLegacyQuery = z.input<typeof KycLinkLegacyQuery>;

/** Identity-verification providers of hosted links. */
export const KycLinkProvider = z.enum(['SUMSUB']).meta({ id: 'KycLinkProvider' });

/** How long a hosted verification link stays valid, in engine time. */
export const KYC_LINK_TTL_MS = 30 * 60 * 1000;

/** A single-use hosted verification link (KYC for individuals, KYB for businesses). */
export const KycLink = z
  .object({
    /** Open this in the customer's browser; it works once, until `expiresAt`. */
    kycUrl: z.url(),
    expiresAt: Timestamp,
    provider: KycLinkProvider,
    /** Access token for the provider's own SDK (direct integrations). */
    token: z.string().optional(),
  })
  .meta({ id: 'KycLink' });
export type KycLink = z.infer<typeof KycLink>;

/** Path parameters of the hosted pages: the platform (public pages carry it) and the link token. */
export const HostedKycPath = z.object({ platformId: IdParam, token: IdParam });

/** The path of the hosted verification page of a link, below the server's origin. */
export const hostedKycPath = (platformId: string, token: string): string =>
  `/_sandbox/hosted/${encodeURIComponent(platformId)}/kyc/${encodeURIComponent(token)}`;

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints

const tag = 'Customers';
const contactErrors = [409, 410] as const;

export const contactVerificationEndpoints = {
  sendEmailVerificationCode: defineEndpoint({
    operationId: 'sendEmailVerificationCode', method: 'POST', path: '/customers/{customerId}/verify-email', tag,
    summary: "Send a one-time code to the customer's email",
    description:
      'Each call issues a new code and the previous one stops working. Codes expire after 10 minutes. In the sandbox the code is always 123456. ' +
      '409 when the region does not require email verification or the email is already VERIFIED.',
    params: CustomerPath,
    response: { status: 204, description: 'Code sent' },
    errors: [...contactErrors],
  }),
  confirmEmailVerification: defineEndpoint({
    operationId: 'confirmEmailVerification', method: 'POST', path: '/customers/{customerId}/verify-email/confirm', tag,
    summary: "Confirm the customer's email with the code sent to it",
    description: '400 INVALID_INPUT (field `code`) when the code is wrong, expired or none was sent; nothing changes then.',
    params: CustomerPath,
    body: ContactVerificationConfirmRequest,
    response: { status: 200, description: 'The customer, with contactVerification.email VERIFIED', schema: Customer },
    errors: [...contactErrors],
  }),
  sendPhoneVerificationCode: defineEndpoint({
    operationId: 'sendPhoneVerificationCode', method: 'POST', path: '/customers/{customerId}/verify-phone', tag,
    summary: "Send a one-time code to the customer's phone number",
    description:
      'Each call issues a new code and the previous one stops working. Codes expire after 10 minutes. In the sandbox the code is always 123456. ' +
      '409 when the region does not require phone verification or the phone is already VERIFIED.',
    params: CustomerPath,
    response: { status: 204, description: 'Code sent' },
    errors: [...contactErrors],
  }),
  confirmPhoneVerification: defineEndpoint({
    operationId: 'confirmPhoneVerification', method: 'POST', path: '/customers/{customerId}/verify-phone/confirm', tag,
    summary: "Confirm the customer's phone number with the code sent to it",
    description: '400 INVALID_INPUT (field `code`) when the code is wrong, expired or none was sent; nothing changes then.',
    params: CustomerPath,
    body: ContactVerificationConfirmRequest,
    response: { status: 200, description: 'The customer, with contactVerification.phone VERIFIED', schema: Customer },
    errors: [...contactErrors],
  }),
} as const;

export const kycLinkEndpoints = {
  createKycLink: defineEndpoint({
    operationId: 'createKycLink', method: 'POST', path: '/customers/{customerId}/kyc-link', tag,
    summary: 'Create a single-use hosted verification link (KYC or KYB)',
    description:
      'Each call returns a fresh link, valid for 30 minutes and usable once; earlier links stay valid until used or expired. ' +
      '409 while a contact channel in contactVerification is not VERIFIED. Send an Idempotency-Key to retry safely. ' +
      'Being redirected to redirectUri means only that the customer finished the flow; decisions arrive by webhook or on the customer.',
    params: CustomerPath,
    body: KycLinkCreateRequest, bodyOptional: true,
    response: { status: 201, description: 'The link', schema: KycLink },
    errors: [409, 410], secrets: { response: ['kycUrl', 'token'] },
  }),
  // The path the latest published reference SDK still calls: served so that SDK works unchanged (issue 33).
  getKycLinkLegacy: defineEndpoint({
    operationId: 'getKycLinkLegacy', method: 'GET', path: '/customers/kyc-link', tag, deprecated: true, createsState: true,
    summary: 'Deprecated: create a hosted verification link for the customer with a platformCustomerId (use POST /customers/{customerId}/kyc-link)',
    description:
      'Answers as POST /customers/{customerId}/kyc-link does for the active customer with this `platformCustomerId`: a fresh ' +
      'single-use link (201), 409 while a contact channel is not VERIFIED. No customer has it: 404 USER_NOT_FOUND; only a ' +
      'deleted one: 410 CUSTOMER_DELETED.',
    query: KycLinkLegacyQuery,
    response: { status: 201, description: 'The link', schema: KycLink },
    errors: [409, 410], secrets: { response: ['kycUrl', 'token'] },
  }),
} as const;

const hostedTag = 'Hosted verification (sandbox)';
const hosted = { tag: hostedTag, controlPlane: true, public: true, params: HostedKycPath, secrets: { params: ['token'] } } as const;
const page = (description: string) => ({ status: 200, description, contentType: 'text/html' }) as const;
const finish = { status: 303, description: 'Redirect to the redirectUri of the link' } as const;

/**
 * The pages behind a `kycUrl`, served by the sandbox without credentials (the platform is named in the path, the link
 * token authorizes). Forms post back to these paths (multipart/form-data or urlencoded, read by the pages themselves).
 */
export const hostedVerificationEndpoints = {
  getHostedKycPage: defineEndpoint({
    operationId: 'getHostedKycPage', method: 'GET', path: '/_sandbox/hosted/{platformId}/kyc/{token}', ...hosted,
    summary: 'The hosted verification page of a link: what is still missing, upload and owner forms, sandbox decisions',
    description: 'An HTML page. A used or expired link answers 410 and an unknown one 404, each with an HTML page saying so.',
    response: page('The hosted verification page (HTML)'),
  }),
  uploadHostedKycDocument: defineEndpoint({
    operationId: 'uploadHostedKycDocument', method: 'POST', path: '/_sandbox/hosted/{platformId}/kyc/{token}/documents', ...hosted,
    multipart: true, maxBodyBytes: DOCUMENT_FORM_MAX_BYTES,
    summary: 'Upload a document from the hosted page (multipart form with the fields of POST /documents)',
    response: { status: 303, description: 'Back to the page, which shows the result' },
  }),
  addHostedKycOwner: defineEndpoint({
    operationId: 'addHostedKycOwner', method: 'POST', path: '/_sandbox/hosted/{platformId}/kyc/{token}/owners', ...hosted,
    multipart: true,
    summary: 'Add a beneficial owner from the hosted page (businesses)',
    response: { status: 303, description: 'Back to the page, which shows the result' },
  }),
  completeHostedKyc: defineEndpoint({
    operationId: 'completeHostedKyc', method: 'POST', path: '/_sandbox/hosted/{platformId}/kyc/{token}/complete', ...hosted,
    multipart: true,
    summary: 'Finish the flow: submit the verification, use up the link and redirect to redirectUri?status=completed',
    response: finish,
  }),
  approveHostedKyc: defineEndpoint({
    operationId: 'approveHostedKyc', method: 'POST', path: '/_sandbox/hosted/{platformId}/kyc/{token}/approve', ...hosted,
    multipart: true,
    summary: 'Sandbox: submit, approve the verification, use up the link and redirect to redirectUri?status=completed',
    response: finish,
  }),
  rejectHostedKyc: defineEndpoint({
    operationId: 'rejectHostedKyc', method: 'POST', path: '/_sandbox/hosted/{platformId}/kyc/{token}/reject', ...hosted,
    multipart: true,
    summary: 'Sandbox: submit, reject the verification, use up the link and redirect to redirectUri?status=completed',
    response: finish,
  }),
} as const;

/** Every endpoint of this module. */
export const onboardingLinkEndpoints = {
  ...contactVerificationEndpoints,
  ...kycLinkEndpoints,
  ...hostedVerificationEndpoints,
} as const;
