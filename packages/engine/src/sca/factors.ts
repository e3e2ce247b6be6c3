/**
 * SCA factor enrolment (REFERENCE §22): a TOTP app or one passkey per customer, beside the SMS code to the phone on
 * file (never enrolled, always listed). Enrolment is two calls with no enrolment id: the start
 * hands out a secret (TOTP) or WebAuthn creation options (PASSKEY) and keeps them as the customer's pending enrolment;
 * the confirm echoes the secret with a current code, or sends the registration, which must sign the pending challenge.
 * Enrolled factors log the customer in (login.ts) and are what a factor reset (resets.ts) clears.
 */
import type { ScaFactorConfirmation, ScaFactorEnrollment, ScaFactorEntry, ScaFactorList, ScaEnrollableFactor } from '@railyard/contract';
import { base64UrlEncode, bytesToHex, ScaFactorConfirmRequest, utf8Encode } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { conflict, invalidField, notFound } from '../core/errors.js';
import { onField } from '../core/store.js';
import { tokenHash } from '../core/secrets.js';
import { constantTimeEqual } from '../platforms/registry.js';
import { verifyPasskeyRegistration } from '../auth/passkey-verify.js';
import type { CustomerRecord } from '../customers/customers.js';
import { SCA_CODE } from '../sandbox/magic-values.js';
import { requireScaCustomer } from './sca.js';
import { totpBase32Of, totpKeyOf, totpUri, verifyTotp } from './totp.js';

/** The relying party SCA passkeys are created for in the sandbox: local development pages. */
export const SCA_PASSKEY_RELYING_PARTY_ID = 'localhost';
/** The origins an SCA passkey may be created and used from in the sandbox (a local dev server's usual ports). */
export const SCA_PASSKEY_ALLOWED_ORIGINS: readonly string[] = ['http://localhost:3000', 'http://localhost:5173', 'http://localhost:8080'];
/** The issuer an authenticator app shows beside a TOTP entry. */
export const TOTP_ISSUER = 'Railyard sandbox';
/** A pending enrolment can be confirmed for 10 minutes. */
export const SCA_ENROLLMENT_TTL_MS = 10 * 60_000;
/** How many single-use recovery codes a TOTP enrolment gives. */
export const TOTP_RECOVERY_CODE_COUNT = 10;

/**
 * An enrolled TOTP or passkey (snapshot-safe). Id: the passkey's verified credentialId (base64url, from the
 * authenticator data); `<customerId>/TOTP` for the TOTP, which cannot collide with it: base64url has no `/` or `:`.
 */
export const ScaFactorRecord = z.object({
  id: z.string(),
  customerId: z.string(),
  factor: z.enum(['TOTP', 'PASSKEY']),
  name: z.string(),
  createdAt: z.string(),
  /**
   * TOTP: the shared secret, sealed (the engine's sealer: it must be read again to check codes), the SHA-256 of each
   * recovery code not used yet (shown once), and the step of the last app code accepted (only later steps are
   * accepted; absent in snapshots from before it was kept, and until an app code is used).
   */
  totp: z.object({ secret: z.string(), recoveryCodes: z.array(z.string()), lastUsedStep: z.number().int().optional() }).optional(),
  /** PASSKEY: what verifies its assertions. */
  passkey: z.object({ publicKey: z.string(), counter: z.number().int().min(0), rpId: z.string() }).optional(),
});
export type ScaFactorRecord = z.infer<typeof ScaFactorRecord>;

/** A started enrolment (snapshot-safe); id `<customerId>/<type>`: starting again replaces it. */
export const ScaEnrollmentRecord = z.object({
  id: z.string(),
  customerId: z.string(),
  type: z.enum(['TOTP', 'PASSKEY']),
  /** TOTP: the secret handed out, sealed. */
  secret: z.string().optional(),
  /** PASSKEY: the base64url challenge the registration must sign. */
  challenge: z.string().optional(),
  expiresAt: z.string(),
});
export type ScaEnrollmentRecord = z.infer<typeof ScaEnrollmentRecord>;

