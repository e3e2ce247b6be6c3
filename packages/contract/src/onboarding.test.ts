import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ACCEPTED_DOCUMENT_TYPES, BeneficialOwner, BeneficialOwnerCreateRequest, BeneficialOwnerUpdateRequest, DocumentReplaceFields,
  DocumentUploadFields, DocumentUploadRequest, PROOF_OF_ADDRESS_DOCUMENT_TYPES, Verification, VerificationStatus, documentEndpoints,
} from './onboarding.js';
import { buildOpenApiDocument } from './openapi.js';

const customerId = 'Customer:11111111-2222-4333-8444-555555555555';
const paths = (result: { error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join('.')).sort();

describe('verification', () => {
  it('tabulates acceptedDocumentTypes of REFERENCE §5', () => {
    expect(ACCEPTED_DOCUMENT_TYPES.MISSING_IDENTITY_DOCUMENT).toEqual(['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID']);
    expect(ACCEPTED_DOCUMENT_TYPES.MISSING_OWNERSHIP_STRUCTURE_DOCUMENT).toEqual(['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT']);
    expect(VerificationStatus.options).toContain('READY_FOR_VERIFICATION');
  });

  it('parses a RESOLVE_ERRORS verification with a document error', () => {
    const verification = {
      id: 'Verification:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', customerId, verificationStatus: 'RESOLVE_ERRORS', createdAt: '2025-10-13T00:00:00Z',
      errors: [{ resourceId: customerId, type: 'MISSING_IDENTITY_DOCUMENT', acceptedDocumentTypes: ACCEPTED_DOCUMENT_TYPES.MISSING_IDENTITY_DOCUMENT, reason: 'Upload an ID' }],
    };
    expect(Verification.safeParse(verification).success).toBe(true);
    expect(paths(Verification.safeParse({ ...verification, errors: [{ resourceId: customerId, type: 'MISSING_SELFIE', reason: 'x' }] }))).toEqual(['errors.0.type']);
  });
});

describe('beneficial owners', () => {
  const personalInfo = {
    firstName: 'Grace', lastName: 'Hopper', birthDate: '1906-12-09', nationality: 'US', idType: 'SSN', identifier: '123-45-6789',
    address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
  };

  it('requires the personal info of REFERENCE §5 and a percentage from 0 to 100, fractions included (SPEC §2.7: a number)', () => {
    expect(BeneficialOwnerCreateRequest.safeParse({ customerId, roles: ['UBO'], ownershipPercentage: 30, personalInfo }).success).toBe(true);
    expect(BeneficialOwnerCreateRequest.safeParse({ customerId, roles: ['UBO'], ownershipPercentage: 24.5, personalInfo }).data?.ownershipPercentage).toBe(24.5);
    const { address: _a, birthDate: _b, ...partial } = personalInfo;
    expect(paths(BeneficialOwnerCreateRequest.safeParse({ customerId, roles: [], ownershipPercentage: 100.5, personalInfo: { ...partial, identifier: '12-345' } })))
      .toEqual(['ownershipPercentage', 'personalInfo.address', 'personalInfo.birthDate', 'personalInfo.identifier', 'roles']);
  });

  it('patches any subset but not the customer', () => {
    expect(BeneficialOwnerUpdateRequest.safeParse({ personalInfo: { lastName: 'Hopper-002' } }).success).toBe(true);
    // The owning customer cannot change: a customerId sent along is ignored.
    expect(BeneficialOwnerUpdateRequest.safeParse({ customerId }).data).toEqual({});
  });

  it('returns owners with a kycStatus', () => {
    const owner = { id: 'BeneficialOwner:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', customerId, roles: ['DIRECTOR'], ownershipPercentage: 0, personalInfo, kycStatus: 'PENDING', createdAt: '2025-10-13T00:00:00Z' };
    expect(BeneficialOwner.parse(owner).kycStatus).toBe('PENDING');
  });
});

describe('document upload', () => {
  const file = (type = 'image/png', size = 10) => new File([new Uint8Array(size)], 'id.png', { type });
  const upload = { documentHolder: customerId, documentType: 'PASSPORT', country: 'US', documentNumber: 'X123', issuingAuthority: 'US DoS' };

  it('accepts a passport and requires number and authority for identity documents', () => {
    expect(DocumentUploadRequest.safeParse({ ...upload, file: file() }).success).toBe(true);
    // side is optional (verification asks for a missing side), so only the SPEC §2.7 requirements are left.
    expect(paths(DocumentUploadRequest.safeParse({ documentHolder: customerId, documentType: 'NATIONAL_ID', country: 'US', file: file() })))
      .toEqual(['documentNumber', 'issuingAuthority']);
    expect(DocumentUploadRequest.safeParse({ documentHolder: customerId, documentType: 'UTILITY_BILL', country: 'US', issuedOn: '2026-05-01', file: file('application/pdf') }).success).toBe(true);
  });

  it('takes a side on a passport, and proof of address without issuedOn (neither SPEC nor the reference requires it)', () => {
    expect(DocumentUploadRequest.safeParse({ ...upload, side: 'FRONT', file: file() }).data?.side).toBe('FRONT');
    for (const documentType of PROOF_OF_ADDRESS_DOCUMENT_TYPES) {
      expect(DocumentUploadRequest.safeParse({ documentHolder: customerId, documentType, country: 'US', file: file('application/pdf') }).success, documentType).toBe(true);
    }
    expect(paths(DocumentUploadRequest.safeParse({ ...upload, issuedOn: '2026-13-01', file: file() }))).toEqual(['issuedOn']);
  });

  it('reports a body that is not an object instead of throwing', () => {
    for (const schema of [DocumentUploadRequest, DocumentUploadFields, DocumentReplaceFields]) {
      for (const value of [null, undefined, 'x', 1]) expect(paths(schema.safeParse(value))).toEqual(['']);
    }
  });

  it('validates the text fields apart from the file, and a replacement without the holder', () => {
    expect(DocumentUploadFields.safeParse(upload).success).toBe(true);
    expect(DocumentUploadFields.safeParse({ ...upload, file: 'x' }).data).toEqual(upload); // the file is a part of its own
    const { documentHolder: _holder, ...replacement } = upload;
    expect(DocumentReplaceFields.safeParse(replacement).success).toBe(true);
    // The holder of a document never changes: a documentHolder on a replacement is ignored.
    expect(DocumentReplaceFields.safeParse(upload).data).toEqual(replacement);
  });

  it('declares the five document endpoints, uploads as multipart', () => {
    expect(Object.values(documentEndpoints).map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /documents', 'GET /documents', 'GET /documents/{documentId}', 'PUT /documents/{documentId}', 'DELETE /documents/{documentId}',
    ]);
    expect(documentEndpoints.uploadDocument).toMatchObject({ multipart: true, response: { status: 201 } });
    expect(documentEndpoints.replaceDocument).toMatchObject({ multipart: true, response: { status: 200 } });
    expect(documentEndpoints.deleteDocument.response.status).toBe(204);
    const openapi = buildOpenApiDocument(documentEndpoints) as any;
    const form = openapi.paths['/documents'].post.requestBody.content['multipart/form-data'].schema;
    expect(form).toEqual({ $ref: '#/components/schemas/DocumentUploadRequest' });
    expect(openapi.components.schemas.DocumentUploadRequest.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(openapi.paths['/documents/{documentId}'].put.requestBody.content['multipart/form-data']).toBeDefined();
    expect(openapi.paths['/documents/{documentId}'].delete.responses).toHaveProperty('409');
  });

  it('limits files to PDF, JPEG or PNG of at most 10 MB', () => {
    expect(paths(DocumentUploadRequest.safeParse({ ...upload, file: file('image/gif') }))).toEqual(['file']);
    expect(paths(DocumentUploadRequest.safeParse({ ...upload, file: file('image/png', 10 * 1024 * 1024 + 1) }))).toEqual(['file']);
    const { $defs } = z.toJSONSchema(DocumentUploadRequest, { io: 'input', unrepresentable: 'any' }) as { $defs: Record<string, any> };
    expect($defs.DocumentUploadRequest.properties.file).toMatchObject({ type: 'string', format: 'binary', maxLength: 10 * 1024 * 1024 });
    expect($defs.DocumentUploadRequest.required).toEqual(['file', 'documentType', 'country', 'documentHolder']);
  });
});
