import type { RailyardClient } from '@railyard/client';
import { encryptOtp, SessionKey } from '@railyard/wallet';

/**
 * Signs an embedded wallet in through the typed client with its EMAIL_OTP credential and the sandbox's code
 * (000000): returns the session key, which stamps the wallet's signed retries.
 */
export async function signInWithEmailCode(client: RailyardClient, walletId: string): Promise<SessionKey> {
  const email = (await client.auth.credentials.list({ accountId: walletId })).data.find((credential) => credential.type === 'EMAIL_OTP')!;
  const { otpEncryptionTargetBundle } = await client.auth.credentials.challenge(email.id);
  const { publicKeyHex } = await client.sandbox.enclaveKey();
  const session = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: session, pinnedEnclaveKey: publicKeyHex });
  await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: session });
  return session;
}
