import type { RailyardClient } from '../client.js';

/** Base of every resource: holds the client it calls through. */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: RailyardClient;

  constructor(client: RailyardClient) {
    this._client = client;
  }
}
