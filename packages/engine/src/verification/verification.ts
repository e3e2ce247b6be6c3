import {
  IDENTITY_DOCUMENT_TYPES, TERMINAL_VERIFICATION_ERROR_TYPES, type Page, type Verification, type VerificationError,
  type VerificationListQuery, type VerificationStatus,
} from '@railyard/contract';
import type { z } from 'zod';
import { ownersOf, setOwnerStatus } from '../beneficial-owners/owners.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidField, notFound } from '../core/errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { findCustomer, setCustomerStatus, statusOf, type CustomerRecord } from '../customers/customers.js';
import { markDocumentsSubmitted } from '../documents/documents.js';
import {
  BENEFICIAL_OWNER_KYC, BUSINESS_KYB, INDIVIDUAL_KYC, VERIFICATION_REVIEW_MS, lookupSuffix,
} from '../sandbox/magic-values.js';
import { documentsHeldBy, packetErrors } from './requirements.js';

// Verifications (SPEC §2.7, §3.2, §3.3, §4.6): a submission checks the whole packet, then the sandbox decides as the
// magic-value tables say.

/**
 * A stored verification: the resource, plus what a 003 poor-quality outcome was reported on: the document, the version
 * of it that was judged, and the identity documents held then (a newer one is a remediation too).
 */
type VerificationRecord = Verification & { poorQuality?: { documentId: string; version: string; identityDocumentIds: string[] } };

const verifications = (tenant: TenantContext) => tenant.store.collection<VerificationRecord>('verifications');

/** Job that ends a short review with its decision. */
export const DECIDE_JOB = 'verification.decide';

/** The resource as the API shows it. */
export function verificationView(record: VerificationRecord): Verification {
  const { poorQuality: _internal, ...view } = record;
  return view;
}

/** A verification by id, or 404. */
export function findVerification(tenant: TenantContext, verificationId: string): VerificationRecord {
  const found = verifications(tenant).get(verificationId);
  if (!found) throw notFound('Verification', verificationId);
  return found;
}

/**
 * What a customer still needs before a submission can be reviewed: the errors a submission would report now
 * (empty when the packet is complete, or when this platform resolves the business without one).
 */
export function outstandingRequirements(tenant: TenantContext, customerId: string): VerificationError[] {
  const customer = findCustomer(tenant, customerId);
  const status = statusOf(customer);
  if (status === 'APPROVED' || status === 'REJECTED' || resolvesWithoutPacket(tenant, customer)) return [];
  return packetErrors(tenant, customer, tenant.clock.now());
}

