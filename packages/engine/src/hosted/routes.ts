import { hostedVerificationEndpoints as h, kycLinkEndpoints as k } from '@railyard/contract';
import type { WireReply } from '@railyard/contract';
import type { ApiError } from '../core/errors.js';
import { bind } from '../http/app.js';
import { PAGE_HEADERS } from './html.js';
import { errorPage } from './pages.js';
import { addOwnerFromPage, finishFromPage, showKycPage, uploadFromPage } from './hosted.js';
import { createKycLink, createKycLinkByPlatformCustomerId } from './kyc-links.js';

/** HTTP bindings of the hosted verification link (SPEC §4.3) and of the public pages behind it. */
export const hostedRoutes = [
  bind(k.createKycLink, ({ tenant, params, body, request }) =>
    createKycLink(tenant, params.customerId, body?.redirectUri, new URL(request.url).origin)),
  bind(k.getKycLinkLegacy, ({ tenant, query, request }) =>
    createKycLinkByPlatformCustomerId(tenant, query.platformCustomerId, query.redirectUri, new URL(request.url).origin)),
  bind(h.getHostedKycPage, ({ tenant, params, request }) => showKycPage(tenant, params.token, request)),
  bind(h.uploadHostedKycDocument, ({ tenant, params, request }) => uploadFromPage(tenant, params.token, request)),
  bind(h.addHostedKycOwner, ({ tenant, params, request }) => addOwnerFromPage(tenant, params.token, request)),
  bind(h.completeHostedKyc, ({ tenant, params, request }) => finishFromPage(tenant, params.token, request, 'COMPLETED')),
  bind(h.approveHostedKyc, ({ tenant, params, request }) => finishFromPage(tenant, params.token, request, 'APPROVED')),
  bind(h.rejectHostedKyc, ({ tenant, params, request }) => finishFromPage(tenant, params.token, request, 'REJECTED')),
];

/** Errors of the hosted pages that the HTTP layer raises before a page runs (unknown platform, body too large), as pages. */
export const hostedErrorReply = (error: ApiError): WireReply => ({
  status: error.status,
  headers: { ...PAGE_HEADERS },
  body: errorPage(error.status, error.message).value,
});
