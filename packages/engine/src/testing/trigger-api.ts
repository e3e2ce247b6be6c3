import { createEngine, type Engine } from '../engine.js';
import { authorizationOf, type TriggerApi } from '../trigger/api.js';
import { answerText, apiRequest, formRequest } from './requests.js';

/**
 * Test helper: a fresh engine for trigger recipes. Its webhook receiver answers 200, and `pendingAnswer` to
 * INCOMING_PAYMENT.PENDING: by default 202, a receiver that takes the event and decides through the API (200 would
 * approve the payment, 403 reject it).
 */
export function triggerSandbox(regulated: boolean, pendingAnswer = 202): Engine {
  return createEngine({
    platform: { regulated },
    webhooks: {
      fetch: async (_url, init) => {
        const { type } = JSON.parse(String(init?.body)) as { type: string };
        return new Response(null, { status: type === 'INCOMING_PAYMENT.PENDING' ? pendingAnswer : 200 });
      },
    },
  });
}

/** The answer of a 2xx as parsed JSON; anything else rejects with the status and body. */
async function parsed(response: Response, what: string): Promise<any> {
  const text = await answerText(response);
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Test helper: a {@link TriggerApi} over `engine.fetch`, as the default platform; records every advance. `slow`: every
 * call waits for the deliveries under way to be answered first, as a client slower than the platform's receiver.
 */
export function engineTriggerApi(engine: Engine, slow = false): TriggerApi & { advanced: number[] } {
  const advanced: number[] = [];
  const call: TriggerApi['call'] = async (method, path, body, options = {}) => {
    if (slow) await engine.webhooks.settled();
    const request = apiRequest(method, path, body, { ...options.headers });
    const authorization = authorizationOf(options.auth);
    if (authorization === null) request.headers.delete('authorization');
    else if (authorization !== undefined) request.headers.set('authorization', authorization);
    return parsed(await engine.fetch(request), `${method} ${path}`);
  };
  return {
    advanced,
    call,
    upload: async (path, fields, file) => parsed(await engine.fetch(formRequest('POST', path, { ...fields }, file)), `upload ${path}`),
    advance: async (ms) => {
      advanced.push(ms);
      await call('POST', '/_sandbox/clock/advance', { ms });
    },
  };
}
