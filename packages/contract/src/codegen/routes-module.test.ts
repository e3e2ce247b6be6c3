import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../endpoints.js';
import * as routes from '../routes.js';
import { endpointGroups, renderRoutesModule, ROUTES_MODULE_PATH } from './routes-module.js';

describe('the generated zod-free route table', () => {
  it('is up to date with the contract (run `pnpm --filter @railyard/contract generate` when this fails)', () => {
    const committed = readFileSync(new URL(`../../${ROUTES_MODULE_PATH}`, import.meta.url), 'utf8');
    expect(committed).toBe(renderRoutesModule());
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
