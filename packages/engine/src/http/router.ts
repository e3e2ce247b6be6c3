import type { Endpoint, HttpMethod } from '@railyard/contract';

/** A route match: what was bound to the path, and the path parameters. */
export interface Match<T> {
  readonly value: T;
  readonly params: Record<string, string>;
}

/** One path segment's node: its static children, its parameter child, and the routes that end here, by method. */
interface Node<T> {
  readonly statics: Map<string, Node<T>>;
  param: Node<T> | undefined;
  readonly routes: Map<HttpMethod, { readonly value: T; readonly names: readonly string[] }>;
}

const node = <T>(): Node<T> => ({ statics: new Map(), param: undefined, routes: new Map() });

/**
 * Maps method + path to a bound endpoint through a tree of path segments, so a lookup costs the path's depth, not the
 * number of routes. Static segments win over parameters (`/customers/end-user-terms` beats `/customers/{customerId}`),
 * falling back to the parameter when the static branch has no route for the path.
 */
export class Router<T> {
  private readonly root = node<T>();

  add(endpoint: Pick<Endpoint, 'method' | 'path'>, value: T): void {
    let at = this.root;
    const names: string[] = [];
    for (const segment of endpoint.path.split('/').slice(1)) {
      if (segment.charCodeAt(0) === 123 /* { */) {
        names.push(segment.slice(1, -1));
        at = at.param ??= node();
      } else {
        let next = at.statics.get(segment);
        if (!next) at.statics.set(segment, (next = node()));
        at = next;
      }
    }
    if (!at.routes.has(endpoint.method)) at.routes.set(endpoint.method, { value, names });
  }

  /** The route for `method` and `path`, or the methods the path allows (empty: no such path). */
  find(method: string, path: string): Match<T> | { allowed: HttpMethod[] } {
    // Segments are read in place (no split), and the methods a path allows are only gathered on a miss: a lookup
    // allocates little more than its params.
    const found = this.walk(this.root, path, 1, [], (at, values) => {
      const route = at.routes.get(method as HttpMethod);
      if (!route) return undefined;
      const params: Record<string, string> = {};
      for (let i = 0; i < route.names.length; i++) params[route.names[i]!] = values[i]!;
      return { value: route.value, params };
    });
    if (found) return found;
    const allowed = new Set<HttpMethod>();
    this.walk(this.root, path, 1, [], (at) => {
      for (const other of at.routes.keys()) allowed.add(other);
      return undefined;
    });
    return { allowed: [...allowed] };
  }

  /**
   * Walks the segment of `path` starting at `start` (paths start with "/"), static branch first, then the parameter;
   * `end` is asked at each node where the path ends, and the first answer wins.
   */
  private walk<R>(at: Node<T>, path: string, start: number, values: string[], end: (at: Node<T>, values: string[]) => R | undefined): R | undefined {
    if (start > path.length) return end(at, values);
    let stop = path.indexOf('/', start);
    if (stop === -1) stop = path.length;
    const part = path.slice(start, stop);
    const child = at.statics.get(part);
    if (child) {
      const found = this.walk(child, path, stop + 1, values, end);
      if (found !== undefined) return found;
    }
    if (at.param && part !== '') {
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      values.push(value);
      const found = this.walk(at.param, path, stop + 1, values, end);
      values.pop();
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

/** The route table of the last endpoint list compiled: every engine serves the same endpoints, in the same order. */
let compiled: { readonly endpoints: readonly Endpoint[]; readonly router: Router<number> } | undefined;

/**
 * A router from method + path to the index of the endpoint in `endpoints`. Built once and shared by every engine that
 * serves the same endpoints (creating an engine should cost microseconds, and tests create thousands).
 */
export function routerFor(endpoints: readonly Endpoint[]): Router<number> {
  if (compiled && compiled.endpoints.length === endpoints.length && compiled.endpoints.every((e, i) => e === endpoints[i])) return compiled.router;
  const router = new Router<number>();
  endpoints.forEach((endpoint, index) => router.add(endpoint, index));
  compiled = { endpoints: [...endpoints], router };
  return router;
}
