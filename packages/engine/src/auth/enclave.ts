/**
 * The sandbox's enclave signing key: it signs OTP target bundles and export bundles. Reference clients pin
 * the signer's public key and refuse bundles from any other, so the sandbox key is documented and served at
 * `GET /_sandbox/enclave-key`: pin {@link SANDBOX_ENCLAVE_PUBLIC_KEY_HEX} in a wallet that talks to the sandbox. It is a
 * sandbox key, derived from a public phrase (SHA-256 of "railyard sandbox enclave signing key"): never a secret.
 */
import type { EnclaveSigner } from '@railyard/contract';

export const SANDBOX_ENCLAVE_PRIVATE_KEY_HEX = 'fadf0c21d339ac0d9d0f955dce151c889858b7e836bf110d413f0f0d78ce0490';
/** Uncompressed, lowercase hex: compare it character for character with a bundle's `enclaveQuorumPublic`. */
export const SANDBOX_ENCLAVE_PUBLIC_KEY_HEX =
  '04f45abf4bacb86e120a64be1a884c1dece1dea7265a0bb21e1de53f9505359b4e26d383b80cb4424e5949fb3587aa9a64930543f02a4db009b62dd330e876eafd';

export const enclaveSigner: EnclaveSigner = { privateKey: SANDBOX_ENCLAVE_PRIVATE_KEY_HEX, publicKeyHex: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX };
