/**
 * What went wrong in a wallet-crypto codec:
 * - `MALFORMED`: the input is not in the wire format (bad hex/base64url/base58, bad JSON, wrong lengths, off-curve key);
 * - `WRONG_SCHEME`: a stamp names a scheme other than `SIGNATURE_SCHEME_TK_API_P256`;
 * - `KEY_MISMATCH`: a stamp names a public key other than the expected session key;
 * - `SIGNATURE_INVALID`: an ECDSA signature does not verify;
 * - `UNTRUSTED_SIGNER`: an enclave bundle's `enclaveQuorumPublic` is not the pinned key;
 * - `CHECKSUM`: a base58check checksum does not match;
 * - `DECRYPTION_FAILED`: HPKE authentication failed (wrong key, tampered ciphertext, wrong info or AAD).
 */
export type WalletCryptoErrorCode =
  | 'MALFORMED'
  | 'WRONG_SCHEME'
  | 'KEY_MISMATCH'
  | 'SIGNATURE_INVALID'
  | 'UNTRUSTED_SIGNER'
  | 'CHECKSUM'
  | 'DECRYPTION_FAILED';

/** The error every wallet-crypto codec throws; `code` says which check failed (see {@link WalletCryptoErrorCode}). */
export class WalletCryptoError extends Error {
  /** Which check failed. */
  readonly code: WalletCryptoErrorCode;

  constructor(code: WalletCryptoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WalletCryptoError';
    this.code = code;
  }
}

/** True when `error` is a {@link WalletCryptoError}, optionally with the given code. */
export function isWalletCryptoError(error: unknown, code?: WalletCryptoErrorCode): error is WalletCryptoError {
  return error instanceof WalletCryptoError && (code === undefined || error.code === code);
}
