/**
 * What a trigger recipe (recipes.ts) drives: the sandbox's public API and control plane, as any client reaches them.
 * `railyard trigger` implements it over HTTP; tests implement it over `engine.fetch`.
 */
import type { WebhookEventType } from '@railyard/contract';

/** Who a call acts as: the platform (default), nobody (a device-code redeem), an agent's Bearer token, or other credentials. */
export type TriggerAuth = 'platform' | 'none' | { readonly bearer: string } | { readonly clientId: string; readonly clientSecret: string };

/** The `Authorization` header a {@link TriggerAuth} stands for: undefined for the platform's own, null for none. */
export function authorizationOf(auth: TriggerAuth | undefined): string | null | undefined {
  if (auth === undefined || auth === 'platform') return undefined;
  if (auth === 'none') return null;
  if ('bearer' in auth) return `Bearer ${auth.bearer}`;
  return `Basic ${btoa(`${auth.clientId}:${auth.clientSecret}`)}`;
}

/** A file to upload (multipart `file` field). */
export interface TriggerFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly type: string;
}

/** The calls a recipe makes. Each resolves with the parsed JSON answer of a 2xx and rejects on anything else. */
export interface TriggerApi {
  /** A JSON call at `path` below the base path (`/customers`) or on the control plane (`/_sandbox/…`). */
  call(method: string, path: string, body?: unknown, options?: { readonly auth?: TriggerAuth; readonly headers?: Readonly<Record<string, string>> }): Promise<any>;
  /** A multipart upload: `fields` and one `file`. */
  upload(path: string, fields: Readonly<Record<string, string>>, file: TriggerFile): Promise<any>;
  /**
   * Lets `ms` of sandbox time pass: moves a virtual clock on (running what comes due), or on a real clock waits that
   * long when it is short, and refuses when it is not (the implementation says how).
   */
  advance(ms: number): Promise<void>;
}

/** What a recipe made, by name (`customer`, `quote`, `card`…): `railyard trigger` prints them. */
export type Created = Record<string, string>;

/** How to make one event type fire. */
export interface TriggerRecipe {
  readonly type: WebhookEventType;
  /** What the recipe does, in a phrase: `a payout to a US account ending 002 (fails, refunded)`. */
  readonly how: string;
  run(api: TriggerApi): Promise<Created>;
}
