/**
 * Turning a route (`@railyard/contract/routes`) plus arguments into a request: path parameters, query string, body types.
 * @module
 */
import type { Route, RouteTypes } from '@railyard/contract/routes';
import { RailyardError } from './errors.js';

/** The types a route carries (see `Route` in `@railyard/contract/routes`). */
type TypesOf<E extends Route> = NonNullable<E['types']> & RouteTypes;

/**
 * A query value as a caller writes it. Where the contract coerces (`limit` is parsed from a string) any number,
 * string or boolean is accepted; `'true' | 'false'` flags also take a boolean.
 */
export type QueryValue<V> = unknown extends V
  ? string | number | boolean | undefined
  : [Exclude<V, undefined>] extends ['true' | 'false']
    ? V | boolean
    : V;

/**
 * The query of an endpoint as a caller writes it (every field optional where the contract has a default; coerced
 * fields and `'true' | 'false'` flags take {@link QueryValue}s): a generated, named type.
 */
export type QueryParams<E extends Route> = TypesOf<E>['query'];

/** The request body of an endpoint as a caller writes it (fields with defaults optional). */
export type BodyParams<E extends Route> = TypesOf<E>['body'];

/** The path parameters of an endpoint, e.g. `{ customerId: string }`. */
export type PathParams<E extends Route> = TypesOf<E>['params'];

/** The success result of an endpoint (`void` for 204). */
export type ResultOf<E extends Route> = TypesOf<E>['result'];

/** The item type of a paginated endpoint's response. */
export type PageItemOf<E extends Route> = ResultOf<E> extends { data: Array<infer Item> } ? Item : never;

/** The `params` part of {@link CallArgs}: required when the endpoint's path has parameters. */
export type ParamsArg<E extends Route> = PathParams<E> extends undefined ? { params?: undefined } : { params: PathParams<E> };
/** The `query` part of {@link CallArgs}: optional, present when the endpoint takes a query. */
export type QueryArg<E extends Route> = TypesOf<E>['query'] extends undefined ? { query?: undefined } : { query?: QueryParams<E> };
/** The `body` part of {@link CallArgs}: required when the endpoint takes a body (unless `bodyOptional`). */
export type BodyArg<E extends Route> = BodyParams<E> extends undefined
  ? { body?: undefined }
  : TypesOf<E>['bodyOptional'] extends true
    ? { body?: BodyParams<E> }
    : { body: BodyParams<E> };

/** The arguments of a typed call to an endpoint: `params` when its path has any, `query`, `body`. */
export type CallArgs<E extends Route> = ParamsArg<E> & QueryArg<E> & BodyArg<E>;

/**
 * Fills the `{name}` parameters of an endpoint path, URL-encoding each value.
 * Throws a {@link RailyardError} for a missing or empty parameter rather than calling another route
 * (`/customers/` with an empty id would otherwise list customers).
 */
export function buildPath(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || String(value) === '') {
      throw new RailyardError(`Missing path parameter "${name}" for ${template}.`);
    }
    return encodeURIComponent(String(value));
  });
}

/**
 * Serializes a query object: `undefined` and `null` are dropped, booleans become `true`/`false`, dates ISO strings,
 * arrays repeat the key.
 */
export function serializeQuery(query: Record<string, unknown> | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (!query) return params;
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Date) params.append(key, value.toISOString());
    else if (typeof value === 'object') params.append(key, JSON.stringify(value));
    else params.append(key, String(value));
  };
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) value.forEach((item) => add(key, item));
    else add(key, value);
  }
  return params;
}
