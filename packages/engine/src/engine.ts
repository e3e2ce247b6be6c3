import { ActivityLog } from './event-stream/activity.js';
import { EventFeed } from './event-stream/feed.js';
import { loggedPathOf } from './server/secret-paths.js';
import { eventStreamRoutes } from './event-stream/routes.js';
import { buildOpenApiDocument, endpoints, type PlatformCreateRequest, type TypedWebhookEvent, type WebhookEventType } from '@railyard/contract';
import { accountRoutes } from './accounts/routes.js';
import { openPlatformAccounts } from './accounts/internal-accounts.js';
import { type Clock, RealClock, VirtualClock } from './core/clock.js';
import { type OutboxEvent, TenantContext } from './core/context.js';
import { IdempotencyKeys } from './core/idempotency.js';
import { type IdGenerator, randomIds } from './core/ids.js';
import { Scheduler } from './core/scheduler.js';
import { createSealer } from './core/secrets.js';
import { createMemoryStore, type Store } from './core/store.js';
import { CredentialDirectory, type CredentialKind } from './core/directory.js';
import { FailureThrottle, type ThrottleLimits } from './core/throttle.js';
import { ApiError } from './core/errors.js';
import { beneficialOwnerRoutes } from './beneficial-owners/routes.js';
import { customerRoutes } from './customers/routes.js';
import { externalAccountRoutes } from './external-accounts/routes.js';
import { documentRoutes } from './documents/routes.js';
import { contactVerificationRoutes } from './contact/routes.js';
import { hostedErrorReply, hostedRoutes } from './hosted/routes.js';
import { platformRoutes } from './platforms/routes.js';
import { createHttpSurface, type FetchFunction, type Incoming } from './http/app.js';
import type { WireReply } from '@railyard/contract';
import { DEFAULT_CREDENTIALS, parseBasic, type Platform, PlatformRegistry } from './platforms/registry.js';
import * as control from './sandbox/control.js';
import { controlPlaneRoutes, publicPlatform } from './sandbox/routes.js';
import { verificationJobs, verificationRoutes } from './verification/routes.js';
import { externalAccountPort, ownershipJobs, ownershipRoutes } from './ownership/routes.js';
import { beneficiaryTrustRoutes, factorResetJobs, scaFactorRoutes, scaLoginRoutes } from './sca/routes.js';
import { paymentJobs, paymentRoutes } from './quotes/routes.js';
import { cardJobs, cardRoutes } from './cards/routes.js';
import { stablecoinJobs, stablecoinRoutes } from './stablecoins/routes.js';
import { authenticateWithTokens } from './tokens/tokens.js';
import { tokenRoutes } from './tokens/routes.js';
import { lookupRoutes } from './lookups/routes.js';
import { invitationJobs, invitationRoutes } from './invitations/routes.js';
import { authenticateAgent, platformOfDeviceCode } from './agents/auth.js';
import { deviceCodeKey } from './agents/agents.js';
import { agentRoutes } from './agents/routes.js';
import { bulkImportJobs, bulkImportRoutes } from './bulk-import/routes.js';
import { RETRY_JOB, WebhookDispatcher, type WebhookFetch } from './webhooks/delivery.js';
import { webhookLogger, type WebhookLogEntry } from './webhooks/log.js';
import { nextEvent } from './webhooks/outbox.js';
import { webhookRoutes } from './webhooks/routes.js';
import { authRoutes } from './auth/routes.js';
import { delegatedKeyRoutes } from './delegated-keys/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { exportWebhookKeyPem, generateWebhookKey, importWebhookKey, type WebhookKey } from './webhooks/signing.js';
import { type DurableBackend, isShared, type LoadedPlatform, type StoredPlatform } from './durability/backend.js';
import { Durability, later } from './durability/units.js';
import { type Location, locate } from './durability/locate.js';
import { platformOfRow, rowOfPlatform, WEBHOOK_KEY_CONTEXT } from './durability/platform-rows.js';

