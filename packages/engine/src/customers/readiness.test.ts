import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TenantContext } from '../core/context.js';
import type { CustomerRecord } from './customers.js';
import { APPROVAL_DOCS_URL, userNotReady } from './readiness.js';

// The 403 that stops an unapproved customer's money names the sandbox's way to approval for its status and platform.

const tenantOn = (platform: { regulated?: boolean; skipPaperwork?: boolean } = {}) =>
  ({ platform: { regulated: false, skipPaperwork: false, ...platform } }) as unknown as TenantContext;
const individual = { id: 'Customer:00000000-0000-4000-8000-000000000001', customerType: 'INDIVIDUAL' } as CustomerRecord;
const business = { id: 'Customer:00000000-0000-4000-8000-000000000002', customerType: 'BUSINESS' } as CustomerRecord;

describe('userNotReady', () => {
  it('keeps the rule and names both ways out for an UNVERIFIED individual on an unregulated platform', () => {
    const error = userNotReady(tenantOn(), individual, 'UNVERIFIED', undefined);
    expect(error).toMatchObject({ status: 403, code: 'USER_NOT_READY' });
    expect(error.message).toMatch(new RegExp(`^Customer ${individual.id} is UNVERIFIED: money moves only for KYC-approved customers\\. `));
    expect(error.message).toContain('submit a complete packet with POST /verifications');
    expect(error.message).toContain('regulated: true or skipPaperwork: true (POST /_sandbox/platforms');
    expect(error.message).toContain('individuals are approved at creation');
    expect(error.details).toEqual({ customerId: individual.id, status: 'UNVERIFIED', docs: APPROVAL_DOCS_URL });
  });

  it('tells a business what the first submission does on a regulated platform', () => {
    const error = userNotReady(tenantOn(), business, 'UNVERIFIED', undefined);
    expect(error.message).toContain('KYB-approved');
    expect(error.message).toContain('the first POST /verifications approves most businesses without a packet');
  });

  it('does not suggest the platform options on a platform that already has them', () => {
    for (const platform of [{ regulated: true }, { skipPaperwork: true }]) {
      const { message } = userNotReady(tenantOn(platform), individual, 'UNVERIFIED', undefined);
      expect(message).toContain('POST /verifications');
      expect(message).not.toContain('regulated: true');
    }
  });

  it('points a short review at the clock, a manual one at the decision, one from creation at a packet, a rejected one nowhere', () => {
    const short = userNotReady(tenantOn(), individual, 'PENDING', { id: 'Verification:short', verificationStatus: 'IN_PROGRESS' }).message;
    expect(short).toContain('Its verification Verification:short is decided after 2 s of engine time (POST /_sandbox/clock/advance)');
    expect(short).toContain('POST /_sandbox/verifications/Verification:short/decide');
    for (const status of ['PENDING', 'HOLD'] as const) {
      const { message } = userNotReady(tenantOn(), individual, status, { id: 'Verification:manual', verificationStatus: 'PENDING_MANUAL_REVIEW' });
      expect(message).toContain('in manual review until the operator decides it: POST /_sandbox/verifications/Verification:manual/decide');
      expect(message).not.toContain('clock/advance');
    }
    const fromCreation = userNotReady(tenantOn({ regulated: true }), individual, 'PENDING', undefined).message;
    expect(fromCreation).toContain('submit a complete packet with POST /verifications, then decide that verification');
    expect(userNotReady(tenantOn(), individual, 'REJECTED', undefined).message).toContain('REJECTED is final');
  });

  it('links a section the docs have', () => {
    const anchor = APPROVAL_DOCS_URL.split('#')[1]!;
    expect(APPROVAL_DOCS_URL).toMatch(/\/docs\/onboarding\.md#/);
    const docs = readFileSync(new URL('../../../../docs/onboarding.md', import.meta.url), 'utf8');
    const headings = docs.split('\n').filter((line) => line.startsWith('#')).map((line) => line.replace(/^#+\s*/, '').toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-'));
    expect(headings).toContain(anchor);
  });
});
