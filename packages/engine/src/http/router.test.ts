import { describe, expect, it } from 'vitest';
import type { Endpoint } from '@railyard/contract';
import { Router, routerFor } from './router.js';

const route = (method: string, path: string) => ({ method, path }) as Pick<Endpoint, 'method' | 'path'>;

describe('Router', () => {
  const router = new Router<string>();
  router.add(route('GET', '/customers'), 'list');
  router.add(route('POST', '/customers'), 'create');
  router.add(route('GET', '/customers/end-user-terms'), 'terms');
  router.add(route('GET', '/customers/{customerId}'), 'retrieve');
  router.add(route('PATCH', '/customers/{customerId}'), 'update');
  router.add(route('POST', '/customers/{customerId}/kyc-link'), 'kyc-link');
  router.add(route('GET', '/customers/external-accounts'), 'external');
  router.add(route('POST', '/customers/external-accounts/{accountId}/verify'), 'verify');

  it('matches static paths, parameters (decoded), and prefers a static segment', () => {
    expect(router.find('GET', '/customers')).toEqual({ value: 'list', params: {} });
    expect(router.find('GET', '/customers/end-user-terms')).toEqual({ value: 'terms', params: {} });
    expect(router.find('GET', '/customers/Customer%3A42')).toEqual({ value: 'retrieve', params: { customerId: 'Customer:42' } });
    expect(router.find('POST', '/customers/c1/kyc-link')).toEqual({ value: 'kyc-link', params: { customerId: 'c1' } });
  });

  it('falls back to a parameter when the static branch has no route for the rest of the path', () => {
    // `external-accounts` is a static child of /customers, but /customers/external-accounts/kyc-link is a customer's.
    expect(router.find('POST', '/customers/external-accounts/kyc-link')).toEqual({ value: 'kyc-link', params: { customerId: 'external-accounts' } });
    expect(router.find('POST', '/customers/external-accounts/a1/verify')).toEqual({ value: 'verify', params: { accountId: 'a1' } });
  });

  it('answers the allowed methods of a known path, and none for an unknown one or a malformed parameter', () => {
    expect(router.find('DELETE', '/customers')).toEqual({ allowed: ['GET', 'POST'] });
    expect(router.find('DELETE', '/customers/c1')).toEqual({ allowed: ['GET', 'PATCH'] });
    expect(router.find('GET', '/nothing')).toEqual({ allowed: [] });
    expect(router.find('GET', '/customers/%E0%A4%A')).toEqual({ allowed: [] });
    expect(router.find('GET', '/customers/')).toEqual({ allowed: [] });
  });

  it('is built once for every engine serving the same endpoints', () => {
    const endpoints = [route('GET', '/a'), route('GET', '/b/{id}')] as Endpoint[];
    const first = routerFor(endpoints);
    expect(routerFor([...endpoints])).toBe(first);
    expect(routerFor([endpoints[1]!, endpoints[0]!])).not.toBe(first);
    expect(routerFor(endpoints).find('GET', '/b/x')).toEqual({ value: 1, params: { id: 'x' } });
  });
});
