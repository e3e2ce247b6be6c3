import {
  BeneficialOwnerRole, DOCUMENT_TYPES, type BeneficialOwner, type Customer, type Document, type FieldError, type VerificationError,
} from '@railyard/contract';
import { Html, html, layout } from './html.js';

// The hosted verification pages (what the customer sees behind a kycUrl), as pure functions of what they show.

/** Everything the verification page shows. */
export interface KycPageView {
  readonly customer: Customer;
  /** What the customer still has to provide (fixable verification errors). */
  readonly missing: readonly VerificationError[];
  readonly documents: readonly Document[];
  /** Beneficial owners (businesses only). */
  readonly owners: readonly BeneficialOwner[];
  /** The status of the latest verification, if any was submitted. */
  readonly latestVerification?: string | undefined;
  readonly expiresAt: string;
  /** Form targets, relative to the server. */
  readonly actions: { readonly documents: string; readonly owners: string; readonly complete: string; readonly approve: string; readonly reject: string };
  /** A confirmation after a successful form post. */
  readonly notice?: string | undefined;
  /** What went wrong with the last form post. */
  readonly problem?: { readonly title: string; readonly errors: readonly FieldError[]; readonly verificationErrors?: readonly VerificationError[] } | undefined;
}

export const customerName = (customer: Customer): string =>
  customer.customerType === 'INDIVIDUAL' ? (customer.fullName ?? '(no name yet)') : customer.businessInfo.legalName;

const ownerName = (owner: BeneficialOwner) => `${owner.personalInfo.firstName} ${owner.personalInfo.lastName}`;

/** Who or what an error is about, in words. */
function resourceLabel(view: KycPageView, resourceId: string): string {
  if (resourceId === view.customer.id) return view.customer.customerType === 'INDIVIDUAL' ? 'You' : 'The business';
  const owner = view.owners.find((o) => o.id === resourceId);
  if (owner) return `Owner ${ownerName(owner)}`;
  const document = view.documents.find((d) => d.id === resourceId);
  if (document) return `Document ${document.fileName} (${document.documentType})`;
  return resourceId;
}

const requirement = (view: KycPageView, error: VerificationError) => html`<li>
<strong>${resourceLabel(view, error.resourceId)}</strong>: ${error.reason}
<span class="muted">(<code>${error.type}</code>${error.field ? html` on <code>${error.field}</code>` : ''})</span>
${error.acceptedDocumentTypes && error.acceptedDocumentTypes.length > 0
    ? html`<br><span class="muted">Upload one of: ${error.acceptedDocumentTypes.map((t, i) => html`${i > 0 ? ', ' : ''}<code>${t}</code>`)}</span>`
    : ''}
</li>`;

const fieldError = (error: FieldError) => html`<li>${error.field === 'body' ? '' : html`<code>${error.field}</code>: `}${error.message ?? 'is invalid'}</li>`;

const option = (value: string, label: string, selected = false) => html`<option value="${value}"${selected ? new Html(' selected') : ''}>${label}</option>`;

