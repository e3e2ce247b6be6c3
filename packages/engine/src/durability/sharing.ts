/**
 * One process of a sandbox several processes share over PostgreSQL (`railyard serve --database`). Any process may
 * receive any request. A request for a platform this process holds is served here; one for a platform nobody holds
 * makes this process take it (the lease, then its state loaded); one for a platform another process holds is passed on
 * to that process (its address is in the lease), which answers it. A holder that died is replaced once its lease runs
 * out: its platforms are taken by whoever is asked for them first, or by the sweep every process runs each second
 * (which also wakes platforms whose real-clock jobs are due). Platforms not asked for a while are let go, so a sandbox
 * may hold more platforms than one process's memory.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@railyard/contract';
import type { WireReply } from '@railyard/contract';
import type { Engine, EngineSharing } from '../engine.js';
import { ApiError } from '../core/errors.js';
import { errorReply, type Incoming, MAX_JSON_BODY_BYTES, withBody } from '../http/app.js';
import { constantTimeEqual } from '../platforms/registry.js';
import { ReplyStream, type StreamingReply } from '../http/stream.js';
import type { Location } from './locate.js';
import type { PostgresStore } from './postgres.js';

/** The header a process passing a request on adds: who passes it, for whom (the client's address), and a MAC of both. */
export const FORWARDED_HEADER = 'x-railyard-forwarded';
/** The header of a peer's answer that it does not hold the platform (the passer asks the database again). */
const NOT_HELD_HEADER = 'x-railyard-not-held';

/** Options of {@link SharedSandbox}. */
export interface SharedSandboxOptions {
  /** A platform not asked for during this long is let go (default 60 s). */
  readonly idleMs?: number;
  /** Whether the engine runs on the real clock (then platforms with jobs due are woken by the sweep). */
  readonly realClock: boolean;
  /** How long a request waits for a platform whose holder does not answer, before a 503 (default 3× the lease). */
  readonly handoverMs?: number;
  /** The lease length (the store's), for the wait above. */
  readonly leaseTtlMs: number;
}

/** What one held platform is doing here. */
interface Hold {
  state: 'loading' | 'served' | 'retiring';
  /** Resolves when loading or retiring ends. */
  settled: Promise<void>;
  inflight: number;
  lastUsed: number;
}

/** How old a passed-on request's header may be (clocks of the servers may differ a little). */
const FORWARD_FRESH_MS = 60_000;

/** Methods that change nothing: sent again without a second thought. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Whether a fetch failed before the request reached anyone (nothing listens at the address). */
const refusedConnection = (error: unknown): boolean => {
  const code = ((error as { cause?: { code?: string } }).cause ?? {}).code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND';
};

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade', 'expect', 'te', 'trailer', 'proxy-connection']);

/** A process's share of the sandbox: serves its platforms, passes on the others' requests, takes, renews and lets go. */
export class SharedSandbox {
  private readonly holds = new Map<string, Hold>();
  /** Where the holder of a platform held elsewhere answers, as last found (forgotten when it stops being so). */
  private readonly elsewhere = new Map<string, string>();
  /** Platforms created here by a request under way: let go once it is answered. */
  private readonly created = new Set<string>();
  private readonly sharing: EngineSharing;
  private readonly forwardKey: Uint8Array;
  private readonly idleMs: number;
  private readonly handoverMs: number;
  private timers: ReturnType<typeof setInterval>[] = [];
  private sweeping = false;
  private renewing = false;
  private closed = false;

  constructor(private readonly engine: Engine, private readonly store: PostgresStore, private readonly options: SharedSandboxOptions) {
    if (engine.sharing === undefined) throw new TypeError('the engine must be created on the shared store (createEngine({ durable: store }))');
    this.sharing = engine.sharing;
    this.forwardKey = hkdf(sha256, new TextEncoder().encode(store.secretKey), undefined, new TextEncoder().encode('railyard forwarding v1'), 32);
    this.idleMs = options.idleMs ?? 60_000;
    this.handoverMs = options.handoverMs ?? 3 * options.leaseTtlMs;
    this.sharing.onLost((platformIds) => {
      for (const id of platformIds) this.holds.delete(id);
    });
    this.sharing.onCreated((platformId) => this.created.add(platformId));
  }

