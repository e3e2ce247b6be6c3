import { agentEndpoints, API_VERSION, controlPlaneEndpoints, SandboxHealth } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.js';
import { createEngine } from '../engine.js';
import { bindUnscoped } from '../http/app.js';
import { apiRequest } from '../testing/requests.js';

// GET /_sandbox/health is for container health checks: open to anyone, at the root and under the base path, without
// opening any other operation.

const bare = (path: string, headers: Record<string, string> = {}) => new Request(`http://sandbox.test${path}`, { headers });

describe('GET /_sandbox/health', () => {
  it('answers 200 without credentials, at the root and under the base path', async () => {
    const engine = createEngine();
    for (const path of ['/_sandbox/health', `/${API_VERSION}/_sandbox/health`]) {
      const response = await engine.fetch(bare(path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      const body = await response.json();
      expect(SandboxHealth.parse(body)).toEqual({ status: 'ok', version: 'development', apiVersion: API_VERSION, uptimeSeconds: 0 });
    }
  });

  it('ignores credentials, wrong ones included: a health check does not tell whether credentials are valid', async () => {
    const engine = createEngine();
    const wrong = await engine.fetch(bare('/_sandbox/health', { authorization: `Basic ${btoa('nobody:wrong-secret')}` }));
    expect(wrong.status).toBe(200);
    const garbled = await engine.fetch(bare('/_sandbox/health', { authorization: 'Bearer not-a-token' }));
    expect(garbled.status).toBe(200);
    const right = await engine.fetch(apiRequest('GET', '/_sandbox/health'));
    expect((await right.json()).status).toBe('ok');
  });

  it('counts real time, not the virtual clock', async () => {
    const engine = createEngine({ clock: new VirtualClock(Date.UTC(2026, 0, 1)) });
    engine.sandbox().advance(3 * 3_600_000);
    expect((await (await engine.fetch(bare('/_sandbox/health'))).json()).uptimeSeconds).toBe(0);
  });

  it('opens nothing else: every other control-plane operation is still 401 without credentials or with wrong ones', async () => {
    const engine = createEngine();
    const others = Object.values(controlPlaneEndpoints).filter((endpoint) => endpoint.operationId !== 'getSandboxHealth');
    expect(others.length).toBeGreaterThan(10);
    for (const endpoint of others) {
      for (const authorization of [undefined, `Basic ${btoa('nobody:wrong-secret')}`]) {
        const request = new Request(`http://sandbox.test${endpoint.path}`, {
          method: endpoint.method, headers: authorization === undefined ? {} : { authorization },
        });
        expect((await engine.fetch(request)).status, `${endpoint.method} ${endpoint.path}`).toBe(401);
      }
    }
    // Other methods on its path are refused, not served open.
    const post = await engine.fetch(new Request('http://sandbox.test/_sandbox/health', { method: 'POST' }));
    expect(post.status).toBe(405);
  });

  it('is in the OpenAPI document as an operation without security', () => {
    const doc = createEngine().openapi() as { paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>> };
    const operation = doc.paths['/_sandbox/health']?.get;
    expect(operation?.operationId).toBe('getSandboxHealth');
    expect(operation?.security).toEqual([]);
  });

  it('only endpoints the contract declares open, without path parameters, may be bound without a platform', () => {
    // @ts-expect-error an endpoint that takes credentials cannot be served as no platform
    bindUnscoped(controlPlaneEndpoints.getSandboxClock, () => ({ now: '', mode: 'virtual' as const }));
    // @ts-expect-error an open endpoint that names its platform in the path (a device code) must resolve that platform
    bindUnscoped(agentEndpoints.redeemAgentDeviceCode, () => undefined as never);
    expect(bindUnscoped(controlPlaneEndpoints.getSandboxHealth, () => ({ status: 'ok' as const, version: 'v', apiVersion: 'a', uptimeSeconds: 0 })).endpoint.operationId).toBe('getSandboxHealth');
  });
});
