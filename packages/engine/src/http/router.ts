import type { Endpoint, HttpMethod } from '@railyard/contract';

/** A route match: what was bound to the path, and the path parameters. */
export interface Match<T> {
  readonly value: T;
  readonly params: Record<string, string>;
}

interface ParamRoute<T> {
  readonly segments: readonly string[];
  readonly value: T;
}

/**
 * Maps method + path to a bound endpoint. Static paths are one Map lookup; paths with `{params}` are matched segment by
 * segment, static segments winning over parameters (so `/customers/end-user-terms` beats `/customers/{customerId}`).
 */
export class Router<T> {
  private readonly staticRoutes = new Map<string, T>();
  private readonly staticPaths = new Map<string, Set<HttpMethod>>();
  private readonly paramRoutes: { method: HttpMethod; route: ParamRoute<T> }[] = [];

  add(endpoint: Pick<Endpoint, 'method' | 'path'>, value: T): void {
    if (!endpoint.path.includes('{')) {
      this.staticRoutes.set(`${endpoint.method} ${endpoint.path}`, value);
      const methods = this.staticPaths.get(endpoint.path) ?? new Set();
      methods.add(endpoint.method);
      this.staticPaths.set(endpoint.path, methods);
      return;
    }
    this.paramRoutes.push({ method: endpoint.method, route: { segments: endpoint.path.split('/').slice(1), value } });
  }

  /** The route for `method` and `path`, or the methods the path allows (empty: no such path). */
  find(method: string, path: string): Match<T> | { allowed: HttpMethod[] } {
    const found = this.staticRoutes.get(`${method} ${path}`);
    if (found !== undefined) return { value: found, params: {} };
    const allowed = new Set<HttpMethod>(this.staticPaths.get(path) ?? []);
    if (allowed.size > 0) return { allowed: [...allowed] };
    const parts = path.split('/').slice(1);
    for (const { method: routeMethod, route } of this.paramRoutes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (routeMethod === method) return { value: route.value, params };
      allowed.add(routeMethod);
    }
    return { allowed: [...allowed] };
  }
}

function matchSegments(segments: readonly string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.charCodeAt(0) === 123 /* { */) {
      if (part === '') return undefined;
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      (params ??= {})[segment.slice(1, -1)] = value;
    } else if (segment !== part) {
      return undefined;
    }
  }
  return params ?? {};
}
