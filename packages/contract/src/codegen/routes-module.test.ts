import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../endpoints.js';
import * as routes from '../routes.js';
import { endpointGroups, renderModules, ROUTES_MODULE_PATH, TYPES_MODULE_PATH } from './routes-module.js';

describe('the generated zod-free route table', () => {
  it('and the named types are up to date with the contract (run `pnpm --filter @railyard/contract generate` when this fails)', () => {
    const committed = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    const { routes: expectedRoutes, types: expectedTypes } = renderModules();
    expect(committed(ROUTES_MODULE_PATH)).toBe(expectedRoutes);
    expect(committed(TYPES_MODULE_PATH)).toBe(expectedTypes);
  });

  it('names each route\'s types after the contract\'s components', () => {
    const { routes, types } = renderModules();
    expect(routes).toMatch(/createCustomer: .* as Route<\{ params: undefined; query: undefined; body: T\.CustomerCreateRequest; result: T\.Customer; bodyOptional: false \}>/);
    expect(types).toContain('export type Customer = IndividualCustomer | BusinessCustomer;');
    expect(types).toMatch(/export interface IndividualCustomer \{\n(.*\n)*?  customerType: 'INDIVIDUAL';/);
    // Queries and bodies are inputs: a field with a default is optional, and `limit` may be its digits as text.
    expect(types).toMatch(/export interface ListCustomersQuery \{\n  limit\?: number \| string;\n/);
  });

  it('has every endpoint with the method, path and flags the contract gives it', () => {
    const groups = endpointGroups();
    expect(groups.map(([name]) => name)).toContain('customerEndpoints');
    for (const [group, members] of groups) {
      const table = (routes as unknown as Record<string, Record<string, unknown>>)[group];
      for (const [key, endpoint] of Object.entries(members)) {
        expect(table?.[key], `${group}.${key}`).toEqual({
          operationId: endpoint.operationId, method: endpoint.method, path: endpoint.path,
          ...(endpoint.bodyOptional ? { bodyOptional: true } : {}), ...(endpoint.multipart ? { multipart: true } : {}),
          ...(endpoint.idempotencyKey ? { idempotencyKey: endpoint.idempotencyKey } : {}),
        });
      }
    }
    expect(routes.customerEndpoints.createCustomer).toEqual({ operationId: 'createCustomer', method: 'POST', path: '/customers' });
    // Every operation the engine serves is in some group.
    const routed = new Set(groups.flatMap(([, members]) => Object.values(members).map((e) => e.operationId)));
    expect(Object.values(endpoints).filter((e) => !routed.has(e.operationId))).toEqual([]);
  });
});