/** Stored records read per turn of the event loop while a durable engine reads its records in the background (a few ms). */
const RECORDS_READ_PER_TURN = 2_000;

/** Options of {@link createEngine}. Every port has an in-memory default. */
export interface EngineOptions {
  /** `'virtual'` (default: time moves only when advanced), `'real'`, or your own Clock. */
  clock?: 'virtual' | 'real' | Clock;
  /** Where state lives; in memory by default. */
  store?: Store;
  /**
   * A durable store behind the memory one (`@railyard/engine/sqlite`): the engine starts from what it holds, and every
   * request's changes are in it before the request is answered. Needs `secretKey` (stored secrets are sealed under it).
   */
  durable?: DurableBackend;
  /** Id generator; random v4 ids by default (`sequentialIds()` gives predictable ones). */
  ids?: IdGenerator;
  /** The default platform. Its credentials default to `sandbox-client-id` / `sandbox-client-secret`. */
  platform?: PlatformCreateRequest;
  /**
   * The most platforms this engine holds, the default one included (default 10,000): `POST /_sandbox/platforms`
   * beyond it is refused with 409 CONFLICT (`details.reason: PLATFORM_LIMIT_REACHED`), so one credential cannot fill
   * the server's memory.
   */
  maxPlatforms?: number;
  /**
   * Brute-force limits on credentials: failed Basic-auth attempts and unknown device codes are counted per credential
   * and per source address over a window of real time, and past a limit every attempt is 429 RATE_LIMITED with
   * `Retry-After` until the window frees (see {@link ThrottleLimits}; in process there is no source address).
   * `false` turns them off.
   */
  authThrottle?: ThrottleLimits | false;
  /**
   * The key secrets kept in the engine's state are sealed under (a card's number and CVV, a wallet's mnemonic:
   * XChaCha20-Poly1305, core/secrets.ts): text of at least 32 bytes, or at least 32 bytes, of random data (for example
   * `openssl rand -base64 32`). Snapshots carry those secrets sealed only, so an engine restoring one opens them only
   * with the same key; under another key they are drawn anew when next shown (docs/cards.md, docs/wallet-auth.md).
   * Default: a random key per engine. Fewer than 32 bytes throws a TypeError.
   */
  secretKey?: string | Uint8Array;
  /** Webhook delivery. */
  webhooks?: {
    /** The transport deliveries go through: the global `fetch` by default; give your app's handler to deliver in process. */
    fetch?: WebhookFetch;
    /** A PKCS#8 PEM P-256 private key every platform signs with, instead of a fresh key per platform. */
    signingKeyPem?: string;
    /**
     * For a sandbox shared over the internet (`railyard serve --public`): webhooks go to public addresses only, so
     * nobody with sandbox credentials can make it send requests into the network it runs in. An endpoint that is not
     * http(s), names `localhost`, or is a literal loopback, private, link-local, unspecified or other special-purpose
     * address (in any notation: `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) is refused with a 400 naming the field
     * (`PATCH /config` `webhookEndpoint`, `POST /sandbox/webhooks/test` `url`) and never attempted; host names are
     * checked by the transport after resolution, so `fetch` must be given: `publicOnlyWebhookFetch` (Node, from
     * `@railyard/engine/server`), which connects only to the addresses it checked. What a receiver answers is not shown: a test send reports its status,
     * not its body. Default false.
     */
    publicEndpointsOnly?: boolean;
    /**
     * Hears every delivery attempt once it is recorded, a test send's included (`railyard serve --log` prints
     * {@link formatWebhookLogLine} of each). The entry has no body, signature or query string.
     */
    onDelivery?: (entry: WebhookLogEntry) => void;
  };
}

/**
 * An outbox event of type `T`: its `type` is that name and its `data` the resource the type carries (a payment for
 * `OUTGOING_PAYMENT.*`, a customer for `CUSTOMER.*`), as the webhook sends it. Without `T`, the union of every type,
 * which a `switch (event.type)` narrows.
 */
