import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@railyard/contract';
import { rateLimited } from './errors.js';

/** Brute-force limits on credentials: how many failures within `windowMs` lock a credential, or a source. */
export interface ThrottleLimits {
  /**
   * Failed attempts with one credential (a client id, a device code) from one source (in process and from loopback,
   * all local clients are one source). Default 100.
   */
  readonly perCredential?: number;
  /** Failed attempts from one source address, whatever credential they try. Default 30. */
  readonly perSource?: number;
  /** The window failures are counted over, in real milliseconds. Default 60 000. */
  readonly windowMs?: number;
  /**
   * Loopback sources (127.0.0.0/8, ::1) count towards no source limit: on a developer's machine every client, and every
   * test suite, is one address. Default true. (Behind a reverse proxy on the same host every request arrives from
   * loopback: only the credential limit applies there, as no forwarded-for header is trusted.)
   */
  readonly loopbackExempt?: boolean;
}

/**
 * Brute-force limits on credentials (429 with `Retry-After`): failed attempts are counted per source address, and per
 * credential from each source, over a sliding window of real time (a virtual clock that never moves must not keep a
 * lock forever). Once a count is full, every attempt from that source, or with that credential from that source, is
 * refused with 429 before it is checked, right or wrong, so a guess that would have been right learns nothing; the
 * lock lifts as the oldest failure leaves the window. A credential is locked only for the source that failed with it:
 * nobody can lock another client out of its credential from elsewhere.
 *
 * In process there is no source address, and loopback sources are exempt from the source limit by default; all of
 * them count as one local source for the credential limit.
 */
export class FailureThrottle {
  private readonly perCredential: number;
  private readonly perSource: number;
  private readonly windowMs: number;
  private readonly loopbackExempt: boolean;
  private readonly failures = new Map<string, number[]>();

  constructor(limits: ThrottleLimits = {}, private readonly now: () => number = () => performance.now()) {
    this.perCredential = limits.perCredential ?? 100;
    this.perSource = limits.perSource ?? 30;
    this.windowMs = limits.windowMs ?? 60_000;
    this.loopbackExempt = limits.loopbackExempt ?? true;
  }

  /** The key a source counts under, or undefined when it counts under none (in process, or loopback). */
  private sourceKey(source: string | undefined): string | undefined {
    if (source === undefined || (this.loopbackExempt && isLoopback(source))) return undefined;
    return `source ${source}`;
  }

  /** The key a credential counts under from a source: long credentials by their hash, so a key stays small. */
  private credentialKey(credential: string, source: string | undefined): string {
    const from = this.sourceKey(source) ?? 'local';
    return `credential ${credential.length <= 64 ? credential : bytesToHex(sha256(new TextEncoder().encode(credential)))} from ${from}`;
  }

  /** 429 RATE_LIMITED (with `Retry-After`) while the credential or the source is locked; call before checking either. */
  check(credential: string | undefined, source: string | undefined): void {
    const at = this.now();
    const sourceKey = this.sourceKey(source);
    if (sourceKey !== undefined) this.refuseIfFull(sourceKey, this.perSource, at, 'from this address');
    if (credential !== undefined) this.refuseIfFull(this.credentialKey(credential, source), this.perCredential, at, 'with this credential');
  }

  /** Counts a failed attempt (the credential was refused) against the credential and the source. */
  fail(credential: string | undefined, source: string | undefined): void {
    const at = this.now();
    const sourceKey = this.sourceKey(source);
    if (sourceKey !== undefined) this.count(sourceKey, at);
    if (credential !== undefined) this.count(this.credentialKey(credential, source), at);
  }

  private recent(key: string, at: number): number[] {
    const times = this.failures.get(key);
    if (times === undefined) return [];
    let start = 0;
    while (start < times.length && times[start]! <= at - this.windowMs) start++;
    if (start === times.length) {
      this.failures.delete(key);
      return [];
    }
    if (start > 0) times.splice(0, start);
    return times;
  }

  private refuseIfFull(key: string, limit: number, at: number, what: string): void {
    const times = this.recent(key, at);
    if (times.length >= limit) {
      throw rateLimited(`Too many failed authentication attempts ${what}`, times[0]! + this.windowMs - at);
    }
  }

  private count(key: string, at: number): void {
    const times = this.recent(key, at);
    if (times.length === 0) this.failures.set(key, times);
    times.push(at);
    // The map holds only keys with failures in the window; a flood of distinct keys is bounded by dropping the oldest.
    if (this.failures.size > MAX_TRACKED_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }
}

/** 127.0.0.0/8 and ::1, in the forms Node reports them (IPv4-mapped IPv6 included). */
const isLoopback = (address: string): boolean => /^(::ffff:)?127\./.test(address) || address === '::1';

/** How many credentials and sources the throttle tracks at once (each costs a few numbers). */
const MAX_TRACKED_KEYS = 100_000;
