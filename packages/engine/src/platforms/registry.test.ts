import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './registry.js';

describe('constantTimeEqual', () => {
  it('is true only for identical strings', () => {
    expect(constantTimeEqual('sandbox-client-secret', 'sandbox-client-secret')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('sandbox-client-secret', 'sandbox-client-secreT')).toBe(false);
    expect(constantTimeEqual('sandbox-client-secret', 'sandbox-client-secret ')).toBe(false);
    expect(constantTimeEqual('secret', '')).toBe(false);
    // Unicode compares by code point, not by a lossy byte cast: 'é' and 'é' (e + combining accent) differ.
    expect(constantTimeEqual('caf\u00e9', 'cafe\u0301')).toBe(false);
    expect(constantTimeEqual('\u{1F511}', '\u{1F511}')).toBe(true);
  });
});
