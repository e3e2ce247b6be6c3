import { expect, expectTypeOf, it } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError, type Customer, type KycLink } from '@railyard/client';
import { describeOverTransports, type Transport } from './support/transports.js';

// Contact verification and the hosted verification link through the typed client, over every transport
// (SPEC §3.4, §4.3; REFERENCE §2.1, §13).

const marie = {
  customerType: 'INDIVIDUAL' as const,
  fullName: 'Marie Curie',
  birthDate: '1867-11-07',
  nationality: 'FR',
  address: { line1: '11 Rue Pierre et Marie Curie', city: 'Paris', postalCode: '75005', country: 'FR' },
  currencies: ['EUR'],
  email: 'marie@example.eu',
  phoneNumber: '+33123456789',
};

describeOverTransports('contact verification and kyc-link', (scope) => {
  it('verifies email and phone with the sandbox code, then creates a link whose page opens', async () => {
    const customer = await scope.client.customers.create(marie);
    expect(customer.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });

    const refused = await scope.client.customers.createKycLink(customer.id, { redirectUri: 'https://platform.example/done' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).status).toBe(409);

    const sent = await scope.client.customers.verifyEmail(customer.id);
    expectTypeOf(sent).toEqualTypeOf<void>();
    expect(sent).toBeUndefined();
    const wrong = await scope.client.customers.confirmEmail(customer.id, '000000').catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(BadRequestError);
    expect((wrong as BadRequestError).code).toBe('INVALID_INPUT');
    const afterEmail = await scope.client.customers.confirmEmail(customer.id, '123456');
    expectTypeOf(afterEmail).toEqualTypeOf<Customer>();
    expect(afterEmail.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });

    await scope.client.customers.verifyPhone(customer.id);
    const afterPhone = await scope.client.customers.confirmPhone(customer.id, '123456');
    expect(afterPhone.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    await expect(scope.client.customers.verifyPhone(customer.id)).rejects.toBeInstanceOf(ConflictError);

    const link = await scope.client.customers.createKycLink(customer.id, { redirectUri: 'https://platform.example/done' });
    expectTypeOf(link).toEqualTypeOf<KycLink>();
    expect(link).toMatchObject({ provider: 'SUMSUB', token: expect.any(String) });
    expect(link.kycUrl).toMatch(new RegExp(`/_sandbox/hosted/[^/]+/kyc/${link.token}$`));
    const page = await fetchPage(scope.transport, link.kycUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Marie Curie');
  });

  it('a retry with the same idempotency key returns the same link', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const first = await scope.client.customers.createKycLink(customer.id, { redirectUri: 'http://localhost:3000/done' }, { idempotencyKey: 'kyc-1' });
    const again = await scope.client.customers.createKycLink(customer.id, { redirectUri: 'http://localhost:3000/done' }, { idempotencyKey: 'kyc-1' });
    expect(again).toEqual(first);
    const fresh = await scope.client.customers.createKycLink(customer.id, { redirectUri: 'http://localhost:3000/done' });
    expect(fresh.token).not.toBe(first.token);
  });

  it('channels a region does not require are a ConflictError; unknown customers a NotFoundError', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
    expect(customer.contactVerification).toBeUndefined();
    await expect(scope.client.customers.verifyEmail(customer.id)).rejects.toBeInstanceOf(ConflictError);
    await expect(scope.client.customers.confirmPhone(customer.id, '123456')).rejects.toBeInstanceOf(ConflictError);
    const missing = await scope.client.customers.verifyEmail('Customer:00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).code).toBe('USER_NOT_FOUND');
    const badRedirect = await scope.client.customers.createKycLink(customer.id, { redirectUri: 'http://platform.example/done' }).catch((e: unknown) => e);
    expect(badRedirect).toBeInstanceOf(BadRequestError);
  });
});

/** Opens a kycUrl as a browser would: no credentials. */
async function fetchPage(transport: Transport, url: string): Promise<{ status: number; text: string }> {
  // In process there is no network: the page is also served under the base path, which the raw fetch reaches.
  const response = new URL(url).hostname === 'in-process.test' ? await transport.raw(new URL(url).pathname, { method: 'GET' }) : await fetch(url);
  return { status: response.status, text: await response.text() };
}