  /** Starts renewing, sweeping and letting go, once the server answers at `url` (written into this process's leases). */
  async start(url: string): Promise<void> {
    await this.store.advertise(url);
    const every = (ms: number, task: () => Promise<void>) => {
      const timer = setInterval(() => void task().catch(() => undefined), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(Math.max(100, Math.floor(this.options.leaseTtlMs / 3)), () => this.renew());
    every(1_000, () => this.sweep());
    every(Math.max(250, Math.floor(this.idleMs / 4)), () => this.letGoIdle());
  }

  /** Serves a request: here, or at the platform's holder. */
  async handle(incoming: Incoming): Promise<WireReply> {
    try {
      const passedBy = this.verifiedPasser(incoming);
      const located = await this.locate(incoming);
      if (located.kind !== 'platform') return await this.engine.handle(this.asFrom(incoming, passedBy));
      return await this.route(located.platformId, incoming, passedBy, located.caller);
    } catch (error) {
      return errorReply(error instanceof ApiError ? error : unavailable(error));
    }
  }

  /** Lets every platform go (their changes stored first), so the other processes take them at once. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await Promise.allSettled([...this.holds.keys()].map((id) => this.letGo(id)));
  }

  private async locate(incoming: Incoming): Promise<Location> {
    const authorization = incoming.header('authorization');
    const first = this.sharing.locate(incoming.method, incoming.url, authorization);
    if (first.kind !== 'unknown') return first;
    // Made by another process: its row and the directory's entry are in the database.
    const [byClientId, byId, owners] = await Promise.all([
      first.clientId === undefined ? undefined : this.store.platformWithClientId(first.clientId),
      first.platformId === undefined ? undefined : this.store.platformWithId(first.platformId),
      this.store.owners(first.entries),
    ]);
    const owned = await Promise.all(owners.map(([, platformId]) => this.store.platformWithId(platformId)));
    this.sharing.learn([byClientId, byId, ...owned].filter((row) => row !== undefined), owners);
    const again = this.sharing.locate(incoming.method, incoming.url, authorization);
    // Still unknown: nobody has it, and the engine answers so (401, 404).
    return again.kind === 'unknown' ? { kind: 'anywhere' } : again;
  }

  private async route(platformId: string, incoming: Incoming, passedBy: PassedBy | undefined, caller?: string): Promise<WireReply> {
    let body: Uint8Array | undefined;
    let request = incoming;
    const deadline = Date.now() + this.handoverMs;
    for (;;) {
      const hold = this.holds.get(platformId);
      if (hold?.state === 'served') {
        if (caller !== undefined) await this.alsoHere(caller);
        return this.serveHere(hold, request, passedBy);
      }
      if (hold !== undefined) {
        await hold.settled;
        continue;
      }
      if (this.store.holds(platformId)) {
        // Held, and not being loaded: created here, so its state is in memory already.
        this.holds.set(platformId, { state: 'served', settled: Promise.resolve(), inflight: 0, lastUsed: Date.now() });
        continue;
      }
      const known = this.elsewhere.get(platformId);
      const taken = known !== undefined && passedBy === undefined ? { url: known } : await this.take(platformId);
      if (taken === 'taken') continue;
      // Another process holds it. A request passed on to us is not passed on again: the passer asks the database anew.
      if (passedBy !== undefined) return notHeldReply();
      if (taken !== 'starting') {
        if (body === undefined) {
          body = await this.bodyOf(incoming);
          request = withBody(incoming, body);
        }
        const passed = await this.passOn(platformId, taken, request, body);
        if (passed.kind === 'answered' && passed.reply.headers[NOT_HELD_HEADER] === undefined) {
          this.elsewhere.set(platformId, taken.url);
          return passed.reply;
        }
        this.elsewhere.delete(platformId);
        if (passed.kind === 'lost' && !SAFE_METHODS.has(request.method.toUpperCase())) {
          // It reached the holder, which then stopped answering: it may have been applied there. Sending it again
          // could apply it twice, so the client decides (with its Idempotency-Key).
          throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The server holding this platform stopped answering while it had this request; it may or may not have been applied: retry it, with the same Idempotency-Key where it takes one', undefined, { 'retry-after': '1' });
        }
      }
      // Its holder is starting, did not answer (killed: its lease runs out soon) or let it go meanwhile: ask again.
      if (Date.now() > deadline) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The server holding this platform does not answer and its lease has not run out yet: retry the request', undefined, { 'retry-after': '1' });
      await sleep(100);
    }
  }

  private async serveHere(hold: Hold, incoming: Incoming, passedBy: PassedBy | undefined): Promise<WireReply> {
    hold.inflight++;
    hold.lastUsed = Date.now();
    try {
      return await this.engine.handle(this.asFrom(incoming, passedBy));
    } finally {
      hold.inflight--;
      hold.lastUsed = Date.now();
      this.letGoCreated();
    }
  }

  /**
   * A platform is held by the server its first request reaches, not by the one that made it: platforms made here are
   * let go once stored (the request that made them answered), so a balancer spreads them over the servers.
   */
  private letGoCreated(): void {
    for (const platformId of this.created) {
      this.created.delete(platformId);
      if (!this.store.holds(platformId) || this.holds.has(platformId)) continue;
      this.holds.set(platformId, { state: 'served', settled: Promise.resolve(), inflight: 0, lastUsed: Date.now() });
      void this.letGo(platformId);
    }
  }

  /**
   * A request served here for one platform on behalf of another (an invitation, claimed by another platform) needs the
   * caller's platform here too: taken when nobody holds it, else the request cannot be served now (503).
   */
  private async alsoHere(platformId: string): Promise<void> {
    for (;;) {
      const hold = this.holds.get(platformId);
      if (hold?.state === 'served' || (hold === undefined && this.store.holds(platformId))) return;
      if (hold !== undefined) {
        await hold.settled;
        continue;
      }
      if ((await this.take(platformId)) !== 'taken') {
        throw new ApiError(503, 'SERVICE_UNAVAILABLE', "Another server of the sandbox holds the calling platform, and this invitation's platform is held here: retry the request (or make it with the inviting platform's server)", undefined, { 'retry-after': '1' });
      }
    }
  }

  /** Takes the platform if nobody holds it (and loads it), else says where its holder answers. */
  private async take(platformId: string): Promise<'taken' | 'starting' | { url: string }> {
    let done!: () => void;
    const hold: Hold = { state: 'loading', settled: new Promise((resolve) => (done = resolve)), inflight: 0, lastUsed: Date.now() };
    this.holds.set(platformId, hold);
    try {
      // Read first: trying to take a platform held elsewhere would lock its lease row against the holder's commits.
      const current = await this.store.holderOf(platformId);
      if (current !== undefined && current.live && current.holder !== '' && current.holder !== this.store.holder) {
        if (this.holds.get(platformId) === hold) this.holds.delete(platformId);
        return current.url ? { url: current.url } : 'starting';
      }
      const outcome = await this.store.acquire(platformId);
      if (!outcome.acquired) {
        if (this.holds.get(platformId) === hold) this.holds.delete(platformId);
        return outcome.holder?.url ? { url: outcome.holder.url } : 'starting';
      }
      try {
        this.sharing.serve(await this.store.load(platformId));
      } catch (error) {
        // Not served: let the lease go, so another process (or a retry) loads it.
        if (this.holds.get(platformId) === hold) this.holds.delete(platformId);
        await this.store.release(platformId).catch(() => this.store.forget(platformId));
        throw error;
      }
      hold.state = 'served';
      hold.lastUsed = Date.now();
      return 'taken';
    } catch (error) {
      if (this.holds.get(platformId) === hold) this.holds.delete(platformId);
      throw error;
    } finally {
      done();
    }
  }

  private async letGo(platformId: string): Promise<void> {
    const hold = this.holds.get(platformId);
    if (hold === undefined || hold.state !== 'served') return;
    let done!: () => void;
    hold.state = 'retiring';
    hold.settled = new Promise((resolve) => (done = resolve));
    try {
      // Requests under way finish first; new ones wait for the platform to be let go, then go where it is next.
      while (hold.inflight > 0) await sleep(10);
      await this.sharing.retire(platformId);
      await this.store.release(platformId);
    } catch {
      // Not stored or not released: the lease runs out, and another process takes the platform then.
      this.store.forget(platformId);
    } finally {
      if (this.holds.get(platformId) === hold) this.holds.delete(platformId);
      done();
    }
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.closed) return;
    this.renewing = true;
    try {
      const lost = await this.store.renew();
      // Taken over while this process could not renew (stopped, or cut off from the database): forgotten here.
      for (const platformId of lost) this.holds.delete(platformId);
      if (lost.length > 0) this.sharing.lose(lost);
    } finally {
      this.renewing = false;
    }
  }

  private async sweep(): Promise<void> {
    if (this.sweeping || this.closed) return;
    this.sweeping = true;
    try {
      for (const platformId of await this.store.orphans(Date.now(), this.options.realClock)) {
        if (this.holds.has(platformId) || this.store.holds(platformId)) continue;
        await this.locateRow(platformId);
        // A request may have taken it meanwhile.
        if (this.holds.has(platformId) || this.store.holds(platformId)) continue;
        await this.take(platformId).catch(() => undefined);
      }
    } finally {
      this.sweeping = false;
    }
  }

  private async letGoIdle(): Promise<void> {
    if (this.closed) return;
    const now = Date.now();
    for (const [platformId, hold] of this.holds) {
      if (hold.state === 'served' && hold.inflight === 0 && now - hold.lastUsed >= this.idleMs) await this.letGo(platformId);
    }
  }

  /** Makes sure the engine knows a platform's row (a sweep may take one nobody asked this process for). */
  private async locateRow(platformId: string): Promise<void> {
    const row = await this.store.platformWithId(platformId);
    if (row !== undefined) this.sharing.learn([row], []);
  }

  private async bodyOf(incoming: Incoming): Promise<Uint8Array> {
    const method = incoming.method.toUpperCase();
    if (SAFE_METHODS.has(method)) return new Uint8Array();
    return incoming.bytes(this.sharing.bodyLimit(incoming.method, incoming.url) ?? MAX_JSON_BODY_BYTES);
  }

  /**
   * Passes the request to the holder and gives back its answer: `refused` when it never reached the holder (nobody
   * listens there: safe to send again), `lost` when the holder stopped answering it (its lease ran out meanwhile).
   */
  private async passOn(platformId: string, holder: { url: string }, incoming: Incoming, body: Uint8Array): Promise<{ kind: 'answered'; reply: WireReply } | { kind: 'refused' | 'lost' }> {
    const target = new URL(incoming.url);
    const headers = new Headers();
    for (const [name, value] of incoming.headerList?.() ?? []) if (!HOP_BY_HOP.has(name) && name !== FORWARDED_HEADER) headers.set(name, value);
    headers.set(FORWARDED_HEADER, this.passerHeader(incoming));
    const method = incoming.method.toUpperCase();
    const aborter = new AbortController();
    let stopWatching = true;
    // A holder that is alive renews its lease, however long the request takes; one that stopped lets it run out.
    const watch = setInterval(() => {
      void this.store.holderOf(platformId).then((now) => {
        if (now === undefined || !now.live || now.url !== holder.url) aborter.abort();
      }, () => undefined);
    }, Math.max(100, Math.floor(this.options.leaseTtlMs / 3)));
    try {
      const response = await fetch(new URL(`${target.pathname}${target.search}`, holder.url), {
        method,
        headers,
        redirect: 'manual',
        signal: aborter.signal,
        ...(SAFE_METHODS.has(method) ? {} : { body: body as Uint8Array<ArrayBuffer> }),
      });
      const answered: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name)) answered[name] = value;
      });
      if (response.ok && method !== 'HEAD' && response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
        // An event stream stays open: piped as it comes, and cut when the holder changes (its client reconnects).
        const streaming: StreamingReply = { status: response.status, headers: answered, body: null, stream: piped(response.body, aborter, () => clearInterval(watch)) };
        stopWatching = false;
        return { kind: 'answered', reply: streaming };
      }
      const reply: WireReply = { status: response.status, headers: answered, body: method === 'HEAD' ? null : await response.text() };
      if (reply.body === '' && response.status === 204) reply.body = null;
      return { kind: 'answered', reply };
    } catch (error) {
      return { kind: refusedConnection(error) ? 'refused' : 'lost' };
    } finally {
      if (stopWatching) clearInterval(watch);
    }
  }

  /**
   * `holder from time mac`: the MAC, under a key only the sandbox's servers derive, covers them with the request's method
   * and target, so a header seen on the wire between servers says nothing about another request, or a minute later.
   */
  private passerHeader(incoming: Incoming): string {
    const from = incoming.remoteAddress ?? '-';
    const time = String(Date.now());
    return `${this.store.holder} ${from} ${time} ${this.mac(this.store.holder, from, time, incoming)}`;
  }

  private mac(holder: string, from: string, time: string, incoming: Incoming): string {
    const target = new URL(incoming.url);
    const covered = [holder, from, time, incoming.method.toUpperCase(), `${target.pathname}${target.search}`].join('\u0000');
    return bytesToHex(hmac(sha256, this.forwardKey, new TextEncoder().encode(covered)));
  }

  /** The process that passed this request on, when its header is genuine (a peer holding the same secret key) and fresh. */
  private verifiedPasser(incoming: Incoming): PassedBy | undefined {
    const header = incoming.header(FORWARDED_HEADER);
    if (header === null) return undefined;
    const [holder, from, time, mac] = header.split(' ');
    if (holder === undefined || from === undefined || time === undefined || mac === undefined) return undefined;
    if (!(Math.abs(Date.now() - Number(time)) <= FORWARD_FRESH_MS)) return undefined;
    if (!constantTimeEqual(mac, this.mac(holder, from, time, incoming))) return undefined;
    return { holder, from: from === '-' ? undefined : from };
  }

  /** The request as from the client a peer passed it on for (brute-force limits count per client, not per peer). */
  private asFrom(incoming: Incoming, passedBy: PassedBy | undefined): Incoming {
    if (passedBy === undefined) return incoming;
    const { remoteAddress: _peer, ...rest } = incoming;
    return passedBy.from === undefined ? rest : { ...rest, remoteAddress: passedBy.from };
  }
}

