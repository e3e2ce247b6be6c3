/**
 * The dashboard's sign-in session: a cookie that carries the credential the person signed in with, sealed under the
 * server's key (XChaCha20-Poly1305, see core/secrets.ts), so the server keeps nothing: no session table to lose in a
 * restart, nothing in memory or on disk that opens a platform, and any server of a shared sandbox (same secret key)
 * reads it. The credential is checked again by every API call the dashboard makes with it: a token deleted, or the
 * platform gone, ends the session at its next page.
 *
 * CSRF: the cookie is `HttpOnly; SameSite=Strict`, every form carries the session's own random token (checked in
 * constant time), and a browser's `Sec-Fetch-Site`/`Origin` must say the form came from this origin.
 */
import { bytesToHex } from '@railyard/contract';
import { createSealer, type Sealer } from '../core/secrets.js';
import type { Incoming } from '../http/app.js';

/** Cookie of the signed-in session. */
export const SESSION_COOKIE = 'railyard_dashboard';
/** Cookie of the sign-in form's CSRF token (before there is a session). */
export const SIGN_IN_COOKIE = 'railyard_dashboard_sign_in';
/** Cookie of the one-time message shown after an action (post, redirect, get). */
export const FLASH_COOKIE = 'railyard_dashboard_flash';
/** Where the dashboard is served, and the path of its cookies. */
export const DASHBOARD_PATH = '/_sandbox/dashboard';

/** How long a sign-in lasts, in wall-clock time. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** The permissions of an API token; the platform's own credentials hold all of them. */
export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';
export const ALL_PERMISSIONS: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

/** Who is signed in. */
export interface Signer {
  readonly platformId: string;
  /** The platform's own credentials, or one of its API tokens. */
  readonly credential: 'platform' | 'token';
  /** The client id or token id signed in with (not a secret). */
  readonly id: string;
  readonly permissions: readonly Permission[];
}

/** A signed-in session, as the cookie carries it. */
export interface Session {
  /** The `Authorization` header every API call of this session sends. */
  readonly authorization: string;
  /** The token every form of this session posts back. */
  readonly csrf: string;
  /** Wall-clock expiry (ms since the epoch). */
  readonly expiresAt: number;
  readonly signer: Signer;
}

const CONTEXT = 'railyard dashboard session v1';

/** A random token of 32 hex digits. */
export const randomToken = (): string => bytesToHex(crypto.getRandomValues(new Uint8Array(16)));

/** Issues and reads session cookies under one key (random per process when none is given). */
export class SessionCookies {
  private readonly sealer: Sealer;

  constructor(secretKey?: string, private readonly now: () => number = Date.now) {
    this.sealer = createSealer(secretKey === undefined ? undefined : `dashboard session\0${secretKey}`);
  }

  /** The cookie value of a new session. */
  issue(authorization: string, signer: Signer): { value: string; session: Session } {
    const session: Session = { authorization, csrf: randomToken(), expiresAt: this.now() + SESSION_TTL_MS, signer };
    return { value: this.sealer.seal(JSON.stringify(session), CONTEXT), session };
  }

  /** The session of a request's cookie, or undefined (none, expired, forged, or sealed under another key). */
  read(incoming: Incoming): Session | undefined {
    const value = cookieOf(incoming, SESSION_COOKIE);
    if (value === undefined || value.length > 4096) return undefined;
    const opened = this.sealer.open(value, CONTEXT);
    if (opened === undefined) return undefined;
    try {
      const session = JSON.parse(opened) as Session;
      return typeof session.expiresAt === 'number' && session.expiresAt > this.now() ? session : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * A cookie's value from the `Cookie` header (the first of that name), or undefined. Linear: one split, no regex.
 */
export function cookieOf(incoming: Incoming, name: string): string | undefined {
  const header = incoming.header('cookie');
  if (header === null || header.length > 16_384) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether the request came over HTTPS (directly or, as a proxy says, in front of the server). */
const overHttps = (incoming: Incoming) =>
  incoming.url.startsWith('https:') || incoming.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';

/** A `Set-Cookie` value for the dashboard's path: HttpOnly, SameSite=Strict, Secure over HTTPS. */
export function setCookie(incoming: Incoming, name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=${DASHBOARD_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${overHttps(incoming) ? '; Secure' : ''}`;
}

/** Compares two strings in time that depends only on their lengths. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Whether a form post came from a page of this origin: the browser's `Sec-Fetch-Site` says same-origin (or the user
 * typed it: none), or, from a browser that does not send it, the `Origin` names the host the request was sent to.
 */
export function fromThisOrigin(incoming: Incoming): boolean {
  const site = incoming.header('sec-fetch-site');
  if (site !== null) return site === 'same-origin' || site === 'none';
  const origin = incoming.header('origin');
  if (origin === null) return true;
  const host = incoming.header('host');
  try {
    return host !== null && new URL(origin).host === host;
  } catch {
    return false;
  }
}