export type OutboxEventOf<T extends WebhookEventType = WebhookEventType> = Omit<OutboxEvent, 'type' | 'data'> & Extract<TypedWebhookEvent, { type: T }>;

/** The awaitable outbox: events as the engine emits them, and the state of their webhook deliveries. */
export interface WebhookControls {
  /**
   * The next event of `type` (any type when omitted) this call has not returned yet, oldest first: already emitted ones
   * first, else the next one emitted. Rejects after `timeoutMs` (default 5000) of real time.
   *
   * @example
   * ```ts
   * import assert from 'node:assert/strict';
   * import { createEngine } from '@railyard/engine';
   * import { createClient } from '@railyard/client';
   *
   * const engine = createEngine({ platform: { regulated: true } }); // individuals are decided at creation
   * const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
   * const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
   * const event = await engine.webhooks.next('CUSTOMER.KYC_APPROVED');
   * assert.equal(event.data.id, customer.id); // typed: the customer, as its GET returns it
   * ```
   */
  next<T extends WebhookEventType = WebhookEventType>(type?: T, options?: { platform?: Platform | string; timeoutMs?: number }): Promise<OutboxEventOf<T>>;
  /** Resolves once no delivery attempt is under way (retries waiting on the clock do not count). */
  settled(): Promise<void>;
  /** The platform's signing public key, SPKI PEM. */
  publicKey(platform?: Platform | string): Promise<string>;
}

/** The in-process mirror of the `/_sandbox/` control plane, for one platform. */
export interface SandboxControls {
  /** Current time and clock mode. */
  clock(): ReturnType<typeof control.clockState>;
  /** Advances the virtual clock by `ms`, running due jobs in order. */
  advance(ms: number): ReturnType<typeof control.clockState>;
  reset(): void;
  /**
   * The platform's state, sharing the engine's records: deeply frozen (copy it with `structuredClone` to edit it).
   * Taking one costs no copy, and restoring one of the engine's own snapshots needs no check.
   */
  snapshot(): ReturnType<typeof control.snapshot>;
  /** Replaces the platform's state with a snapshot (checked in full unless it is one of this engine's own). */
  restore(snapshot: unknown): void;
  events(query?: { limit?: number; cursor?: string; type?: string }): ReturnType<typeof control.listEvents>;
}

/** A running sandbox: the whole API as `fetch`, plus in-process controls. */
export interface Engine {
  /**
   * The whole API: give it a Request under `/2025-10-13` (or `/_sandbox/…`), or a URL and its init as to the global
   * `fetch`, get the Response. Bound; pass it around: it is assignable to `typeof fetch`.
   */
  readonly fetch: FetchFunction;
  /**
   * Serves a request given as an {@link Incoming}, without WHATWG objects (the standalone server uses it).
   * @internal
   */
  readonly handle: (incoming: Incoming) => Promise<WireReply>;
  readonly clock: Clock;
  /** The platform created at start. */
  readonly defaultPlatform: Platform;
  /** Every platform of the engine, the default one first, in the order they were created. */
  platforms(): readonly Platform[];
  /** Creates another platform (tenant) with its own credentials and options. */
  createPlatform(options?: PlatformCreateRequest): ReturnType<typeof publicPlatform>;
  /** Control-plane moves for a platform (default: the default platform). */
  sandbox(platform?: Platform | string): SandboxControls;
  /** Emitted events and webhook deliveries, awaitable. */
  readonly webhooks: WebhookControls;
  /**
   * The OpenAPI 3.1 document of everything this engine serves. Its `servers` entry names the standalone default
   * address; `GET /_sandbox/openapi.json` names the origin it is asked at.
   */
  openapi(): Record<string, unknown>;
  /** Stops timers of a real clock (call on shutdown). */
  close(): void;
  /**
   * For a `durable` backend several processes share: what the process around the engine (server/shared.ts) needs to
   * serve the platforms it holds and pass on the others' requests.
   * @internal
   */
  readonly sharing?: EngineSharing;
}