export const SCA_FACTORS = 'scaFactors';
export const SCA_ENROLLMENTS = 'scaEnrollments';
const factors = (tenant: TenantContext) => tenant.store.collection<ScaFactorRecord>(SCA_FACTORS, { indexes: { customerId: onField('customerId') } });
const enrollments = (tenant: TenantContext) => tenant.store.collection<ScaEnrollmentRecord>(SCA_ENROLLMENTS);

const totpIdOf = (customerId: string) => `${customerId}/TOTP`;
/** What a TOTP secret of the customer is sealed for (opening needs the same). */
const totpContext = (customerId: string) => `totp:${customerId}`;
const enrollmentIdOf = (customerId: string, type: ScaEnrollableFactor) => `${customerId}/${type}`;

/** The customer's enrolled TOTP or passkey, if any. */
export const enrolledFactor = (tenant: TenantContext, customerId: string, factor: ScaEnrollableFactor): ScaFactorRecord | undefined =>
  factors(tenant).findBy('customerId', customerId).find((record) => record.factor === factor);

/** Removes the customer's enrolled TOTP or passkey (a completed factor reset). */
export function removeEnrolledFactor(tenant: TenantContext, customerId: string, factor: ScaEnrollableFactor): void {
  const record = enrolledFactor(tenant, customerId, factor);
  if (record) factors(tenant).delete(record.id);
}

/** Updates a passkey's signature counter after an assertion. */
export function recordPasskeyUse(tenant: TenantContext, record: ScaFactorRecord, counter: number): void {
  const current = factors(tenant).get(record.id);
  if (current?.passkey) factors(tenant).replace({ ...current, passkey: { ...current.passkey, counter } });
}

/**
 * Whether `code` proves the customer's TOTP: the app's current code (one step of drift either way) of a step later than
 * the last one used, which it records; the sandbox code; or an unused recovery code, which this uses up.
 */
export function acceptsTotpCode(tenant: TenantContext, record: ScaFactorRecord, code: string): boolean {
  const totp = record.totp!;
  if (code === SCA_CODE) return true;
  // Sealed under another engine's key (a snapshot restored elsewhere), the secret cannot check app codes: the sandbox
  // code and the recovery codes still work, and enrolling again makes a new secret.
  const secret = tenant.secrets.open(totp.secret, totpContext(record.customerId));
  const step = secret === undefined ? undefined : verifyTotp(totpKeyOf(secret), code, tenant.clock.now(), totp.lastUsedStep);
  if (step !== undefined) {
    factors(tenant).replace({ ...record, totp: { ...totp, lastUsedStep: step } });
    return true;
  }
  const hash = tokenHash(code);
  if (!totp.recoveryCodes.includes(hash)) return false;
  factors(tenant).replace({ ...record, totp: { ...totp, recoveryCodes: totp.recoveryCodes.filter((unused) => unused !== hash) } });
  return true;
}

const entryOf = (record: ScaFactorRecord): ScaFactorEntry =>
  record.factor === 'PASSKEY' ? { factor: 'PASSKEY', credentialId: record.id, name: record.name } : { factor: 'TOTP', name: record.name };

/** The name SMS_OTP is listed under when the customer has no phone on file. */
export const SMS_FACTOR_NAME = 'SMS to the verified phone';

/**
 * `GET /sca/factors`: SMS_OTP always (REFERENCE §22: never enrolled, always listed; named by the masked phone on file
 * when there is one), then the enrolled TOTP and passkey.
 */
export function listScaFactors(tenant: TenantContext, customerId: string): ScaFactorList {
  const customer = requireScaCustomer(tenant, customerId);
  const sms: ScaFactorEntry = { factor: 'SMS_OTP', name: customer.phoneNumber === undefined ? SMS_FACTOR_NAME : `SMS to ${maskedPhone(customer.phoneNumber)}` };
  return { factors: [sms, ...factors(tenant).findBy('customerId', customerId).map(entryOf)] };
}