function uploadForm(view: KycPageView): Html {
  const firstAccepted = view.missing.find((e) => e.acceptedDocumentTypes?.length)?.acceptedDocumentTypes?.[0];
  const holders = [
    { id: view.customer.id, label: `${customerName(view.customer)} (${view.customer.customerType === 'INDIVIDUAL' ? 'you' : 'the business'})` },
    ...view.owners.map((o) => ({ id: o.id, label: `${ownerName(o)} (owner)` })),
  ];
  const country = view.customer.customerType === 'INDIVIDUAL'
    ? (view.customer.address?.country ?? view.customer.nationality ?? '')
    : (view.customer.businessInfo.country ?? view.customer.address?.country ?? '');
  return html`<section id="upload">
<h2>Upload a document</h2>
<form method="post" action="${view.actions.documents}" enctype="multipart/form-data">
<div class="row">
<div><label for="documentHolder">Whose document</label>
<select id="documentHolder" name="documentHolder">${holders.map((h) => option(h.id, h.label))}</select></div>
<div><label for="documentType">Document type</label>
<select id="documentType" name="documentType">${DOCUMENT_TYPES.map((t) => option(t, t, t === firstAccepted))}</select></div>
</div>
<div class="row">
<div><label for="country">Issuing country (ISO code)</label><input id="country" name="country" value="${country}" maxlength="2" required></div>
<div><label for="side">Side (driver's licence, national ID)</label>
<select id="side" name="side">${option('', '—')}${option('FRONT', 'Front')}${option('BACK', 'Back')}</select></div>
</div>
<div class="row">
<div><label for="documentNumber">Document number (identity documents)</label><input id="documentNumber" name="documentNumber"></div>
<div><label for="issuingAuthority">Issuing authority (identity documents)</label><input id="issuingAuthority" name="issuingAuthority"></div>
</div>
<div class="row">
<div><label for="issuedOn">Issued on (proof of address)</label><input id="issuedOn" name="issuedOn" type="date"></div>
<div><label for="file">File (PDF, JPEG or PNG, at most 10 MB)</label><input id="file" name="file" type="file" accept="application/pdf,image/jpeg,image/png" required></div>
</div>
<button type="submit">Upload</button>
</form>
</section>`;
}

function ownerForm(view: KycPageView): Html {
  return html`<section id="owners">
<h2>Beneficial owners and control persons</h2>
${view.owners.length === 0
    ? html`<p class="muted">None registered yet. Register every owner of 25% or more and one control person.</p>`
    : html`<ul>${view.owners.map((o) => html`<li>${ownerName(o)}: ${o.roles.join(', ')}, ${o.ownershipPercentage}%</li>`)}</ul>`}
<form method="post" action="${view.actions.owners}" enctype="multipart/form-data">
<div class="row">
<div><label for="firstName">First name</label><input id="firstName" name="firstName" required></div>
<div><label for="lastName">Last name</label><input id="lastName" name="lastName" required></div>
</div>
<div class="row">
<div><label for="birthDate">Birth date</label><input id="birthDate" name="birthDate" type="date" required></div>
<div><label for="nationality">Nationality (ISO code)</label><input id="nationality" name="nationality" maxlength="2" required></div>
</div>
<div class="row">
<div><label for="line1">Address</label><input id="line1" name="line1" required></div>
<div><label for="city">City</label><input id="city" name="city"></div>
</div>
<div class="row">
<div><label for="postalCode">Postal code</label><input id="postalCode" name="postalCode" required></div>
<div><label for="addressCountry">Country (ISO code)</label><input id="addressCountry" name="addressCountry" maxlength="2" required></div>
</div>
<div class="row">
<div><label for="idType">ID type</label><select id="idType" name="idType">${['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'].map((t) => option(t, t))}</select></div>
<div><label for="identifier">ID number</label><input id="identifier" name="identifier" required></div>
</div>
<div class="row">
<div><label for="ownershipPercentage">Ownership (%)</label><input id="ownershipPercentage" name="ownershipPercentage" type="number" min="0" max="100" step="any" required></div>
<div><label>Roles</label>${BeneficialOwnerRole.options.map((role) => html`<label class="inline"><input type="checkbox" name="roles" value="${role}"> ${role}</label> `)}</div>
</div>
<button type="submit">Add owner</button>
</form>
</section>`;
}