/**
 * The engine's side of a sandbox several processes share: it serves only the platforms this process holds, loaded
 * when taken and dropped when let go or lost.
 * @internal
 */
export interface EngineSharing {
  /** The platform a request is for (without authenticating it). */
  locate(method: string, url: string, authorization: string | null): Location;
  /** Platforms and credential directory entries another process stored, learned from the shared store. */
  learn(platforms: readonly StoredPlatform[], owners: readonly (readonly [id: string, platformId: string])[]): void;
  /** Whether the platform's state is in memory here. */
  serving(platformId: string): boolean;
  /** Serves a platform this process just took: its state goes into memory, due real-clock jobs run, deliveries resume. */
  serve(loaded: LoadedPlatform): void;
  /** Waits until the platform's changes are stored, then forgets its state (it is let go). */
  retire(platformId: string): Promise<void>;
  /** Forgets platforms another process took over (found when renewing their leases). */
  lose(platformIds: readonly string[]): void;
  /** Called with platforms another process took over (their state here is already forgotten). */
  onLost(listener: (platformIds: readonly string[]) => void): void;
  /** Called with each platform created here (this process holds it from then on). */
  onCreated(listener: (platformId: string) => void): void;
  /** Resolves once every change so far is stored (the default platform a first start created, for one). */
  stored(): Promise<void>;
  /** The most bytes a request's body may have (undefined: no such route, or the default). */
  bodyLimit(method: string, url: string): number | undefined;
}

/**
 * Creates a sandbox engine: the whole API in process, with a virtual clock unless told otherwise, and a default platform
 * whose credentials are {@link DEFAULT_CREDENTIALS}.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { createEngine } from '@railyard/engine';
 * import { createClient } from '@railyard/client';
 *
 * const engine = createEngine();
 * const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
 * const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
 * assert.equal((await client.customers.retrieve(customer.id)).id, customer.id);
 * engine.sandbox().advance(60_000); // time moves only when you say so: run what is due in the next minute
 * engine.close();
 * ```
 */
