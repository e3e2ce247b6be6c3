import { z } from 'zod';
import {
  Address, CountryCode, Email, IdParam, IdentificationType, IsoDate, MAX_LENGTH, SSN_PATTERN, Timestamp, cappedString, onEveryObject,
  resourceId,
} from './common.js';
import { anyResourceId } from './accounts.js';
import { CustomerId, ITIN_PATTERN, VerificationState } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, pageOf } from './pagination.js';

// ---------------------------------------------------------------------------------------------------------------------
// Documents (SPEC §2.7, REFERENCE §5)

/** Every document type the service accepts. */
export const DOCUMENT_TYPES = [
  'PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID', 'PROOF_OF_ADDRESS', 'BANK_STATEMENT', 'TAX_RETURN', 'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT', 'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT', 'INCUMBENCY_CERTIFICATE', 'BUSINESS_LICENSE', 'SHAREHOLDER_REGISTER', 'POWER_OF_ATTORNEY', 'UTILITY_BILL',
  'ELECTRICITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'DIRECTOR_REGISTRY', 'TRUST_AGREEMENT', 'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT', 'PARTNERSHIP_AGREEMENT', 'SELFIE', 'OTHER',
] as const;
export const DocumentType = z.enum(DOCUMENT_TYPES).meta({ id: 'DocumentType' });
export type DocumentType = z.infer<typeof DocumentType>;

/** Identity documents: `documentNumber` and `issuingAuthority` are required. */
export const IDENTITY_DOCUMENT_TYPES = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] as const satisfies readonly DocumentType[];
/**
 * Documents with two sides (`side` FRONT or BACK); a passport is a single image. `side` is optional on upload:
 * verification asks for the missing side of a two-sided document (INCOMPLETE_DOCUMENT).
 */
export const TWO_SIDED_DOCUMENT_TYPES = ['DRIVERS_LICENSE', 'NATIONAL_ID'] as const satisfies readonly DocumentType[];
/**
 * Proof-of-address documents, which must be dated within the last {@link PROOF_OF_ADDRESS_MAX_AGE_MONTHS} months
 *. The service reads the date off the document; the sandbox takes it from the optional `issuedOn` field
 * (Railyard's), and reports an older one as EXPIRED_DOCUMENT at verification. Without `issuedOn` a document is current.
 * The generic PROOF_OF_ADDRESS type counts too.
 */
export const PROOF_OF_ADDRESS_DOCUMENT_TYPES = [
  'UTILITY_BILL', 'ELECTRICITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'BANK_STATEMENT', 'TAX_RETURN', 'PROOF_OF_ADDRESS',
] as const satisfies readonly DocumentType[];
/** How old a proof of address may be, in calendar months. */
export const PROOF_OF_ADDRESS_MAX_AGE_MONTHS = 3;

export const DocumentSide = z.enum(['FRONT', 'BACK']).meta({ id: 'DocumentSide' });
export type DocumentSide = z.infer<typeof DocumentSide>;

/** Upload limits. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Largest upload body read: the 10 MB file plus 1 MiB for the text fields and the multipart envelope. */
export const DOCUMENT_FORM_MAX_BYTES = DOCUMENT_MAX_BYTES + 1024 * 1024;
export const DOCUMENT_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentMimeType = (typeof DOCUMENT_MIME_TYPES)[number];

export const DocumentId = resourceId('Document').meta({ id: 'DocumentId' });
export const BeneficialOwnerId = resourceId('BeneficialOwner').meta({ id: 'BeneficialOwnerId' });

/** A document holder: the customer or one of its beneficial owners. */
const DocumentHolder = anyResourceId('Customer', 'BeneficialOwner');

