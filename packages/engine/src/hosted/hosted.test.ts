import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { escapeHtml, html } from './html.js';
import { PDF_MINIMAL, PNG_1X1 } from './testing.js';

// The hosted verification page behind a kycUrl, driven as a browser would: GET the page, post its forms (SPEC §4.3).

let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});

const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
const REDIRECT = 'https://platform.example/onboarding/done?session=42';

const ada = {
  customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', birthDate: '1990-12-10', nationality: 'US',
  address: { line1: '12 St James Square', city: 'London', postalCode: '12345', country: 'US' }, idType: 'SSN', identifier: '123-45-6789',
};

/** A customer and a link to its page. */
async function linkFor(customer: Json): Promise<{ id: string; url: string }> {
  const created = await call('POST', '/customers', customer);
  expect(created.status).toBe(201);
  const link = await call('POST', `/customers/${encodeURIComponent(created.body.id)}/kyc-link`, { redirectUri: REDIRECT });
  expect(link.status).toBe(201);
  return { id: created.body.id, url: link.body.kycUrl };
}

const get = async (url: string) => {
  const response = await engine.fetch(new Request(url));
  return { status: response.status, headers: response.headers, text: await response.text() };
};
const post = async (url: string, form?: FormData) => {
  const response = await engine.fetch(new Request(url, { method: 'POST', ...(form ? { body: form } : {}) }));
  return { status: response.status, location: response.headers.get('location'), headers: response.headers, text: await response.text() };
};

function passportForm(holder: string, overrides: Record<string, string> = {}, file: { bytes: Uint8Array; name: string; type: string } = { bytes: PNG_1X1, name: 'passport.png', type: 'image/png' }) {
  const form = new FormData();
  const fields = { documentHolder: holder, documentType: 'PASSPORT', country: 'US', documentNumber: 'P1234567', issuingAuthority: 'US Department of State', side: '', issuedOn: '', ...overrides };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
  return form;
}

const customerOf = async (id: string) => (await call('GET', `/customers/${encodeURIComponent(id)}`)).body;

