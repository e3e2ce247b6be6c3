/**
 * Platforms as a durable store keeps them: the record with its client secret sealed, so a copy of the data file
 * holds no credential in the clear (the key lives elsewhere: `RAILYARD_SECRET_KEY`, or a key file beside the data).
 */
import type { Sealer } from '../core/secrets.js';
import type { Platform } from '../platforms/registry.js';
import type { StoredPlatform } from './backend.js';

/** The sealing context of a platform's client secret. */
const CLIENT_SECRET_CONTEXT = 'platform-client-secret:';
/** The sealing context of a platform's webhook signing key. */
export const WEBHOOK_KEY_CONTEXT = 'platform-webhook-key:';

/** A new platform's row: no clock moved and no webhook key yet. */
export function rowOfPlatform(platform: Platform, sealer: Sealer): StoredPlatform {
  const record = { ...platform, clientSecret: sealer.seal(platform.clientSecret, `${CLIENT_SECRET_CONTEXT}${platform.id}`) };
  return { id: platform.id, clientId: platform.clientId, record: JSON.stringify(record), clockMs: null, webhookKey: null };
}

/** The platform a row holds; throws when its secret does not open under this key (the data was sealed under another). */
export function platformOfRow(row: StoredPlatform, sealer: Sealer): Platform {
  const record = JSON.parse(row.record) as Platform;
  const clientSecret = sealer.open(record.clientSecret, `${CLIENT_SECRET_CONTEXT}${row.id}`);
  if (clientSecret === undefined) {
    throw new Error(`the stored platform ${row.clientId} was sealed under another secret key: start with the RAILYARD_SECRET_KEY it was stored with`);
  }
  return Object.freeze({ ...record, clientSecret });
}
