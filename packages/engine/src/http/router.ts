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
    const parts = path.split('/').slice(1);
    const allowed = new Set<HttpMethod>();
    const values: string[] = [];
    const walk = (at: Node<T>, depth: number): Match<T> | undefined => {
      if (depth === parts.length) {
        const route = at.routes.get(method as HttpMethod);
        if (route) {
          const params: Record<string, string> = {};
          route.names.forEach((name, i) => (params[name] = values[i]!));
          return { value: route.value, params };
        }
        for (const other of at.routes.keys()) allowed.add(other);
        return undefined;
      }
      const part = parts[depth]!;
      const child = at.statics.get(part);
      if (child) {
        const found = walk(child, depth + 1);
        if (found) return found;
      }
      if (at.param && part !== '') {
        let value: string;
        try {
          value = decodeURIComponent(part);
        } catch {
          return undefined;
        }
        values.push(value);
        const found = walk(at.param, depth + 1);
        values.pop();
        if (found) return found;
      }
      return undefined;
    };
    return walk(this.root, 0) ?? { allowed: [...allowed] };
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
