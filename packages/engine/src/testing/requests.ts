import { BASE_PATH } from '@railyard/contract';
import { DEFAULT_CREDENTIALS } from '../platforms/registry.js';

/** Test helper: a Request to the API with the default platform's Basic credentials. */
export function apiRequest(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  credentials: { clientId: string; clientSecret: string } = DEFAULT_CREDENTIALS,
): Request {
  const auth = btoa(`${credentials.clientId}:${credentials.clientSecret}`);
  const init: RequestInit = { method, headers: { authorization: `Basic ${auth}`, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  return new Request(`http://sandbox.test${path.startsWith('/_') ? '' : BASE_PATH}${path}`, init);
}