/** The verification page: who, what is still missing, the forms, and the buttons that finish the flow. */
export function kycPage(view: KycPageView): Html {
  const { customer } = view;
  const kind = customer.customerType === 'INDIVIDUAL' ? 'Individual (KYC)' : 'Business (KYB)';
  const status = customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus;
  const body = html`
<section>
<h1>${customerName(customer)}</h1>
<dl>
<dt>Type</dt><dd>${kind}</dd>
<dt>Status</dt><dd><code>${status}</code>${view.latestVerification ? html` <span class="muted">(latest verification <code>${view.latestVerification}</code>)</span>` : ''}</dd>
<dt>Link valid until</dt><dd>${view.expiresAt}</dd>
</dl>
</section>
${view.notice ? html`<section class="notice" role="status">${view.notice}</section>` : ''}
${view.problem
    ? html`<section class="problem" role="alert"><h2>${view.problem.title}</h2>
${view.problem.errors.length > 0 ? html`<ul>${view.problem.errors.map(fieldError)}</ul>` : ''}
${view.problem.verificationErrors?.length ? html`<ul class="missing">${view.problem.verificationErrors.map((e) => requirement(view, e))}</ul>` : ''}
</section>`
    : ''}
<section id="missing" class="${view.missing.length === 0 ? 'done' : ''}">
<h2>Still missing</h2>
${view.missing.length === 0
    ? html`<p id="nothing-missing">Nothing is missing. You can complete the verification.</p>`
    : html`<ul class="missing">${view.missing.map((e) => requirement(view, e))}</ul>`}
</section>
${view.documents.length > 0
    ? html`<section id="documents"><h2>Documents provided</h2><ul>${view.documents.map((d) => html`<li>${d.fileName}: <code>${d.documentType}</code>${d.side ? ` (${d.side})` : ''}</li>`)}</ul></section>`
    : ''}
${uploadForm(view)}
${customer.customerType === 'BUSINESS' ? ownerForm(view) : ''}
<section>
<h2>Finish</h2>
<p class="muted">Completing submits your verification. You are then sent back to the platform; the decision follows separately.</p>
<form method="post" action="${view.actions.complete}" enctype="multipart/form-data"><button type="submit" id="complete">Complete</button></form>
</section>
<section class="sandbox">
<h2>Sandbox decisions</h2>
<p class="muted">Sandbox only: submit and decide at once, then return to the platform.</p>
<form method="post" action="${view.actions.approve}" enctype="multipart/form-data" class="inline"><button type="submit" id="approve" class="secondary">Approve</button></form>
<form method="post" action="${view.actions.reject}" enctype="multipart/form-data" class="inline"><button type="submit" id="reject" class="secondary">Reject</button></form>
</section>`;
  return layout(`Verify ${customerName(customer)}`, body);
}

/** Why a link cannot be used, as a page: used, expired, unknown, or the customer is gone. */
export function unavailablePage(reason: 'used' | 'expired' | 'unknown' | 'customer-gone', at?: string): Html {
  const text = {
    used: {
      title: 'This verification link has already been used',
      detail: html`The verification was finished${at ? html` on ${at}` : ''}. Each link works once: ask the platform that sent it for a new one if you need to continue.`,
    },
    expired: {
      title: 'This verification link has expired',
      detail: html`It was valid until ${at ?? 'a while ago'}. Ask the platform that sent it for a new link.`,
    },
    unknown: {
      title: 'This verification link is not valid',
      detail: html`Check that you opened the whole link, or ask the platform that sent it for a new one.`,
    },
    'customer-gone': {
      title: 'This verification is no longer available',
      detail: html`The account it belongs to was closed. Contact the platform that sent the link.`,
    },
  }[reason];
  return layout(text.title, html`<section class="problem" id="unavailable" data-reason="${reason}"><h1>${text.title}</h1><p>${text.detail}</p></section>`);
}

/** The end of a flow whose link has no `redirectUri`: nothing more to do here. */
export const finishedPage = (): Html =>
  layout('Verification submitted', html`<section id="finished"><h1>Thank you, you are done</h1><p>Your information was submitted. You can close this window; the platform that sent the link will tell you the outcome.</p></section>`);

/** An error on a page a person opened (an unknown link's platform, an upload too large), as a page rather than JSON. */
export function errorPage(status: number, message: string): Html {
  const title = status === 404 ? 'This page does not exist' : 'This request could not be completed';
  return layout(title, html`<section class="problem" id="error" data-status="${String(status)}"><h1>${title}</h1><p>${message}</p></section>`);
}