/** An uploaded identity or business document (the file itself is never returned). */
export const Document = z
  .object({
    id: DocumentId,
    documentHolder: z.string(),
    documentType: DocumentType,
    country: CountryCode,
    fileName: z.string(),
    side: DocumentSide.optional(),
    documentNumber: z.string().optional(),
    issuingAuthority: z.string().optional(),
    /** Railyard: the date the document was issued, when the upload gave one (see PROOF_OF_ADDRESS_DOCUMENT_TYPES). */
    issuedOn: IsoDate.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp.optional(),
  })
  .meta({ id: 'Document' });
export type Document = z.infer<typeof Document>;

type Ctx = z.core.$RefinementCtx;
const includes = (list: readonly string[], value: unknown) => typeof value === 'string' && list.includes(value);

/**
 * The one cross-field rule of an upload: identity documents need a number and an issuing authority. `side`
 * and `issuedOn` are optional everywhere (a `side` on a passport is kept and means nothing).
 */
function checkDocumentFields(value: Record<string, unknown>, ctx: Ctx) {
  if (value === null || typeof value !== 'object') return; // the object schema reports it (refinements run regardless)
  const type = value.documentType;
  if (includes(IDENTITY_DOCUMENT_TYPES, type)) {
    for (const field of ['documentNumber', 'issuingAuthority']) {
      if (value[field] === undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `is required for identity documents (${String(type)})`, params: { constraint: { required: true } } });
      }
    }
  }
}

/** The file part: PDF, JPEG or PNG, at most 10 MB (the engine also checks the content, not only the declared type). */
const DocumentFile = z.file().max(DOCUMENT_MAX_BYTES, { message: 'must be at most 10 MB' }).mime([...DOCUMENT_MIME_TYPES]);

/** The text fields of an upload or replacement. */
const documentTextFields = {
  documentType: DocumentType,
  country: CountryCode,
  side: DocumentSide.optional(),
  documentNumber: cappedString(MAX_LENGTH.id).min(1).optional(),
  issuingAuthority: cappedString(MAX_LENGTH.name).min(1).optional(),
  /** Railyard: the date on the document; a proof of address older than 3 months is reported at verification. */
  issuedOn: IsoDate.optional(),
};

/** The text fields of `POST /documents` (the form without its `file` part): what the engine validates them with. */
export const DocumentUploadFields = z
  .object({ ...documentTextFields, documentHolder: DocumentHolder })
  .superRefine((value, ctx) => checkDocumentFields(value as Record<string, unknown>, ctx), onEveryObject);

/** The text fields of `PUT /documents/{id}`: those of an upload minus `documentHolder`. */
export const DocumentReplaceFields = z
  .object(documentTextFields)
  .superRefine((value, ctx) => checkDocumentFields(value as Record<string, unknown>, ctx), onEveryObject);

/** `POST /documents` (multipart/form-data): the `file` part (PDF, JPEG or PNG, at most 10 MB) and the text fields. */
export const DocumentUploadRequest = z
  .object({ file: DocumentFile, ...documentTextFields, documentHolder: DocumentHolder })
  .superRefine((value, ctx) => checkDocumentFields(value as Record<string, unknown>, ctx), onEveryObject)
  .meta({ id: 'DocumentUploadRequest' });
export type DocumentUploadRequest = z.input<typeof DocumentUploadRequest>;

/** `PUT /documents/{id}` (multipart/form-data): replaces the file and its fields; the holder stays. */
export const DocumentReplaceRequest = z
  .object({ file: DocumentFile, ...documentTextFields })
  .superRefine((value, ctx) => checkDocumentFields(value as Record<string, unknown>, ctx), onEveryObject)
  .meta({ id: 'DocumentReplaceRequest' });
export type DocumentReplaceRequest = z.input<typeof DocumentReplaceRequest>;

/** `GET /documents` query: optionally one holder's documents. */
export const DocumentListQuery = PageQuery.extend({ documentHolder: IdParam.optional() });
export type DocumentListQuery = z.input<typeof DocumentListQuery>;

export const DocumentPath = z.object({ documentId: IdParam });

const documentsTag = 'Documents';
/**
 * Document endpoints. Uploads are multipart/form-data: `body` documents the form, and the
 * documents area parses and validates it (the HTTP layer reads the bounded body, for idempotency, but parses JSON only).
 */
