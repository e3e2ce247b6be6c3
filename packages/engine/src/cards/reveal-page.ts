/**
 * The page behind a reveal's `panEmbedUrl` (REFERENCE §15.4): the sandbox card's number, CVV and expiry, for a
 * platform's iframe. The token in the URL is the only credential; it works for a few minutes. Unlike the hosted
 * verification pages, this one may be framed by any site: that is what it is for.
 */
import type { TenantContext } from '../core/context.js';
import { HttpResult } from '../http/app.js';
import { html, layout, PAGE_HEADERS } from '../hosted/html.js';
import { revealedCard, revealedDetails } from './cards.js';

const FRAMEABLE_HEADERS = {
  ...PAGE_HEADERS,
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors *",
};

/** `GET /_sandbox/hosted/{platformId}/cards/{token}`. */
export function showRevealPage(tenant: TenantContext, token: string): HttpResult {
  const card = revealedCard(tenant, token);
  if (!card) {
    const page = layout('This card link is not valid', html`<section class="problem" id="unavailable"><h1>This card link is not valid</h1><p>It is unknown or has expired: ask for a new reveal.</p></section>`);
    return new HttpResult(404, page.value, { ...FRAMEABLE_HEADERS });
  }
  const { pan, cvv, expiry } = revealedDetails(tenant, card);
  const grouped = pan.replace(/(\d{4})(?=\d)/g, '$1 ');
  const page = layout('Card details', html`<section id="card" data-card-id="${card.id}">
<h1>Card details</h1>
<dl>
<dt>Card number</dt><dd id="pan">${grouped}</dd>
<dt>Expiry</dt><dd id="expiry">${expiry}</dd>
<dt>CVV</dt><dd id="cvv">${cvv}</dd>
</dl>
<p class="muted">Sandbox test values: this number exists only in the sandbox.</p>
</section>`);
  return new HttpResult(200, page.value, { ...FRAMEABLE_HEADERS });
}
