import { expect, it } from 'vitest';
import { APIError } from '@railyard/client';
import { runOnboarding } from '../examples/onboarding/onboarding.js';
import { describeOverTransports } from './support/transports.js';

// Onboarding over every transport: the end-to-end example, and bad uploads that must leave nothing behind.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describeOverTransports('onboarding', (scope) => {
  it('onboards an individual and a business end to end', async () => {
    const trace = await runOnboarding(scope.client, () => undefined);
    expect(trace).toContain('After review: verification APPROVED, customer APPROVED');
    expect(trace.at(-1)).toBe('After review: business APPROVED, owners Somerville APPROVED, Babbage APPROVED');
    const events = await scope.client.sandbox.events.list({ limit: 100 });
    expect(events.data.map((e) => e.type)).toEqual(expect.arrayContaining(['VERIFICATION.RESOLVE_ERRORS', 'CUSTOMER.KYC_APPROVED', 'CUSTOMER.KYB_APPROVED']));
  });

  it('refuses bad uploads with clear 4xx errors and stores nothing', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Una Uploader' });
    const passport = { fileName: 'passport.png', documentHolder: customer.id, documentType: 'PASSPORT' as const, country: 'US', documentNumber: 'P1', issuingAuthority: 'State' };
    const failures = [
      scope.client.documents.upload({ ...passport, file: new TextEncoder().encode('just text'), fileName: 'passport.txt' }),
      scope.client.documents.upload({ ...passport, file: new Uint8Array(10 * 1024 * 1024 + 1).fill(7, 8).map((b, i) => (i < 8 ? PNG[i]! : b)) }),
      scope.client.documents.upload({ file: PNG, fileName: 'passport.png', documentHolder: customer.id, documentType: 'PASSPORT' as const, country: 'US' }),
      scope.client.documents.upload({ ...passport, file: PNG, documentHolder: 'Customer:00000000-0000-4000-8000-000000000000' }),
      scope.client.documents.upload({ ...passport, file: PNG, fileName: 'passport_blurry.png' }),
    ];
    const errors = await Promise.all(failures.map((p) => p.then(() => undefined, (e: unknown) => e)));
    const statuses = errors.map((e) => (e instanceof APIError ? e.status : 'no error'));
    expect(statuses.every((s) => typeof s === 'number' && s >= 400 && s < 500)).toBe(true);
    expect(statuses[4]).toBe(422);
    const missing = errors[2] as APIError;
    expect(missing.fieldErrors.map((f) => f.field).sort()).toEqual(['documentNumber', 'issuingAuthority']);
    expect((await scope.client.documents.list({ documentHolder: customer.id })).totalCount).toBe(0);
  });
});
