import { BASE_PATH, endpoints, type Endpoint } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { secretPathRedactor } from './secret-paths.js';

// What a request log shows of a path: the contract's secret path parameters by name, everything else as it came.

const hide = secretPathRedactor();
const all: Endpoint[] = Object.values(endpoints);
/** An endpoint's path with each parameter filled in with a value of its own. */
const filled = (endpoint: Endpoint) => endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => `VALUE-OF-${name}`);
/** The path as it should be logged: secret parameters by name, the others with their values. */
const expected = (endpoint: Endpoint) =>
  endpoint.path.replace(/\{(\w+)\}/g, (whole, name: string) => (endpoint.secrets?.params?.includes(name) ? whole : `VALUE-OF-${name}`));

describe('secretPathRedactor', () => {
  it('hides a secret after a doubled slash too (a base URL joined to a path)', () => {
    expect(hide(`${BASE_PATH}//agents/device-codes/ABCDEFGH-AGENT-AAAA-BBBB/status`)).toBe(`${BASE_PATH}/agents/device-codes/{code}/status`);
    expect(hide('//_sandbox//hosted/Platform:x/kyc/tok3n')).toBe('/_sandbox/hosted/Platform:x/kyc/{token}');
  });

  it('hides every parameter the contract declares a secret, under the base path and, for control-plane routes, at the root', () => {
    const secret = all.filter((endpoint) => (endpoint.secrets?.params?.length ?? 0) > 0);
    // Device codes, hosted KYC pages, the card reveal page: the list is the contract's, this only checks it is read.
    expect(secret.map((endpoint) => endpoint.operationId)).toEqual(expect.arrayContaining(['redeemAgentDeviceCode', 'getAgentDeviceCodeStatus', 'getHostedKycPage', 'completeHostedKyc', 'getCardRevealPage']));
    for (const endpoint of secret) {
      expect(hide(`${BASE_PATH}${filled(endpoint)}`)).toBe(`${BASE_PATH}${expected(endpoint)}`);
      if (endpoint.controlPlane) expect(hide(filled(endpoint))).toBe(expected(endpoint));
    }
    expect(hide(`${BASE_PATH}/agents/device-codes/dc_9f8e7d/redeem`)).toBe(`${BASE_PATH}/agents/device-codes/{code}/redeem`);
    expect(hide('/_sandbox/hosted/Platform%3Aabc/kyc/tok_123')).toBe('/_sandbox/hosted/Platform%3Aabc/kyc/{token}');
    expect(hide('/_sandbox/hosted/Platform%3Aabc/cards/tok_456')).toBe('/_sandbox/hosted/Platform%3Aabc/cards/{token}');
  });

  it('leaves the path of every other operation as it is', () => {
    for (const endpoint of all.filter((e) => !e.secrets?.params?.length)) {
      expect(hide(`${BASE_PATH}${filled(endpoint)}`)).toBe(`${BASE_PATH}${filled(endpoint)}`);
    }
    expect(hide(`${BASE_PATH}/customers`)).toBe(`${BASE_PATH}/customers`);
    expect(hide('/_sandbox/health')).toBe('/_sandbox/health');
    expect(hide('/')).toBe('/');
    expect(hide('/unknown/path')).toBe('/unknown/path');
  });

  it('hides a secret in a path next to a secret route too: a sub-path, a trailing slash, another case, the wrong prefix', () => {
    expect(hide(`${BASE_PATH}/agents/device-codes/dc_1`)).toBe(`${BASE_PATH}/agents/device-codes/{code}`);
    expect(hide(`${BASE_PATH}/agents/device-codes/dc_1/`)).toBe(`${BASE_PATH}/agents/device-codes/{code}/`);
    expect(hide(`${BASE_PATH}/agents/device-codes/dc_1/redeem/more`)).toBe(`${BASE_PATH}/agents/device-codes/{code}/redeem/more`);
    expect(hide(`${BASE_PATH}/Agents/Device-Codes/dc_1/redeem`)).toBe(`${BASE_PATH}/Agents/Device-Codes/{code}/redeem`);
    expect(hide(`${BASE_PATH}/agents/device%2Dcodes/dc_1/redeem`)).toBe(`${BASE_PATH}/agents/device%2Dcodes/{code}/redeem`);
    expect(hide('/agents/device-codes/dc_1/redeem')).toBe('/agents/device-codes/{code}/redeem'); // at the root: a 404, still hidden
    expect(hide('/_sandbox/hosted/P/kyc/tok/whatever')).toBe('/_sandbox/hosted/P/kyc/{token}/whatever');
    // Slashes collapsed, `redeem` stands where a code would: hidden, rather than risk showing a code.
    expect(hide(`${BASE_PATH}/agents/device-codes//redeem`)).toBe(`${BASE_PATH}/agents/device-codes/{code}`);
  });
});