interface PassedBy {
  readonly holder: string;
  readonly from: string | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function notHeldReply(): WireReply {
  const reply = errorReply(new ApiError(503, 'SERVICE_UNAVAILABLE', 'This server does not hold the platform of this request', undefined, { 'retry-after': '1' }));
  reply.headers[NOT_HELD_HEADER] = '1';
  return reply;
}

/** The 503 of a request the database did not answer; what it said goes to stderr (it may name hosts and users), once a second at most. */
let lastLogged = 0;
function unavailable(cause: unknown): ApiError {
  if (Date.now() - lastLogged > 1_000) {
    lastLogged = Date.now();
    console.error(`[railyard] the database did not answer (${cause instanceof Error ? cause.message : String(cause)}): requests answer 503 meanwhile`);
  }
  return new ApiError(503, 'SERVICE_UNAVAILABLE', "The sandbox's database cannot be reached right now: retry the request", undefined, { 'retry-after': '1' });
}

/** A body passed on from the holder, as a stream of this server's reply: ends when it ends, or when either side goes. */
function piped(body: ReadableStream<Uint8Array>, aborter: AbortController, ended: () => void): ReplyStream {
  const letGo = () => {
    aborter.abort();
    ended();
  };
  return new ReplyStream((sink) => {
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let stopped = false;
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || stopped) break;
          await sink.write(decoder.decode(value, { stream: true }));
        }
      } catch {
        // The holder went away or the watch cut it: the client reconnects.
      } finally {
        ended();
        sink.end();
      }
    })();
    return () => {
      stopped = true;
      letGo();
    };
  }, letGo);
}
