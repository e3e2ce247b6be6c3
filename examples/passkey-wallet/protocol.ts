// What the page and its backend (server.ts) exchange, as types shared by both. The backend holds the platform's API
// credentials and relays; the page holds every wallet key.

/** `GET /wallet/config`: what the page needs to start. */
export interface WalletConfig {
  /** The embedded wallet (internal account) of the signed-up customer. */
  accountId: string;
  /** Its EMAIL_OTP credential, provisioned with the wallet. */
  emailCredential: { id: string; nickname: string };
  /** The enclave key to pin: OTP target bundles must be signed by it. */
  enclaveKey: string;
  /** A WebAuthn registration the backend issued: single-use `challenge` (base64url) and the user handle. */
  registration: { challenge: string; rpName: string; user: { id: string; name: string } };
}

/** A wallet operation the backend started that waits for a stamp made here: POST `/wallet/sign` `{ ticket, stamp }`. */
export interface StampRequest {
  ticket: string;
  payloadToSign: string;
}

/** What starting a signed operation answers: a stamp to make, or (when the service needed none) the result. */
export type Started = StampRequest | { completed: unknown };

/** An error the backend answers with. */
export interface RelayError {
  message: string;
  code?: string;
}
