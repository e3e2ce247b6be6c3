import {
  bytesToHex, DOCUMENT_MIME_TYPES, Document, DocumentReplaceFields, DocumentUploadFields, PROOF_OF_ADDRESS_DOCUMENT_TYPES,
  PROOF_OF_ADDRESS_MAX_AGE_MONTHS, Timestamp, idPattern,
  type DocumentListQuery, type DocumentMimeType, type FieldError, type Page, type VerificationErrorType,
} from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidInput, notFound } from '../core/errors.js';
import { dedupeFieldErrors, toFieldErrors, unknownFieldsOf } from '../core/field-errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { DOCUMENT_REJECTION_TRIGGERS, DOCUMENT_VERIFICATION_TRIGGERS, lookupFileMarker } from '../sandbox/magic-values.js';
import { checkDocumentFile, type DocumentForm } from './form.js';

// Documents (SPEC §2.7, §4.3; REFERENCE §5). Uploads are validated as a whole (every invalid field in one 400), then the
// sandbox triggers of the file name apply; a refused upload leaves no state. No events are emitted.

/** A verification error a document can be made to report (the values of DOCUMENT_VERIFICATION_TRIGGERS). */
export type DocumentOutcome = (typeof DOCUMENT_VERIFICATION_TRIGGERS)[keyof typeof DOCUMENT_VERIFICATION_TRIGGERS];

/** A stored document: the API Document plus internal fields. The file's bytes are not kept, only their digest. */
export type DocumentRecord = Document & {
  /** The content type, as sniffed from the file's bytes. */
  contentType: DocumentMimeType;
  sizeBytes: number;
  /** sha256 of the file, hex (absent where Web Crypto is not available). */
  sha256?: string;
  /** Set by a `_verify_*` file-name marker: the error a verification reports for this document until it is replaced. */
  sandboxOutcome?: DocumentOutcome;
  /** When a verification submission first included this document; it can no longer be deleted (replacing clears it). */
  submittedAt?: string;
};

/** The record schema, for snapshots. */
export const DocumentRecordSchema = Document.extend({
  contentType: z.enum(DOCUMENT_MIME_TYPES),
  sizeBytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  sandboxOutcome: z.enum(Object.values(DOCUMENT_VERIFICATION_TRIGGERS) as [DocumentOutcome, ...DocumentOutcome[]]).optional(),
  submittedAt: Timestamp.optional(),
});

const INTERNAL_FIELDS = ['contentType', 'sizeBytes', 'sha256', 'sandboxOutcome', 'submittedAt'] as const;

const documents = (tenant: TenantContext) => tenant.store.collection<DocumentRecord>('documents');

/** The document as the API returns it (internal fields removed). */
export function documentView(record: DocumentRecord): Document {
  const view: Record<string, unknown> = { ...record };
  for (const field of INTERNAL_FIELDS) delete view[field];
  return view as Document;
}

/** A document by id, or 404 REFERENCE_NOT_FOUND. */
export function findDocument(tenant: TenantContext, documentId: string): DocumentRecord {
  const record = documents(tenant).get(documentId);
  if (!record) throw notFound('Document', documentId);
  return record;
}