const maskedPhone = (phone: string): string => `${'•'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;

/** 409 PASSKEY_ALREADY_ENROLLED: one passkey per customer. */
function assertNoPasskey(tenant: TenantContext, customerId: string): void {
  const existing = enrolledFactor(tenant, customerId, 'PASSKEY');
  if (existing) {
    throw conflict(`Customer ${customerId} already has a passkey (${existing.id}): delete it before enrolling another`, 'PASSKEY_ALREADY_ENROLLED', { credentialId: existing.id });
  }
}

/** A random string of `length` letters and digits. */
function randomText(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** `POST /sca/factors`: a TOTP secret, or passkey creation options; kept as the customer's pending enrolment. */
export function startScaFactorEnrollment(tenant: TenantContext, customerId: string, type: ScaEnrollableFactor): ScaFactorEnrollment {
  const customer = requireScaCustomer(tenant, customerId);
  const expiresAt = new Date(tenant.clock.now() + SCA_ENROLLMENT_TTL_MS).toISOString();
  const id = enrollmentIdOf(customerId, type);
  const save = (record: ScaEnrollmentRecord) => (enrollments(tenant).has(id) ? enrollments(tenant).replace(record) : enrollments(tenant).insert(record));
  if (type === 'TOTP') {
    const secret = randomText(20);
    save({ id, customerId, type, secret: tenant.secrets.seal(secret, totpContext(customerId)), expiresAt });
    return { type, secret, secretBase32Encoded: totpBase32Of(secret), totpUri: totpUri(secret, TOTP_ISSUER, accountNameOf(customer)) };
  }
  assertNoPasskey(tenant, customerId);
  const challenge = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
  save({ id, customerId, type, challenge, expiresAt });
  return {
    type,
    options: {
      challenge,
      rp: { id: SCA_PASSKEY_RELYING_PARTY_ID, name: TOTP_ISSUER },
      user: { id: base64UrlEncode(utf8Encode(customerId)), name: accountNameOf(customer), displayName: displayNameOf(customer) },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -257 }],
      timeout: SCA_ENROLLMENT_TTL_MS,
      attestation: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    },
    allowedOrigins: [...SCA_PASSKEY_ALLOWED_ORIGINS],
    relyingPartyId: SCA_PASSKEY_RELYING_PARTY_ID,
  };
}

const accountNameOf = (customer: CustomerRecord): string => customer.email ?? customer.id;
const displayNameOf = (customer: CustomerRecord): string =>
  ('fullName' in customer ? customer.fullName : undefined) ?? ('businessInfo' in customer ? customer.businessInfo.legalName : undefined) ?? accountNameOf(customer);

/** The pending enrolment of `type`, or 400 naming `field` when there is none (never started, expired, or used). */
function pendingEnrollment(tenant: TenantContext, customerId: string, type: ScaEnrollableFactor, field: string): ScaEnrollmentRecord {
  const pending = enrollments(tenant).get(enrollmentIdOf(customerId, type));
  if (!pending || Date.parse(pending.expiresAt) <= tenant.clock.now()) {
    throw invalidField(field, `No ${type} enrolment of this customer is waiting to be confirmed: start one with POST /sca/factors`);
  }
  return pending;
}

/** `POST /sca/factors/confirm`: enrols the factor once the proof holds; 400 otherwise, with nothing changed. */
export async function confirmScaFactorEnrollment(
  tenant: TenantContext, customerId: string, request: z.output<typeof ScaFactorConfirmRequest>,
): Promise<ScaFactorConfirmation> {
  requireScaCustomer(tenant, customerId);
  if (request.type === 'TOTP') {
    const pending = pendingEnrollment(tenant, customerId, 'TOTP', 'secret');
    const sealed = pending.secret!;
    const secret = tenant.secrets.open(sealed, totpContext(customerId));
    if (secret === undefined) throw invalidField('secret', 'belongs to an enrolment this sandbox can no longer read (restored under another secret key): start the enrolment again');
    if (!constantTimeEqual(secret, request.secret)) throw invalidField('secret', 'is not the secret of the TOTP enrolment started for this customer');
    const step = request.code === SCA_CODE ? undefined : verifyTotp(totpKeyOf(secret), request.code, tenant.clock.now());
    if (request.code !== SCA_CODE && step === undefined) throw invalidField('code', "is not the authenticator app's current code for this secret");
    const recoveryCodes = Array.from({ length: TOTP_RECOVERY_CODE_COUNT }, () => bytesToHex(crypto.getRandomValues(new Uint8Array(5))));
    removeEnrolledFactor(tenant, customerId, 'TOTP');
    factors(tenant).insert({
      id: totpIdOf(customerId), customerId, factor: 'TOTP', name: 'Authenticator app', createdAt: tenant.nowIso(),
      // The confirming code is used: it cannot log in afterwards.
      totp: { secret: sealed, recoveryCodes: recoveryCodes.map(tokenHash), ...(step === undefined ? {} : { lastUsedStep: step }) },
    });
    enrollments(tenant).delete(pending.id);
    return { type: 'TOTP', recoveryCodes };
  }
  assertNoPasskey(tenant, customerId);
  if (!SCA_PASSKEY_ALLOWED_ORIGINS.includes(request.origin)) {
    throw invalidField('origin', `must be one of the allowed origins: ${SCA_PASSKEY_ALLOWED_ORIGINS.join(', ')}`, { enum: [...SCA_PASSKEY_ALLOWED_ORIGINS] });
  }
  const pending = pendingEnrollment(tenant, customerId, 'PASSKEY', 'credential');
  const { credential } = request;
  let registered: Awaited<ReturnType<typeof verifyPasskeyRegistration>>;
  try {
    registered = await verifyPasskeyRegistration(
      { credentialId: credential.rawId, clientDataJson: credential.response.clientDataJSON, attestationObject: credential.response.attestationObject, transports: credential.response.transports },
      { challenge: pending.challenge!, origin: request.origin, rpIds: [SCA_PASSKEY_RELYING_PARTY_ID] },
    );
  } catch (error) {
    throw invalidField('credential', `The passkey registration does not verify: ${(error as Error).message}`);
  }
  if (registered.credentialId !== credential.rawId) {
    throw invalidField('credential.rawId', `is not the credential id the registration's authenticator data carries (${registered.credentialId})`);
  }
  // Checked after the asynchronous verification: a concurrent confirm may have enrolled one, or a new start replaced
  // the enrolment this registration answers, meanwhile.
  assertNoPasskey(tenant, customerId);
  if (enrollments(tenant).get(pending.id)?.challenge !== pending.challenge) {
    throw invalidField('credential', 'answers an enrolment that was confirmed or replaced meanwhile: start a new one with POST /sca/factors');
  }
  if (factors(tenant).has(registered.credentialId)) throw invalidField('credential.rawId', 'This passkey is already enrolled');
  const record = factors(tenant).insert({
    id: registered.credentialId, customerId, factor: 'PASSKEY', name: 'Passkey', createdAt: tenant.nowIso(),
    passkey: { publicKey: registered.publicKey, counter: registered.counter, rpId: registered.rpId ?? SCA_PASSKEY_RELYING_PARTY_ID },
  });
  enrollments(tenant).delete(pending.id);
  return { type: 'PASSKEY', factor: entryOf(record) };
}

/** `DELETE /sca/factors/{credentialId}`: only the customer's own passkey; 404 for anything else. */
export function deleteScaFactor(tenant: TenantContext, customerId: string, credentialId: string): undefined {
  requireScaCustomer(tenant, customerId);
  const record = factors(tenant).get(credentialId);
  if (!record || record.customerId !== customerId || record.factor !== 'PASSKEY') throw notFound('SCA factor', credentialId);
  factors(tenant).delete(record.id);
  return undefined;
}