describe('html', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const evil = `<script>alert("x")</script>&'`;
    expect(html`<p title="${evil}">${evil}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    expect(escapeHtml('a&b')).toBe('a&amp;b');
    expect(html`${[html`<b>${'<i>'}</b>`, undefined, null, false, 0]}`.value).toBe('<b>&lt;i&gt;</b>0');
  });
});

describe('GET the page', () => {
  it("shows the customer's name and type and what is still missing", async () => {
    const { url } = await linkFor({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
    const page = await get(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain('<h1>Ada Lovelace</h1>');
    expect(page.text).toContain('Individual (KYC)');
    for (const field of ['birthDate', 'nationality', 'address.line1', 'idType', 'identifier']) expect(page.text).toContain(`<code>${field}</code>`);
    expect(page.text).toContain('<code>MISSING_IDENTITY_DOCUMENT</code>');
    expect(page.text).toContain('Upload one of: <code>PASSPORT</code>, <code>DRIVERS_LICENSE</code>, <code>NATIONAL_ID</code>');
    // No external assets: no scripts, stylesheets or images to load.
    expect(page.text).not.toMatch(/<script|<link|<img|src=/i);
  });

  it('escapes what the platform stored (names) in the page', async () => {
    const { url } = await linkFor({ customerType: 'INDIVIDUAL', fullName: '<script>alert(1)</script> "Doe"' });
    const page = await get(url);
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &quot;Doe&quot;</h1>');
  });

  it('says when nothing is missing', async () => {
    const { id, url } = await linkFor(ada);
    expect((await post(`${url}/documents`, passportForm(id))).status).toBe(303);
    const page = await get(url);
    expect(page.text).toContain('Nothing is missing');
    expect(page.text).toContain('passport.png: <code>PASSPORT</code>');
  });

  it('an unknown token is a 404 page, never a JSON error', async () => {
    const { url } = await linkFor(ada);
    const page = await get(url.replace(/kyc\/[^/]+$/, 'kyc/not-a-real-token'));
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('This verification link is not valid');
  });

  it('an unknown platform in the link is a 404 page too', async () => {
    const { url } = await linkFor(ada);
    const page = await get(url.replace(/hosted\/[^/]+\/kyc/, 'hosted/Platform:00000000-0000-4000-8000-000000000000/kyc'));
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('This page does not exist');
  });

  it('is also served under the base path', async () => {
    const { url } = await linkFor(ada);
    const page = await get(url.replace('/_sandbox/', '/2025-10-13/_sandbox/'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/2025-10-13/_sandbox/hosted/');
  });
});

describe('uploading a document from the page', () => {
  it('stores it for the customer (as POST /documents would) and shows the page again with a notice', async () => {
    const { id, url } = await linkFor(ada);
    const res = await post(`${url}/documents`, passportForm(id));
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${new URL(url).pathname}?notice=document-uploaded`);
    const listed = await call('GET', `/documents?documentHolder=${encodeURIComponent(id)}`);
    expect(listed.body.data).toEqual([expect.objectContaining({ documentHolder: id, documentType: 'PASSPORT', fileName: 'passport.png', country: 'US' })]);
    const page = await get(new URL(res.location!, url).toString());
    expect(page.text).toContain('your document was uploaded');
    expect(page.text).not.toContain('MISSING_IDENTITY_DOCUMENT');
  });

  it('accepts a PDF proof of address with its date', async () => {
    const { id, url } = await linkFor({ ...ada, currencies: ['EUR'], email: 'ada@example.eu', region: 'US' });
    const today = engine.sandbox().clock().now.slice(0, 10);
    const form = passportForm(id, { documentType: 'UTILITY_BILL', documentNumber: '', issuingAuthority: '', issuedOn: today }, { bytes: PDF_MINIMAL, name: 'bill.pdf', type: 'application/pdf' });
    expect((await post(`${url}/documents`, form)).status).toBe(303);
  });

  it('shows what is wrong with a refused upload on the page (400), and stores nothing', async () => {
    const { id, url } = await linkFor(ada);
    const res = await post(`${url}/documents`, passportForm(id, { documentNumber: '' }, { bytes: new TextEncoder().encode('hello'), name: 'notes.txt', type: 'text/plain' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('The document was not uploaded');
    expect(res.text).toContain('<code>documentNumber</code>');
    expect(res.text).toContain('<code>file</code>');
    expect((await call('GET', '/documents')).body.data).toEqual([]);
  });

  it("refuses a holder that is not the link's customer or one of its owners", async () => {
    const other = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Someone Else' });
    const { url } = await linkFor(ada);
    const res = await post(`${url}/documents`, passportForm(other.body.id));
    expect(res.status).toBe(400);
    expect(res.text).toContain('must be this customer or one of its owners');
    expect((await call('GET', '/documents')).body.data).toEqual([]);
  });

  it('takes files above the 1 MiB JSON limit (a 3 MB scan), up to the 10 MB document limit', async () => {
    const { id, url } = await linkFor(ada);
    const scan = new Uint8Array(3 * 1024 * 1024);
    scan.set(PNG_1X1);
    expect((await post(`${url}/documents`, passportForm(id, {}, { bytes: scan, name: 'scan.png', type: 'image/png' }))).status).toBe(303);
    const tooBig = new Uint8Array(10 * 1024 * 1024 + 1);
    tooBig.set(PNG_1X1);
    const refused = await post(`${url}/documents`, passportForm(id, {}, { bytes: tooBig, name: 'huge.png', type: 'image/png' }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.text).toContain('at most 10 MB');
    expect((await call('GET', `/documents?documentHolder=${encodeURIComponent(id)}`)).body.data.map((d: Json) => d.fileName)).toEqual(['scan.png']);
  });

  it('shows the sandbox photo check (422 DOCUMENT_REJECTED) on the page', async () => {
    const { id, url } = await linkFor(ada);
    const res = await post(`${url}/documents`, passportForm(id, {}, { bytes: PNG_1X1, name: 'passport_blurry.png', type: 'image/png' }));
    expect(res.status).toBe(422);
    expect(res.text).toContain('not in focus');
  });
});

describe('adding an owner from the page (businesses)', () => {
  const acme = { customerType: 'BUSINESS', businessInfo: { legalName: 'Acme Inc', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30' } };
  const ownerForm = (overrides: Record<string, string> = {}) => {
    const form = new FormData();
    const fields = {
      firstName: 'Grace', lastName: 'Hopper', birthDate: '1980-12-09', nationality: 'US', line1: '1 Navy Way', city: 'Arlington',
      postalCode: '22202', addressCountry: 'US', idType: 'SSN', identifier: '123-45-6789', ownershipPercentage: '60.5', ...overrides,
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('roles', 'UBO');
    form.append('roles', 'DIRECTOR');
    return form;
  };

  it('registers the owner (as POST /beneficial-owners would) and lists it', async () => {
    const { id, url } = await linkFor(acme);
    expect((await get(url)).text).toContain('MISSING_CONTROL_PERSON');
    const res = await post(`${url}/owners`, ownerForm());
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\?notice=owner-added$/);
    const owners = await call('GET', `/beneficial-owners?customerId=${encodeURIComponent(id)}`);
    expect(owners.body.data).toEqual([expect.objectContaining({ roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 60.5, personalInfo: expect.objectContaining({ firstName: 'Grace', lastName: 'Hopper' }) })]);
    const page = await get(url);
    expect(page.text).toContain('Grace Hopper: UBO, DIRECTOR, 60.5%');
    expect(page.text).not.toContain('MISSING_CONTROL_PERSON');
    expect(page.text).toContain('Grace Hopper (owner)');
  });

  it('lists every invalid field of the owner form on the page', async () => {
    const { id, url } = await linkFor(acme);
    const res = await post(`${url}/owners`, ownerForm({ birthDate: 'yesterday', ownershipPercentage: '150' }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('<code>personalInfo.birthDate</code>');
    expect(res.text).toContain('<code>ownershipPercentage</code>');
    expect((await call('GET', `/beneficial-owners?customerId=${encodeURIComponent(id)}`)).body.data).toEqual([]);
  });

  it('individuals have no owner form, and posting one is refused', async () => {
    const { url } = await linkFor(ada);
    expect((await get(url)).text).not.toContain('Beneficial owners');
    expect((await post(`${url}/owners`, ownerForm())).status).toBe(400);
  });
});

describe('finishing the flow', () => {
  it('a link made without redirectUri ends on a page of its own (200), and is used up', async () => {
    const created = await call('POST', '/customers', ada);
    const link = await call('POST', `/customers/${encodeURIComponent(created.body.id)}/kyc-link`);
    const url = link.body.kycUrl as string;
    expect((await post(`${url}/documents`, passportForm(created.body.id))).status).toBe(303);
    const res = await post(`${url}/complete`);
    expect(res.status).toBe(200);
    expect(res.location).toBeNull();
    expect(res.text).toContain('you are done');
    expect((await customerOf(created.body.id)).kycStatus).toBe('PENDING');
    expect((await get(url)).text).toContain('This verification link has already been used');
  });

  it('Complete submits the verification, uses the link up and redirects (303) to redirectUri with status=completed', async () => {
    const { id, url } = await linkFor(ada);
    await post(`${url}/documents`, passportForm(id));
    const res = await post(`${url}/complete`);
    expect(res.status).toBe(303);
    expect(res.location).toBe('https://platform.example/onboarding/done?session=42&status=completed');
    // Only that the flow finished: the decision comes later.
    expect((await customerOf(id)).kycStatus).toBe('PENDING');
    expect((await call('GET', `/verifications?customerId=${encodeURIComponent(id)}`)).body.data[0].verificationStatus).toBe('IN_PROGRESS');
    engine.sandbox().advance(60_000);
    expect((await customerOf(id)).kycStatus).toBe('APPROVED');

    const again = await get(url);
    expect(again.status).toBe(410);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again.text).toContain('This verification link has already been used');
    const repost = await post(`${url}/complete`);
    expect(repost.status).toBe(410);
    expect(repost.location).toBeNull();
  });

  it('while something is missing, Complete shows the page again (409) with what is missing, and the link stays open', async () => {
    const { id, url } = await linkFor(ada);
    const res = await post(`${url}/complete`);
    expect(res.status).toBe(409);
    expect(res.text).toContain('Something is still missing');
    expect(res.text).toContain('MISSING_IDENTITY_DOCUMENT');
    expect((await call('GET', `/verifications?customerId=${encodeURIComponent(id)}`)).body.data).toEqual([]);
    expect((await get(url)).status).toBe(200);
  });

  it('Approve decides at once: the customer is APPROVED', async () => {
    const { id, url } = await linkFor(ada);
    await post(`${url}/documents`, passportForm(id));
    const res = await post(`${url}/approve`);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/status=completed$/);
    expect((await customerOf(id)).kycStatus).toBe('APPROVED');
    const events = engine.sandbox().events({ limit: 50 }).data.map((e) => e.type);
    expect(events).toEqual(expect.arrayContaining(['CUSTOMER.KYC_PENDING', 'CUSTOMER.KYC_APPROVED', 'VERIFICATION.APPROVED']));
    expect((await get(url)).status).toBe(410);
  });

  it('Reject decides at once: the customer is REJECTED (the redirect still says only completed)', async () => {
    const { id, url } = await linkFor(ada);
    await post(`${url}/documents`, passportForm(id));
    const res = await post(`${url}/reject`);
    expect(res.status).toBe(303);
    expect(new URL(res.location!).searchParams.get('status')).toBe('completed');
    expect((await customerOf(id)).kycStatus).toBe('REJECTED');
    // The scheduled review of the submission does not overturn the decision.
    engine.sandbox().advance(60_000);
    expect((await customerOf(id)).kycStatus).toBe('REJECTED');
  });

  it('a verification already under review (submitted through the API) is decided by Approve', async () => {
    const { id, url } = await linkFor({ ...ada, fullName: 'Ada Lovelace 001' });
    await post(`${url}/documents`, passportForm(id));
    const submitted = await call('POST', '/verifications', { customerId: id });
    expect(submitted.body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    expect((await post(`${url}/approve`)).status).toBe(303);
    expect((await customerOf(id)).kycStatus).toBe('APPROVED');
  });

  it('a final status cannot be changed by the other button; Complete still finishes', async () => {
    const { id, url } = await linkFor(ada);
    await post(`${url}/documents`, passportForm(id));
    await post(`${url}/reject`);
    const link = await call('POST', `/customers/${encodeURIComponent(id)}/kyc-link`, { redirectUri: REDIRECT });
    const refused = await post(`${link.body.kycUrl}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('already REJECTED');
    expect((await customerOf(id)).kycStatus).toBe('REJECTED');
    expect((await post(`${link.body.kycUrl}/complete`)).status).toBe(303);
  });

  it('an expired link cannot finish', async () => {
    const { id, url } = await linkFor(ada);
    await post(`${url}/documents`, passportForm(id));
    engine.sandbox().advance(31 * 60_000);
    const res = await post(`${url}/complete`);
    expect(res.status).toBe(410);
    expect(res.text).toContain('has expired');
    expect((await customerOf(id)).kycStatus).toBe('UNVERIFIED');
  });

  it('a deleted customer makes the link unavailable', async () => {
    const { id, url } = await linkFor(ada);
    await call('DELETE', `/customers/${encodeURIComponent(id)}`);
    const page = await get(url);
    expect(page.status).toBe(410);
    expect(page.text).toContain('no longer available');
  });
});