/** Every document of a customer or beneficial owner (through the `documentHolder` index), oldest first. */
export function documentsOfHolder(tenant: TenantContext, holderId: string): DocumentRecord[] {
  return documents(tenant).findBy('documentHolder', holderId).sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

/**
 * Marks documents as submitted for verification (the verification area calls this): from then on they cannot be
 * deleted (409), only replaced. Already submitted documents keep their first `submittedAt`. Unknown ids throw before
 * anything changes.
 */
export function markDocumentsSubmitted(tenant: TenantContext, ids: readonly string[]): void {
  const records = ids.map((id) => {
    const record = documents(tenant).get(id);
    if (!record) throw new Error(`markDocumentsSubmitted: unknown document ${id}`);
    return record;
  });
  const now = tenant.nowIso();
  for (const record of records) if (record.submittedAt === undefined) documents(tenant).replace({ ...record, submittedAt: now });
}

/** `POST /documents`. */
export async function uploadDocument(tenant: TenantContext, form: DocumentForm): Promise<Document> {
  const parsed = DocumentUploadFields.safeParse(form.fields, { reportInput: true });
  const errors = [
    ...form.problems, ...(parsed.success ? [] : toFieldErrors(parsed.error.issues)), ...strictFieldErrors(tenant, DocumentUploadFields, form.fields),
    ...holderErrors(tenant, form.fields.documentHolder),
  ];
  const file = checkedFile(tenant, form, errors);
  if (!parsed.success || file === undefined) throw invalidInput(dedupeFieldErrors(errors));
  assertHolderExists(tenant, parsed.data.documentHolder);
  rejectByTrigger(file.name);
  const outcome = sandboxOutcomeOf(file.name);
  const sha256 = await digest(file.bytes);

  const now = tenant.nowIso();
  const { documentHolder, ...fields } = parsed.data;
  const record: DocumentRecord = definedOnly({
    id: tenant.ids('Document'),
    documentHolder,
    ...fields,
    fileName: file.name,
    createdAt: now,
    updatedAt: now,
    contentType: file.contentType,
    sizeBytes: file.bytes.byteLength,
    ...(sha256 === undefined ? {} : { sha256 }),
    ...(outcome === undefined ? {} : { sandboxOutcome: outcome }),
  });
  documents(tenant).insert(record);
  return documentView(record);
}

/**
 * `PUT /documents/{id}`: a new file and new fields for the same holder. The document is new evidence: `submittedAt`
 * is cleared, and so is `sandboxOutcome` unless the new file name carries a marker of its own.
 */
export async function replaceDocument(tenant: TenantContext, documentId: string, form: DocumentForm): Promise<Document> {
  findDocument(tenant, documentId);
  const parsed = DocumentReplaceFields.safeParse(form.fields, { reportInput: true });
  const errors = [...form.problems, ...(parsed.success ? [] : toFieldErrors(parsed.error.issues)), ...strictFieldErrors(tenant, DocumentReplaceFields, form.fields)];
  const file = checkedFile(tenant, form, errors);
  if (!parsed.success || file === undefined) throw invalidInput(dedupeFieldErrors(errors));
  rejectByTrigger(file.name);
  const outcome = sandboxOutcomeOf(file.name);
  const sha256 = await digest(file.bytes);

  const existing = findDocument(tenant, documentId); // again: it may have gone while the digest was computed
  const record: DocumentRecord = definedOnly({
    id: existing.id,
    documentHolder: existing.documentHolder,
    ...parsed.data,
    fileName: file.name,
    createdAt: existing.createdAt,
    updatedAt: tenant.nowIso(),
    contentType: file.contentType,
    sizeBytes: file.bytes.byteLength,
    ...(sha256 === undefined ? {} : { sha256 }),
    ...(outcome === undefined ? {} : { sandboxOutcome: outcome }),
  });
  documents(tenant).replace(record);
  return documentView(record);
}

/** `GET /documents/{id}`. */
export const retrieveDocument = (tenant: TenantContext, documentId: string): Document => documentView(findDocument(tenant, documentId));

/** `GET /documents`, newest first, optionally of one holder. */
export function listDocuments(tenant: TenantContext, query: z.output<typeof DocumentListQuery>): Page<Document> {
  return listPage(documents(tenant), query, { where: definedOnly({ documentHolder: query.documentHolder }) }, documentView);
}

/** `DELETE /documents/{id}`: 409 CONFLICT once the document was submitted for verification (REFERENCE §5). */
export function deleteDocument(tenant: TenantContext, documentId: string): void {
  const record = findDocument(tenant, documentId);
  if (record.submittedAt !== undefined) {
    throw conflict(`Document ${documentId} was submitted for verification at ${record.submittedAt} and cannot be deleted; upload a replacement with PUT /documents/${documentId}`);
  }
  documents(tenant).delete(documentId);
}

// ---------------------------------------------------------------------------------------------------------------------

/**
 * The file checks beside the schema, added to `errors`; the file with its sniffed type when everything is valid. The
 * caller then applies the file name's rejection triggers (their own status and code), once the request is otherwise
 * acceptable.
 */
function checkedFile(tenant: TenantContext, form: DocumentForm, errors: FieldError[]) {
  const { contentType, errors: fileErrors } = checkDocumentFile(form.file);
  errors.push(...fileErrors);
  if (errors.length > 0 || contentType === undefined || form.file === undefined) return undefined;
  return { ...form.file, contentType };
}

/** Form fields the upload does not know: ignored, or listed for a platform in strict mode. */
const strictFieldErrors = (tenant: TenantContext, schema: z.ZodType, fields: Record<string, string>): FieldError[] =>
  tenant.platform.strict ? unknownFieldsOf(schema, fields).errors : [];

const CUSTOMER_ID = idPattern('Customer');
const OWNER_ID = idPattern('BeneficialOwner');

/**
 * `documentHolder` must be a customer or beneficial owner of this platform (each platform's state is separate, so
 * another platform's holder is unknown here). A deleted customer is a 400 field error, listed with the others: it
 * exists, and the upload documents no 410.
 */
function holderErrors(tenant: TenantContext, holder: string | undefined): FieldError[] {
  if (holder === undefined || !CUSTOMER_ID.test(holder)) return [];
  const customer = tenant.store.collection<{ id: string; isDeleted?: boolean }>('customers').get(holder);
  return customer?.isDeleted ? [{ field: 'documentHolder', message: `customer ${holder} was deleted` }] : [];
}

/**
 * A holder that does not exist is 404, as the reference documents for the upload ("Document holder not found"):
 * USER_NOT_FOUND for a customer, REFERENCE_NOT_FOUND for an owner (the listed code of a resource without one of its
 * own). Checked once the form is valid, so a malformed request still gets the 400 that lists every field.
 */
function assertHolderExists(tenant: TenantContext, holder: string): void {
  if (CUSTOMER_ID.test(holder) && !tenant.store.collection('customers').get(holder)) {
    throw new ApiError(404, 'USER_NOT_FOUND', `Document holder not found: this platform has no customer ${holder}`);
  }
  if (OWNER_ID.test(holder) && !tenant.store.collection('beneficialOwners').get(holder)) {
    throw new ApiError(404, 'REFERENCE_NOT_FOUND', `Document holder not found: this platform has no beneficial owner ${holder}`);
  }
}

/**
 * What review finds wrong with a document, if anything: its sandbox marker (see magic-values.ts), else its date. A
 * proof of address must be dated within the last 3 months (SPEC §2.7): one whose `issuedOn` is older is
 * EXPIRED_DOCUMENT, and any document dated after today is INVALID_DOCUMENT. A document without `issuedOn` is current.
 */
export function reviewOutcomeOf(record: DocumentRecord, now: number): VerificationErrorType | undefined {
  if (record.sandboxOutcome !== undefined) return record.sandboxOutcome;
  if (record.issuedOn === undefined) return undefined;
  const today = new Date(now).toISOString().slice(0, 10);
  if (record.issuedOn > today) return 'INVALID_DOCUMENT';
  const proofOfAddress = (PROOF_OF_ADDRESS_DOCUMENT_TYPES as readonly string[]).includes(record.documentType);
  return proofOfAddress && record.issuedOn < monthsBefore(today, PROOF_OF_ADDRESS_MAX_AGE_MONTHS) ? 'EXPIRED_DOCUMENT' : undefined;
}

/** The date `months` calendar months before `date` (YYYY-MM-DD), clamped to the end of a shorter month. */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = index - year * 12; // 0-based
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** Refuses an upload whose file name carries a rejection marker (sandbox, see magic-values.ts). */
function rejectByTrigger(fileName: string) {
  const hit = lookupFileMarker(DOCUMENT_REJECTION_TRIGGERS, fileName);
  if (!hit) return;
  const { status, code, reason } = hit.value;
  const details = { reason, fileName, sandboxTrigger: hit.marker };
  if (status === 422) throw new ApiError(422, code, `The document was rejected: ${reason}`, details);
  throw new ApiError(400, code, `The document was rejected: ${reason}`, details);
}

/** The verification outcome a file name's `_verify_*` marker asks for, if any. */
const sandboxOutcomeOf = (fileName: string): DocumentOutcome | undefined => lookupFileMarker(DOCUMENT_VERIFICATION_TRIGGERS, fileName)?.value;

async function digest(bytes: Uint8Array): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const hash = new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return bytesToHex(hash);
}
