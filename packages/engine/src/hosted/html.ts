import { HttpResult } from '../http/app.js';
// The hosted pages' document and headers; the escaping `html` template is the HTTP layer's (../http/html.ts).
import { Html, html } from '../http/html.js';

export { Html, escapeHtml, html } from '../http/html.js';

/**
 * Headers of every hosted page: HTML, never cached, no scripts or external loads, not framed, and no Referer (the link
 * token is in the URL) when the browser leaves for the platform's redirectUri.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

/** A page as an HTTP result. */
export const pageResult = (status: number, page: Html): HttpResult => new HttpResult(status, page.value, { ...PAGE_HEADERS });

/** A 303 See Other to `location` (after a form post). */
export const seeOther = (location: string): HttpResult =>
  new HttpResult(303, undefined, { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f4f5f7;color:#1d2230}
main{max-width:760px;margin:24px auto;padding:0 16px}
header{background:#1d2230;color:#fff;padding:12px 16px}
header small{opacity:.75}
section{background:#fff;border:1px solid #dde0e6;border-radius:8px;padding:16px 20px;margin:16px 0}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 12px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}dt{color:#5b6272}dd{margin:0}
ul.missing{padding-left:20px;margin:0}ul.missing li{margin:6px 0}
code{background:#eef0f4;border-radius:4px;padding:1px 4px;font-size:13px}
label{display:block;margin:8px 0 2px;font-weight:600;font-size:13px}
input,select{font:inherit;padding:6px 8px;border:1px solid #c4c8d0;border-radius:6px;width:100%;box-sizing:border-box}
input[type=checkbox]{width:auto}
.row{display:grid;grid-template-columns:1fr 1fr;gap:0 12px}
button{font:inherit;padding:8px 16px;border-radius:6px;border:1px solid #1d2230;background:#1d2230;color:#fff;cursor:pointer;margin:12px 8px 0 0}
button.secondary{background:#fff;color:#1d2230}
.notice{border-left:4px solid #2f8f4e;background:#eef8f1}
.problem{border-left:4px solid #c0392b;background:#fdf0ee}
.done{border-left:4px solid #2f8f4e}
.muted{color:#5b6272;font-size:13px}
.sandbox{border-style:dashed}
.inline{display:inline}
`;

/** The document around a page's body. */
export const layout = (title: string, body: Html): Html => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<header><strong>Identity verification</strong> <small>Railyard sandbox · provider SUMSUB</small></header>
<main>
${body}
</main>
</body>
</html>
`;
