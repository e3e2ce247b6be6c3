import { endpoints } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { answerText, apiRequest } from '../testing/requests.js';

// The engine serves every operation its OpenAPI document describes: none answers "No route".
describe('route coverage', () => {
  it.each(Object.values(endpoints).map((e) => [e.operationId, e] as const))('%s is served', async (_id, endpoint) => {
    const engine = createEngine();
    const path = endpoint.path.replace(/\{[^}]+\}/g, 'Unknown:00000000-0000-4000-8000-000000000000');
    const response = await engine.fetch(apiRequest(endpoint.method, path, endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {}));
    const body = await answerText(response);
    expect(body).not.toMatch(/"No route/);
    expect(response.status).toBeLessThan(500);
  });
});
