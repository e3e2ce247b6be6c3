/**
 * A customer's email is tied to the EMAIL_OTP credentials of its embedded wallets (SPEC §4.2; REFERENCE §11): changing
 * it is a signed action of the wallet, and the credentials follow the new address. 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS
 * when another wallet's EMAIL_OTP credential uses the address; 409 EMAIL_OTP_CREDENTIAL_SET_CHANGED when the tied
 * credentials changed between the challenge and the signed retry; 424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED when the
 * credentials could not follow the new address (a sandbox trigger), and then nothing changes.
 */
import type { Customer, CustomerUpdateRequest } from '@railyard/contract';
import type { z } from 'zod';
import { accountsOf } from '../accounts/internal-accounts.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict } from '../core/errors.js';
import { failsOtpSync } from '../sandbox/magic-values.js';
import { findCustomer, prepareCustomerUpdate, updateCustomer } from '../customers/customers.js';
import { credentials, type AuthCredentialRecord } from './records.js';
import { sessionsOf } from './sessions.js';
import { signedAction, type SignedLegAnswer, type SignedRequest } from './signed-retry.js';

/** The EMAIL_OTP credentials of the customer's embedded wallets, by id. */
function tiedCredentials(tenant: TenantContext, customerId: string): AuthCredentialRecord[] {
  return accountsOf(tenant, customerId)
    .filter((a) => a.type === 'EMBEDDED_WALLET')
    .flatMap((a) => credentials(tenant).findBy('accountId', a.id))
    .filter((c) => c.type === 'EMAIL_OTP')
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS when an EMAIL_OTP credential other than `tied` uses the address. */
function assertEmailFree(tenant: TenantContext, email: string, tied: readonly AuthCredentialRecord[]): void {
  const taken = credentials(tenant).findBy('nickname', email).some((c) => c.type === 'EMAIL_OTP' && !tied.some((t) => t.id === c.id));
  if (taken) throw conflict(`${email} is already the email of another wallet's EMAIL_OTP credential`, 'EMAIL_OTP_EMAIL_ALREADY_EXISTS');
}

/** `PATCH /customers/{id}`: a plain update, unless it changes an email that wallet credentials are tied to. */
export async function updateCustomerTiedToWallets(
  tenant: TenantContext, customerId: string, body: z.output<typeof CustomerUpdateRequest>, request: SignedRequest,
): Promise<Customer | SignedLegAnswer> {
  const email = (body as { email?: string }).email;
  const tied = tiedCredentials(tenant, customerId);
  const walletId = accountsOf(tenant, customerId).find((a) => a.type === 'EMBEDDED_WALLET')?.id;
  // A retry of a signed change goes on as one even when its credentials are gone meanwhile (then: set changed).
  const retrying = request.requestId !== null;
  if (email === undefined || walletId === undefined || email === findCustomer(tenant, customerId).email || (tied.length === 0 && !retrying)) {
    return updateCustomer(tenant, customerId, body);
  }

  prepareCustomerUpdate(tenant, customerId, body);
  assertEmailFree(tenant, email, tied);
  const leg = await signedAction(tenant, request, {
    accountId: walletId, activity: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
    parameters: { customerId, email, credentialIds: tied.map((c) => c.id) },
    signers: sessionsOf(tenant, walletId),
  });
  if (!('signer' in leg)) return leg;
  const signedFor = (JSON.parse(leg.payloadToSign) as { parameters: { credentialIds: string[] } }).parameters.credentialIds;
  const now = tiedCredentials(tenant, customerId);
  if (now.map((c) => c.id).join() !== signedFor.join()) {
    throw conflict('The wallet credentials tied to this email changed after the challenge: start the update again', 'EMAIL_OTP_CREDENTIAL_SET_CHANGED');
  }
  // Again without yielding before the write: another wallet's change to the same address may have landed meanwhile.
  assertEmailFree(tenant, email, now);
  if (now.length > 0 && failsOtpSync(email)) {
    throw new ApiError(424, 'EMAIL_OTP_CREDENTIAL_SYNC_FAILED', `The wallet provider could not move the EMAIL_OTP credentials to ${email}: the email is unchanged`);
  }
  const updated = updateCustomer(tenant, customerId, body);
  const at = tenant.nowIso();
  for (const credential of now) credentials(tenant).replace({ ...credential, nickname: email, updatedAt: at });
  return updated;
}