/** `POST /verifications`: check the packet and move the customer as SPEC §3.2, §3.3 and §4.6 say. */
export function submitVerification(tenant: TenantContext, customerId: string): Verification {
  const customer = findCustomer(tenant, customerId);
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customerId} was deleted`);
  const status = statusOf(customer);
  if (status === 'APPROVED' || status === 'REJECTED') {
    throw invalidField('customerId', `customer ${customerId} is already ${status}; that status is final and cannot be resubmitted`);
  }
  // Under review: the submission is already in; a repeat returns it as it stands (no second review, no event).
  const active = latestOf(tenant, customerId);
  if (active && (active.verificationStatus === 'IN_PROGRESS' || active.verificationStatus === 'PENDING_MANUAL_REVIEW')) return verificationView(active);

  if (resolvesWithoutPacket(tenant, customer)) {
    const decision = lookupSuffix(BUSINESS_KYB, businessRegistration(customer)).decision as 'APPROVED' | 'REJECTED';
    const record = open(tenant, customerId, 'IN_PROGRESS', []);
    return verificationView(decide(tenant, record, decision));
  }

  const errors = packetErrors(tenant, customer, tenant.clock.now());
  const terminal = errors.filter((e) => (TERMINAL_VERIFICATION_ERROR_TYPES as readonly string[]).includes(e.type));
  if (terminal.length > 0) {
    markSubmitted(tenant, customer);
    const record = open(tenant, customerId, 'IN_PROGRESS', []);
    return verificationView(decide(tenant, record, 'REJECTED', terminal));
  }
  if (errors.length > 0) return verificationView(open(tenant, customerId, 'RESOLVE_ERRORS', errors));

  const outcome = completePacketOutcome(customer);
  if (outcome === 'POOR_QUALITY_DOCUMENT') {
    const flagged = poorQualityDocument(tenant, customer, active);
    if (flagged) {
      const error: VerificationError = {
        resourceId: flagged.id, type: 'POOR_QUALITY_DOCUMENT', acceptedDocumentTypes: [...IDENTITY_DOCUMENT_TYPES],
        reason: `the ${flagged.documentType} image is too poor to read; upload a replacement`,
      };
      const record = open(tenant, customerId, 'RESOLVE_ERRORS', [error]);
      const identityDocumentIds = identityDocuments(tenant, customer.id).map((d) => d.id);
      verifications(tenant).replace({ ...record, poorQuality: { documentId: flagged.id, version: versionOf(flagged), identityDocumentIds } });
      return verificationView(record);
    }
  }
  markSubmitted(tenant, customer);
  setCustomerStatus(tenant, customerId, 'PENDING');
  if (outcome === 'MANUAL_REVIEW') return verificationView(open(tenant, customerId, 'PENDING_MANUAL_REVIEW', []));
  const record = open(tenant, customerId, 'IN_PROGRESS', []);
  tenant.schedule(VERIFICATION_REVIEW_MS, DECIDE_JOB, { verificationId: record.id, decision: outcome === 'REJECTED' ? 'REJECTED' : 'APPROVED' });
  return verificationView(record);
}

/**
 * A reviewer's decision (the sandbox's operator move, also the hosted page's buttons): APPROVED or REJECTED end the
 * verification; HOLD puts the customer on hold while the review goes on.
 */
export function decideVerification(tenant: TenantContext, verificationId: string, decision: 'APPROVED' | 'REJECTED' | 'HOLD'): Verification {
  const record = findVerification(tenant, verificationId);
  if (record.verificationStatus !== 'PENDING_MANUAL_REVIEW' && record.verificationStatus !== 'IN_PROGRESS') {
    throw conflict(`verification ${verificationId} is ${record.verificationStatus}; only one under review can be decided`, 'INVALID_STATE_TRANSITION');
  }
  if (decision === 'HOLD') {
    // A held verification waits for a person: it leaves the short automatic review, whose decision would otherwise land.
    let held = record;
    if (record.verificationStatus === 'IN_PROGRESS') {
      held = { ...record, verificationStatus: 'PENDING_MANUAL_REVIEW', updatedAt: tenant.nowIso() };
      verifications(tenant).replace(held);
      tenant.emit('VERIFICATION.PENDING_MANUAL_REVIEW', verificationView(held));
    }
    setCustomerStatus(tenant, record.customerId, 'HOLD');
    return verificationView(held);
  }
  return verificationView(decide(tenant, record, decision));
}

/** The scheduled end of a short review. */
export function runDecisionJob(tenant: TenantContext, payload: unknown): void {
  const { verificationId, decision } = payload as { verificationId: string; decision: 'APPROVED' | 'REJECTED' };
  const record = verifications(tenant).get(verificationId);
  if (record?.verificationStatus === 'IN_PROGRESS') decide(tenant, record, decision);
}

/** `GET /verifications`, newest first. */
export function listVerifications(tenant: TenantContext, query: z.output<typeof VerificationListQuery>): Page<Verification> {
  return listPage(verifications(tenant), query, {
    where: definedOnly({ customerId: query.customerId, verificationStatus: query.verificationStatus }),
  }, verificationView);
}

/** Records a new verification and announces it. */
function open(tenant: TenantContext, customerId: string, status: VerificationStatus, errors: VerificationError[]): VerificationRecord {
  const now = tenant.nowIso();
  const record: VerificationRecord = { id: tenant.ids('Verification'), customerId, verificationStatus: status, errors, createdAt: now, updatedAt: now };
  verifications(tenant).insert(record);
  tenant.emit(`VERIFICATION.${status}`, verificationView(record));
  return record;
}

/** Ends a verification: its status, the customer's, and (for a business) its owners' by their own table. */
function decide(tenant: TenantContext, record: VerificationRecord, decision: 'APPROVED' | 'REJECTED', errors: VerificationError[] = []): VerificationRecord {
  const decided: VerificationRecord = { ...record, verificationStatus: decision, errors, updatedAt: tenant.nowIso() };
  verifications(tenant).replace(decided);
  tenant.emit(`VERIFICATION.${decision}`, verificationView(decided));
  const customer = findCustomer(tenant, record.customerId);
  // Owners first, so the customer's decision event carries their outcomes.
  if (customer.customerType === 'BUSINESS') {
    // An owner who caused a terminal rejection (screening, a forged document) is rejected whatever its name says.
    const culprits = new Set(errors.flatMap((e) => [e.resourceId, ...documentsHeldByOwners(tenant, customer.id, e.resourceId)]));
    for (const owner of ownersOf(tenant, customer.id)) {
      setOwnerStatus(tenant, owner.id, culprits.has(owner.id) ? 'REJECTED' : lookupSuffix(BENEFICIAL_OWNER_KYC, owner.personalInfo.lastName));
    }
  }
  if (statusOf(customer) === 'UNVERIFIED') setCustomerStatus(tenant, customer.id, 'PENDING');
  setCustomerStatus(tenant, customer.id, decision);
  return decided;
}

/** What a complete packet leads to, by the customer's magic value. */
function completePacketOutcome(customer: CustomerRecord): 'MANUAL_REVIEW' | 'APPROVED' | 'REJECTED' | 'POOR_QUALITY_DOCUMENT' {
  if (customer.customerType === 'INDIVIDUAL') return lookupSuffix(INDIVIDUAL_KYC, customer.fullName).onCompletePacket;
  return lookupSuffix(BUSINESS_KYB, businessRegistration(customer)).decision;
}

/** On regulated or paperwork-skipping platforms, KYB 002 and "other" resolve at the first submission without a packet. */
function resolvesWithoutPacket(tenant: TenantContext, customer: CustomerRecord): boolean {
  if (customer.customerType !== 'BUSINESS') return false;
  const platformSkips = tenant.platform.regulated || tenant.platform.skipPaperwork;
  return platformSkips && lookupSuffix(BUSINESS_KYB, businessRegistration(customer)).skipsPacketWhenRegulated;
}

const businessRegistration = (customer: CustomerRecord) =>
  customer.customerType === 'BUSINESS' ? customer.businessInfo.registrationNumber : undefined;

/**
 * The identity document a 003 outcome reports as poor quality: the newest one, unless the customer remedied the last
 * report: replaced the document reported (another file or name) or uploaded another identity document since.
 */
function poorQualityDocument(tenant: TenantContext, customer: CustomerRecord, previous: VerificationRecord | undefined) {
  const identity = identityDocuments(tenant, customer.id);
  const flagged = previous?.poorQuality;
  if (flagged) {
    const document = identity.find((d) => d.id === flagged.documentId);
    const remedied = !document || versionOf(document) !== flagged.version || identity.some((d) => !flagged.identityDocumentIds.includes(d.id));
    if (remedied) return undefined;
    return document;
  }
  return identity[identity.length - 1];
}

const identityDocuments = (tenant: TenantContext, holderId: string) =>
  documentsHeldBy(tenant, holderId).filter((d) => (IDENTITY_DOCUMENT_TYPES as readonly string[]).includes(d.documentType));

/** What changes when a document is replaced: its content and its name. */
const versionOf = (document: { sha256?: string | undefined; fileName: string; sizeBytes: number }) =>
  `${document.sha256 ?? document.sizeBytes}:${document.fileName}`;

/** Documents become evidence of a submission: they can no longer be deleted (REFERENCE §5). */
function markSubmitted(tenant: TenantContext, customer: CustomerRecord) {
  const holders = [customer.id, ...ownersOf(tenant, customer.id).map((o) => o.id)];
  markDocumentsSubmitted(tenant, holders.flatMap((holder) => documentsHeldBy(tenant, holder).map((d) => d.id)));
}

/** The owner holding a document, when `resourceId` is one of the business's owners' documents. */
function documentsHeldByOwners(tenant: TenantContext, customerId: string, resourceId: string): string[] {
  return ownersOf(tenant, customerId)
    .filter((owner) => documentsHeldBy(tenant, owner.id).some((d) => d.id === resourceId))
    .map((owner) => owner.id);
}

/** The newest verification of a customer. */
/** The customer's verification still under review (IN_PROGRESS or PENDING_MANUAL_REVIEW), if there is one. */
export function reviewUnderWay(tenant: TenantContext, customerId: string): Pick<Verification, 'id' | 'verificationStatus'> | undefined {
  const latest = latestOf(tenant, customerId);
  return latest && (latest.verificationStatus === 'IN_PROGRESS' || latest.verificationStatus === 'PENDING_MANUAL_REVIEW') ? latest : undefined;
}

function latestOf(tenant: TenantContext, customerId: string): VerificationRecord | undefined {
  const mine = verifications(tenant).findBy('customerId', customerId);
  return mine[mine.length - 1];
}