export function createEngine(options: EngineOptions = {}): Engine {
  if (options.durable !== undefined && (options.store !== undefined || options.secretKey === undefined)) {
    throw new TypeError('a durable engine keeps its own store and needs secretKey: give durable without store, with secretKey');
  }
  const durability = options.durable === undefined ? undefined : new Durability(options.durable);
  /** A backend several processes share: only the platforms this process holds are served here. */
  const shared = options.durable !== undefined && isShared(options.durable) ? options.durable : undefined;
  const defaultClientId = options.platform?.clientId ?? DEFAULT_CREDENTIALS.clientId;
  const storedDefault = options.durable?.platforms().find((row) => row.clientId === defaultClientId);
  const clock = options.clock === 'real' ? new RealClock()
    : options.clock === 'virtual' || options.clock === undefined ? new VirtualClock(storedDefault?.clockMs ?? undefined) : options.clock;
  // A durable engine's store is always its own memory store, which the stored records are loaded into.
  const memoryStore = options.store === undefined ? createMemoryStore(durability === undefined ? {} : { journal: durability }) : undefined;
  const store: Store = options.store ?? memoryStore!;
  let closed = false;
  /** The platforms whose records a durable (unshared) store gave back at start. */
  const storedAtStart = new Set<string>();
  const ids = options.ids ?? randomIds;
  const secrets = createSealer(options.secretKey);
  const scheduler = new Scheduler(clock, undefined, undefined, durability?.jobJournal);
  const createdListeners: ((platformId: string) => void)[] = [];
  const platforms = new PlatformRegistry(ids, () => clock.now(), options.maxPlatforms, durability && ((platform) => {
    durability.putPlatform(rowOfPlatform(platform, secrets), true);
    for (const listener of createdListeners) listener(platform.id);
  }));
  const directory = new CredentialDirectory(store);
  const idempotency = new IdempotencyKeys();
  const contexts = new Map<string, TenantContext>();
  const keys = new Map<string, Promise<WebhookKey>>();
  const sharedKey = options.webhooks?.signingKeyPem === undefined ? undefined : importWebhookKey(options.webhooks.signingKeyPem);
  const keyOf = (platformId: string): Promise<WebhookKey> => {
    let key = keys.get(platformId);
    if (!key) keys.set(platformId, (key = sharedKey ?? (durability ? durableKeyOf(platformId) : generateWebhookKey())));
    return key;
  };
  /** A durable platform's key: the one it stored, or a new one, stored (sealed) before anything is signed with it. */
  const durableKeyOf = async (platformId: string): Promise<WebhookKey> => {
    const stored = durability!.row(platformId)?.webhookKey;
    const pem = stored === null || stored === undefined ? undefined : secrets.open(stored, `${WEBHOOK_KEY_CONTEXT}${platformId}`);
    if (pem !== undefined) return importWebhookKey(pem);
    try {
      const key = await generateWebhookKey();
      const sealed = secrets.seal(await exportWebhookKeyPem(key), `${WEBHOOK_KEY_CONTEXT}${platformId}`);
      // The row as it is after the awaits (its clock may have moved meanwhile).
      durability!.updatePlatform(platformId, { webhookKey: sealed });
      await durability!.durable();
      return key;
    } catch (error) {
      keys.delete(platformId); // not kept: the next use tries again
      throw error;
    }
  };
  const publicEndpointsOnly = options.webhooks?.publicEndpointsOnly === true;
  // The global fetch resolves host names itself, after any check could be made: a public sandbox needs a transport
  // that checks what it connects to, and this module stays free of Node's network modules (it also runs in browsers).
  if (publicEndpointsOnly && options.webhooks?.fetch === undefined) {
    throw new TypeError('webhooks.publicEndpointsOnly needs webhooks.fetch: a transport that checks resolved addresses, such as publicOnlyWebhookFetch');
  }
  const activity = new ActivityLog();
  const dispatcher = new WebhookDispatcher({
    fetch: options.webhooks?.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    keyOf,
    publicEndpointsOnly,
    ...(durability === undefined ? {} : { afterDurable: (platformId: string, task: () => void) => durability.afterDurable(platformId, task) }),
    // Each attempt goes to the platform's log followers, and to the caller's hook (`railyard serve --log`).
    onAttempt: webhookLogger((entry) => {
      activity.webhook(entry);
      options.webhooks?.onDelivery?.(entry);
    }),
  });

  const feed = new EventFeed({
    listen: (listener) => dispatcher.listen(listener),
    keyOf,
    ...(durability === undefined ? {} : { afterDurable: (platformId: string, task: () => void) => durability.afterDurable(platformId, task) }),
  });

  // The default platform runs on the engine's clock. With a virtual clock, every other platform gets a clock of its
  // own, starting at the engine's time: one platform's advance never moves another's (suites running in parallel
  // against one server, each as its own platform). A real or caller-driven clock is one time for all.
  // Shared, every platform has a clock of its own, the default one too: another process may have moved it.
  const platformSchedulers = new Map<string, Scheduler>();
  const schedulerOf = (platform: Platform): Scheduler => {
    if ((platform.id === defaultPlatform.id && !shared) || !(clock instanceof VirtualClock)) return scheduler;
    const own = scheduler.withClock(new VirtualClock(durability?.row(platform.id)?.clockMs ?? clock.now()));
    platformSchedulers.set(platform.id, own);
    return own;
  };

  const tenantIfServed = (platformId: string): TenantContext | undefined => contexts.get(platformId);
  const tenant = (platform: Platform): TenantContext => {
    let context = contexts.get(platform.id);
    if (!context) {
      // A platform another process holds is never served from an empty memory (the process around passes its requests on).
      if (shared && !shared.holds(platform.id)) throw notHeldHere();
      const platformScheduler = schedulerOf(platform);
      context = new TenantContext(platform, store.tenant(platform.id), platformScheduler.clock, ids, platformScheduler, dispatcher, directory, secrets, durability);
      contexts.set(platform.id, context);
      // Before the platform's first request is served: no request, a read included, ever sees them appear. A platform
      // whose records came from the durable store has them already (made with it, or by its last reset or restore):
      // looking would read all its accounts before the first answer.
      if (!storedAtStart.has(platform.id)) openPlatformAccounts(context);
    }
    return context;
  };

  let openapiDocument: Record<string, unknown> | undefined;
  const openapi = () => (openapiDocument ??= buildOpenApiDocument(endpoints, { title: 'Railyard sandbox' }));

  // Timed transitions of every area: each job runs against the platform that scheduled it.
  // Registered group by group: one object spread from all the groups turned into a slow dictionary-mode object that
  // cost most of a createEngine() (an engine per test is the common case).
  const jobGroups: readonly Readonly<Record<string, (context: TenantContext, payload: unknown) => void>>[] = [
    verificationJobs, ownershipJobs(externalAccountPort), paymentJobs, cardJobs, stablecoinJobs, invitationJobs, factorResetJobs, bulkImportJobs,
    { [RETRY_JOB]: dispatcher.retryJob },
  ];
  for (const group of jobGroups) {
    for (const [kind, run] of Object.entries(group)) {
      scheduler.register(kind, (job) => {
        const platform = platforms.byId(job.tenantId);
        if (platform) run(tenant(platform), job.payload);
      });
    }
  }

  // A durable engine takes back its platforms (the default one among them, by client id) before anything else.
  for (const row of options.durable?.platforms() ?? []) platforms.adopt(platformOfRow(row, secrets));
  const defaultPlatform = platforms.withClientId(defaultClientId) ?? platforms.create({
    name: 'Default sandbox platform',
    clientId: DEFAULT_CREDENTIALS.clientId,
    clientSecret: DEFAULT_CREDENTIALS.clientSecret,
    ...options.platform,
  });
  const givenSecret = options.platform?.clientSecret ?? DEFAULT_CREDENTIALS.clientSecret;
  if (defaultPlatform.clientSecret !== givenSecret) {
    throw new Error(`the stored default platform ${defaultClientId} has another client secret than the one given: start with the secret it was created with, or with another data store`);
  }
  const lostListeners: ((platformIds: readonly string[]) => void)[] = [];
  const lose = (platformIds: readonly string[]) => {
    durability!.drop(platformIds);
    for (const platformId of platformIds) forget(platformId);
    for (const listener of lostListeners) listener(platformIds);
  };
  /** Forgets a platform's state here, without storing anything (let go, or lost to another process). */
  const forget = (platformId: string) => {
    const context = contexts.get(platformId);
    if (context === undefined) return;
    context.retire();
    feed.endFor(platformId);
    activity.endFor(platformId);
    contexts.delete(platformId);
    keys.delete(platformId);
    memoryStore!.unload(platformId);
    const own = platformSchedulers.get(platformId);
    if (own) {
      own.unloadTenant(platformId);
      own.stop();
      platformSchedulers.delete(platformId);
    } else {
      scheduler.unloadTenant(platformId);
    }
  };
  if (options.durable && durability) {
    durability.attach({
      clockOf: (platformId) => (clock instanceof VirtualClock ? tenantIfServed(platformId)?.clock.now() : undefined),
      fencedOut: (platformIds) => lose(platformIds),
    });
  }
  if (options.durable && durability && !shared) {
    // Records are read in the background, a few at a time between requests, and a collection all at once when first
    // used: a server on a million records answers in seconds, not after reading them all.
    options.durable.forEachCollection((partition, collection, entries, next) => {
      storedAtStart.add(partition);
      memoryStore!.loadLater(partition, collection, entries[Symbol.iterator](), next);
    });
    const jobs = options.durable.jobs();
    for (const platform of platforms.all()) {
      const context = tenant(platform);
      context.scheduler.loadJobs(jobs.get(platform.id) ?? []);
    }
    // What came due while the server was down runs now, in order.
    if (clock.mode === 'real') for (const platform of platforms.all()) tenant(platform).scheduler.runDueNow();
    // Deliveries cut short by the stop are sent again once the events are read (finding them reads every event).
    const readOn = () => {
      if (closed) return;
      try {
        if (memoryStore!.loadSome(RECORDS_READ_PER_TURN)) return later(readOn);
        for (const platform of platforms.all()) dispatcher.resume(tenant(platform));
      } catch (error) {
        // The store failed under the reader (its file unreadable, a record corrupt): every request that needs that
        // collection fails the same way, never answers from part of it; a restart reads it again.
        console.error(`[railyard] reading the stored records failed: ${(error as Error).message}; restart the server once the data directory is sound`);
      }
    };
    later(readOn);
  }
  // The default platform is served from the start: its own accounts are there before anything else draws an id. Shared,
  // only by the process that created it; the others load it when they take it.
  if (!shared || shared.holds(defaultPlatform.id)) tenant(defaultPlatform);

  const credentialLookup = { platforms, tenantOf: tenant, directory };
  const throttle = options.authThrottle === false ? undefined : new FailureThrottle(options.authThrottle);
  /** Authenticates under the brute-force limits: a 401 counts as a failed attempt of the credential and the source. */
  const throttled = <T>(credential: string | undefined, source: string | undefined, authenticate: () => T): T => {
    if (throttle === undefined) return authenticate();
    throttle.check(credential, source);
    try {
      return authenticate();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throttle.fail(credential, source);
      throw error;
    }
  };
  /** The context of the platform the credential directory says owns `key`. */
  const tenantOwning = (kind: CredentialKind, key: string): TenantContext | undefined => {
    const owner = directory.owner(kind, key);
    const platform = owner === undefined ? undefined : platforms.byId(owner);
    return platform === undefined ? undefined : tenant(platform);
  };
  const http = createHttpSurface(
    [...customerRoutes, ...bulkImportRoutes, ...documentRoutes, ...contactVerificationRoutes, ...hostedRoutes, ...accountRoutes, ...platformRoutes, ...beneficialOwnerRoutes, ...externalAccountRoutes, ...ownershipRoutes(externalAccountPort), ...beneficiaryTrustRoutes, ...scaLoginRoutes, ...scaFactorRoutes, ...paymentRoutes, ...cardRoutes, ...stablecoinRoutes, ...tokenRoutes, ...invitationRoutes({ ownerOf: (code) => tenantOwning('invitation', code) }), ...agentRoutes, ...webhookRoutes(dispatcher, keyOf), ...authRoutes, ...delegatedKeyRoutes, ...lookupRoutes, ...verificationRoutes, ...controlPlaneRoutes(platforms, openapi), ...eventStreamRoutes(feed, activity), ...dashboardRoutes],
    {
      authenticate: (header, source) => throttled(parseBasic(header)?.clientId, source, () => authenticateWithTokens(platforms, tenant, directory, header)),
      authenticateAgent: (header, source) => throttled(undefined, source, () => authenticateAgent(credentialLookup, header)),
      platformOfCredential: (params, source) => {
        if (params.code === undefined) return undefined;
        const key = deviceCodeKey(params.code);
        throttle?.check(key, source);
        const issuer = platformOfDeviceCode(credentialLookup, params.code);
        if (issuer === undefined) throttle?.fail(key, source);
        return issuer;
      },
      tenant, idempotency, platformById: (id) => platforms.byId(id),
      publicError: hostedErrorReply, afterRequest: () => scheduler.runSoon(),
      answered: (platformId, incoming, reply, durationMs) => {
        if (!activity.followed(platformId)) return;
        activity.request(platformId, { method: incoming.method, path: loggedPathOf(incoming.url), status: reply.status, durationMs, requestId: reply.headers['x-request-id'] });
      },
      ...(durability === undefined ? {} : {
        unit: async <T>(context: TenantContext, work: () => Promise<T>) => {
          const value = await durability.serialize(context.platform.id, work, () => scheduler.runSoon());
          // Shared: the platform was let go or lost while this ran (its state here forgotten): nothing of it is stored.
          if (shared && contexts.get(context.platform.id) !== context) throw notHeldHere();
          return value;
        },
      }),
    },
  );

  const sharing: EngineSharing | undefined = shared && {
    locate(method, url, authorization) {
      const route = http.route(method, url);
      return route === undefined ? { kind: 'anywhere' } : locate({ platforms, directory }, route.endpoint, route.params, authorization);
    },
    learn(rows, owners) {
      for (const row of rows) if (platforms.byId(row.id) === undefined) platforms.adopt(platformOfRow(row, secrets));
      directory.learn(owners);
    },
    serving: (platformId) => contexts.has(platformId),
    serve(loaded) {
      if (contexts.has(loaded.row.id)) throw new Error(`platform ${loaded.row.id} is served here already`);
      const platform = platformOfRow(loaded.row, secrets);
      platforms.adopt(platform);
      durability!.adoptRow(loaded.row);
      directory.learn(loaded.owners);
      memoryStore!.load(platform.id, new Map(Array.from(loaded.collections, ([name, { entries }]) => [name, entries])), new Map(Array.from(loaded.collections, ([name, { next }]) => [name, next])));
      const context = tenant(platform);
      context.scheduler.loadJobs(loaded.jobs);
      if (clock.mode === 'real') context.scheduler.runDueNow();
      dispatcher.resume(context);
    },
    async retire(platformId) {
      await durability!.durable();
      forget(platformId);
    },
    lose,
    onLost: (listener) => void lostListeners.push(listener),
    onCreated: (listener) => void createdListeners.push(listener),
    stored: () => durability!.durable(),
    bodyLimit: (method, url) => http.route(method, url)?.endpoint.maxBodyBytes,
  };

  const platformOf = (p: Platform | string | undefined): Platform => {
    if (p === undefined) return defaultPlatform;
    if (typeof p !== 'string') return p;
    const found = platforms.all().find((x) => x.id === p || x.clientId === p);
    if (!found) throw new Error(`unknown platform ${p}`);
    return found;
  };

  return {
    fetch: http.fetch,
    handle: http.handle,
    clock,
    defaultPlatform,
    platforms: () => [defaultPlatform, ...platforms.all().filter((platform) => platform !== defaultPlatform)],
    createPlatform: (opts) => publicPlatform(platforms.create(opts)),
    sandbox(p) {
      const t = tenant(platformOf(p));
      return {
        clock: () => control.clockState(t),
        advance: (ms) => control.advanceClock(t, ms),
        reset: () => control.reset(t),
        snapshot: () => control.frozenSnapshot(t),
        restore: (s) => control.restore(t, s),
        events: (q = {}) => control.listEvents(t, { limit: q.limit ?? 20, cursor: q.cursor, type: q.type }),
      };
    },
    webhooks: {
      // The outbox holds what areas emitted, each `data` the resource of its type: the contract's typing of it holds.
      next: <T extends WebhookEventType>(type?: T, opts: { platform?: Platform | string; timeoutMs?: number } = {}) =>
        nextEvent(dispatcher, tenant(platformOf(opts.platform)), type, opts.timeoutMs ?? 5_000) as Promise<OutboxEventOf<T>>,
      settled: () => dispatcher.settled(),
      publicKey: async (p) => (await keyOf(platformOf(p).id)).publicKeyPem,
    },
    openapi,
    ...(sharing === undefined ? {} : { sharing }),
    close: () => {
      closed = true;
      feed.close();
      activity.endFor();
      scheduler.stop();
      for (const own of platformSchedulers.values()) own.stop();
      durability?.close();
    },
  };
}

/** A request reached a process that does not hold its platform (the shared server passes such requests on). */
function notHeldHere(): ApiError {
  return new ApiError(503, 'SERVICE_UNAVAILABLE', 'This platform is being served by another server of the sandbox right now: retry the request', undefined, { 'retry-after': '1' });
}
