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

/** The smallest byte sequences that pass the upload content check, by type. */
export const SAMPLE_FILES = {
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  pdf: new TextEncoder().encode('%PDF-1.7\n%sandbox\n'),
} as const;

/** Test helper: a multipart request (document upload) with the default platform's credentials. */
export function formRequest(
  method: string,
  path: string,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type: string },
  credentials: { clientId: string; clientSecret: string } = DEFAULT_CREDENTIALS,
): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
  const auth = btoa(`${credentials.clientId}:${credentials.clientSecret}`);
  return new Request(`http://sandbox.test${BASE_PATH}${path}`, { method, headers: { authorization: `Basic ${auth}` }, body: form });
}

/**
 * The body of an answer as text; for an event stream (`text/event-stream`, which stays open), nothing: its head is the
 * answer, and the body is cancelled so the stream ends. Checks that walk every operation read bodies with this.
 */
export async function answerText(response: Response): Promise<string> {
  if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
    await response.body?.cancel();
    return '';
  }
  return response.text();
}

/** A parsed JSON body, loosely typed for assertions. */
export type Json = Record<string, any>;

/** Test helper: sends an API request to an engine and returns the status, headers and parsed JSON body. */
export async function callApi(
  engine: { fetch: (request: Request) => Promise<Response> },
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
  credentials?: { clientId: string; clientSecret: string },
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await engine.fetch(apiRequest(method, path, body, headers, credentials));
  const text = await answerText(response);
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Json };
}