export const documentEndpoints = {
  uploadDocument: defineEndpoint({
    operationId: 'uploadDocument', method: 'POST', path: '/documents', tag: documentsTag,
    summary: 'Upload a document for a customer or beneficial owner (multipart/form-data)',
    description:
      'PDF, JPEG or PNG, at most 10 MB, checked by content. Identity documents need documentNumber and issuingAuthority. ' +
      'DRIVERS_LICENSE and NATIONAL_ID take a side (FRONT or BACK); verification asks for a missing one. A proof of address ' +
      'may carry issuedOn (Railyard); verification reports one older than 3 months as EXPIRED_DOCUMENT. ' +
      'A photo that fails the corner, focus or color check is 422 DOCUMENT_REJECTED.',
    body: DocumentUploadRequest, multipart: true, maxBodyBytes: DOCUMENT_FORM_MAX_BYTES,
    response: { status: 201, description: 'The stored document', schema: Document },
    errors: [422],
  }),
  listDocuments: defineEndpoint({
    operationId: 'listDocuments', method: 'GET', path: '/documents', tag: documentsTag,
    summary: 'List documents, optionally of one holder', query: DocumentListQuery,
    response: { status: 200, description: 'A page of documents, newest first', schema: pageOf(Document) },
  }),
  getDocument: defineEndpoint({
    operationId: 'getDocument', method: 'GET', path: '/documents/{documentId}', tag: documentsTag,
    summary: 'Retrieve a document', params: DocumentPath,
    response: { status: 200, description: 'The document', schema: Document },
  }),
  replaceDocument: defineEndpoint({
    operationId: 'replaceDocument', method: 'PUT', path: '/documents/{documentId}', tag: documentsTag,
    summary: 'Replace a document\'s file and fields (multipart/form-data); the holder stays', params: DocumentPath,
    body: DocumentReplaceRequest, multipart: true, maxBodyBytes: DOCUMENT_FORM_MAX_BYTES,
    response: { status: 200, description: 'The replaced document', schema: Document },
    errors: [422],
  }),
  deleteDocument: defineEndpoint({
    operationId: 'deleteDocument', method: 'DELETE', path: '/documents/{documentId}', tag: documentsTag,
    summary: 'Delete a document that was not yet submitted for verification', params: DocumentPath,
    response: { status: 204, description: 'Deleted' },
    errors: [409],
  }),
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Verification (SPEC §2.7, §3.3; REFERENCE §5)

/** Verification states; READY_FOR_VERIFICATION exists in the enum without a documented trigger. */
export const VerificationStatus = z
  .enum(['RESOLVE_ERRORS', 'READY_FOR_VERIFICATION', 'IN_PROGRESS', 'PENDING_MANUAL_REVIEW', 'APPROVED', 'REJECTED'])
  .meta({ id: 'VerificationStatus' });
export type VerificationStatus = z.infer<typeof VerificationStatus>;

/** Every verification error type. */
export const VERIFICATION_ERROR_TYPES = [
  'MISSING_FIELD', 'INVALID_FIELD', 'MISSING_LEGAL_PRESENCE_DOCUMENT', 'MISSING_CONTROL_STRUCTURE_DOCUMENT',
  'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', 'MISSING_IDENTITY_DOCUMENT', 'MISSING_GOOD_STANDING_DOCUMENT',
  'INVALID_DOCUMENT', 'EXPIRED_DOCUMENT', 'POOR_QUALITY_DOCUMENT', 'UNREADABLE_DOCUMENT', 'INCOMPLETE_DOCUMENT', 'WRONG_DOCUMENT_TYPE',
  'DOCUMENT_VERIFICATION_FAILED', 'MISSING_BENEFICIAL_OWNER', 'MISSING_CONTROL_PERSON', 'SUSPECTED_FRAUD_DOCUMENT',
  'APPLICANT_SANCTIONED', 'APPLICANT_FRAUD', 'APPLICANT_CRIMINAL_RECORD', 'APPLICANT_REJECTED',
] as const;
export const VerificationErrorType = z.enum(VERIFICATION_ERROR_TYPES).meta({ id: 'VerificationErrorType' });
export type VerificationErrorType = z.infer<typeof VerificationErrorType>;

/**
 * The documents that clear each missing-document error. INVALID_DOCUMENT and EXPIRED_DOCUMENT carry
 * the list of the document they replace.
 */
export const ACCEPTED_DOCUMENT_TYPES = {
  MISSING_LEGAL_PRESENCE_DOCUMENT: ['CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT'],
  MISSING_CONTROL_STRUCTURE_DOCUMENT: ['DIRECTOR_REGISTRY', 'TRUST_AGREEMENT', 'STATE_COMPANY_REGISTRY', 'PARTNERSHIP_CONTROL_AGREEMENT'],
  MISSING_OWNERSHIP_STRUCTURE_DOCUMENT: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
  MISSING_PROOF_OF_ADDRESS_DOCUMENT: ['UTILITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'ELECTRICITY_BILL', 'BANK_STATEMENT', 'TAX_RETURN'],
  MISSING_IDENTITY_DOCUMENT: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
  // Railyard: REFERENCE §5 has no row for this error; the one document type that names good standing.
  MISSING_GOOD_STANDING_DOCUMENT: ['GOOD_STANDING_CERTIFICATE'],
} as const satisfies Partial<Record<VerificationErrorType, readonly DocumentType[]>>;

/** Errors that resubmitting cannot clear: terminal compliance outcomes. */
export const TERMINAL_VERIFICATION_ERROR_TYPES = [
  'SUSPECTED_FRAUD_DOCUMENT', 'APPLICANT_SANCTIONED', 'APPLICANT_FRAUD', 'APPLICANT_CRIMINAL_RECORD', 'APPLICANT_REJECTED',
] as const satisfies readonly VerificationErrorType[];

/** One problem blocking a verification, naming the resource to fix. */
export const VerificationError = z
  .object({
    /** Customer, BeneficialOwner or Document id. */
    resourceId: z.string(),
    type: VerificationErrorType,
    /** Dot path, for MISSING_FIELD and INVALID_FIELD. */
    field: z.string().optional(),
    acceptedDocumentTypes: z.array(DocumentType).optional(),
    reason: z.string(),
  })
  .meta({ id: 'VerificationError' });
export type VerificationError = z.infer<typeof VerificationError>;

/** A KYC/KYB submission and its outcome; `errors` is empty when APPROVED or IN_PROGRESS. */
export const Verification = z
  .object({
    id: resourceId('Verification'),
    customerId: CustomerId,
    verificationStatus: VerificationStatus,
    errors: z.array(VerificationError),
    createdAt: Timestamp,
    updatedAt: Timestamp.optional(),
  })
  .meta({ id: 'Verification' });
export type Verification = z.infer<typeof Verification>;

/** `POST /verifications` body. */
export const VerificationCreateRequest = z.object({ customerId: CustomerId }).meta({ id: 'VerificationCreateRequest' });
export type VerificationCreateRequest = z.input<typeof VerificationCreateRequest>;

/** `GET /verifications` query. */
export const VerificationListQuery = PageQuery.extend({
  customerId: IdParam.optional(),
  verificationStatus: VerificationStatus.optional(),
});

// ---------------------------------------------------------------------------------------------------------------------
// Beneficial owners (SPEC §2.7, REFERENCE §5)

export const BeneficialOwnerRole = z
  .enum(['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER'])
  .meta({ id: 'BeneficialOwnerRole' });
export type BeneficialOwnerRole = z.infer<typeof BeneficialOwnerRole>;

/** Owners at or above this percentage must be registered (plus one control person). */
export const BENEFICIAL_OWNER_THRESHOLD_PERCENT = 25;

const name = cappedString(MAX_LENGTH.name).trim().min(1);
const personalInfoFields = {
  firstName: name,
  middleName: name.optional(),
  lastName: name,
  birthDate: IsoDate,
  nationality: CountryCode,
  email: Email.optional(),
  phoneNumber: cappedString(MAX_LENGTH.id).min(1).optional(),
  address: Address,
  idType: IdentificationType,
  identifier: cappedString(MAX_LENGTH.id).min(1),
  countryOfIssuance: CountryCode.optional(),
};

/** SSN and ITIN identifiers must match their US formats. */
function checkIdentifier(value: Record<string, unknown>, ctx: Ctx) {
  if (value === null || typeof value !== 'object') return; // the type error is reported by the object check
  const { idType, identifier } = value;
  if (typeof identifier !== 'string') return;
  const pattern = idType === 'SSN' ? SSN_PATTERN : idType === 'ITIN' ? ITIN_PATTERN : undefined;
  if (pattern && !pattern.test(identifier)) {
    ctx.addIssue({
      code: 'custom', path: ['identifier'], message: `identifier is not a valid ${String(idType)}`,
      params: { constraint: idType === 'SSN' ? { format: 'us-ssn', pattern: pattern.source } : { pattern: pattern.source } },
    });
  }
}

/** personalInfo on create: name, birth date, nationality, address and identification are required. */
export const PersonalInfoCreate = z
  .object(personalInfoFields)
  .superRefine((value, ctx) => checkIdentifier(value as Record<string, unknown>, ctx), onEveryObject)
  .meta({ id: 'PersonalInfoCreate' });
/** personalInfo on PATCH: any subset. */
export const PersonalInfoUpdate = z
  .object(personalInfoFields)
  .partial()
  .superRefine((value, ctx) => checkIdentifier(value as Record<string, unknown>, ctx), onEveryObject)
  .meta({ id: 'PersonalInfoUpdate' });
/** personalInfo in responses: everything the owner was registered with, `identifier` included. */
export const PersonalInfo = z
  .object(personalInfoFields)
  .partial()
  .required({ firstName: true, lastName: true })
  .meta({ id: 'PersonalInfo' });
export type PersonalInfo = z.infer<typeof PersonalInfo>;

const ownerFields = {
  customerId: CustomerId,
  roles: z.array(BeneficialOwnerRole).min(1),
  /** A number, so a share such as 24.5 is kept as it is. */
  ownershipPercentage: z.number().min(0).max(100),
};

/** `POST /beneficial-owners`. */
export const BeneficialOwnerCreateRequest = z
  .object({ ...ownerFields, personalInfo: PersonalInfoCreate })
  .meta({ id: 'BeneficialOwnerCreateRequest' });
export type BeneficialOwnerCreateRequest = z.input<typeof BeneficialOwnerCreateRequest>;

/** `PATCH /beneficial-owners/{id}`: any subset; the owning customer cannot change. */
export const BeneficialOwnerUpdateRequest = z
  .object({ roles: ownerFields.roles, ownershipPercentage: ownerFields.ownershipPercentage, personalInfo: PersonalInfoUpdate })
  .partial()
  .meta({ id: 'BeneficialOwnerUpdateRequest' });
export type BeneficialOwnerUpdateRequest = z.input<typeof BeneficialOwnerUpdateRequest>;

/** A person who owns or controls a business customer, with their own KYC status. */
export const BeneficialOwner = z
  .object({
    id: BeneficialOwnerId,
    ...ownerFields,
    personalInfo: PersonalInfo,
    kycStatus: VerificationState,
    createdAt: Timestamp,
    updatedAt: Timestamp.optional(),
  })
  .meta({ id: 'BeneficialOwner' });
export type BeneficialOwner = z.infer<typeof BeneficialOwner>;

/** `GET /beneficial-owners` query: `customerId` is required. */
export const BeneficialOwnerListQuery = PageQuery.extend({ customerId: IdParam });
