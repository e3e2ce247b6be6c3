/**
 * The dashboard's only style sheet and script, served from its own origin so the Content-Security-Policy allows no
 * inline code. The script is small and optional: it asks before a destructive action (`data-confirm`) and shows the
 * live feed (an EventSource on the dashboard's own stream, which the session cookie authenticates). Every page works
 * without it.
 */

/** The style sheet: readable at 1280×800 and, with tables stacked into cards, on a phone. */
export const DASHBOARD_CSS = `
:root{--ink:#1d2230;--muted:#5b6272;--line:#dde0e6;--bg:#f4f5f7;--card:#fff;--accent:#2956c9}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:var(--bg);color:var(--ink);overflow-wrap:anywhere}
a{color:var(--accent)}
header.top{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:8px;background:var(--ink);color:#fff;padding:10px 16px}
header.top a.brand{color:#fff;text-decoration:none;font-weight:700;font-size:16px}
header.top small{opacity:.7;font-weight:400}
.who{display:flex;flex-wrap:wrap;align-items:center;gap:10px;font-size:13px}
.who code{background:#343b4f;color:#fff}
.who .perms{opacity:.8}
.who form{margin:0}
nav.main{display:flex;flex-wrap:wrap;gap:2px;background:#fff;border-bottom:1px solid var(--line);padding:0 12px}
nav.main a{padding:10px 10px;text-decoration:none;color:var(--ink);border-bottom:3px solid transparent}
nav.main a[aria-current=page]{border-bottom-color:var(--accent);font-weight:600}
main{max-width:1240px;margin:0 auto;padding:12px 16px 40px}
h1{font-size:21px;margin:12px 0 4px}h2{font-size:16px;margin:0 0 10px}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 16px;margin:14px 0}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:14px}
.grid section{margin:0}
.counts{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:0;padding:0;list-style:none}
.counts li{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.counts strong{display:block;font-size:22px}
.counts a{text-decoration:none;color:inherit}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600;white-space:nowrap}
code{background:#eef0f4;border-radius:4px;padding:1px 4px;font-size:12px;word-break:break-all}
pre.json{background:#0f1320;color:#dfe6f5;border-radius:6px;padding:10px;overflow:auto;max-height:420px;font-size:12px;white-space:pre-wrap;word-break:break-all}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}dt{color:var(--muted)}dd{margin:0;min-width:0}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;white-space:nowrap}
.badge.good{background:#e3f4e8;color:#1e6b38}.badge.bad{background:#fbe6e3;color:#9b2c1f}.badge.wait{background:#eef0f4;color:#3d4455}
.muted{color:var(--muted)}
.flash{border-radius:6px;padding:10px 12px;margin:12px 0}
.flash.done{background:#e3f4e8;border-left:4px solid #2f8f4e}.flash.problem{background:#fbe6e3;border-left:4px solid #c0392b}
.refused{background:#fff7e0;border-left:4px solid #d49b00;padding:8px 10px;margin:0}
form.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;margin:8px 0}
form.filters .field{min-width:150px;flex:1 1 150px}
form.action{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;margin:6px 0}
form.action .field{flex:1 1 160px}
label{display:block;font-size:12px;font-weight:600;color:var(--muted);margin-bottom:2px}
input,select{font:inherit;padding:5px 8px;border:1px solid #c4c8d0;border-radius:6px;width:100%;background:#fff}
button{font:inherit;padding:6px 14px;border-radius:6px;border:1px solid var(--ink);background:var(--ink);color:#fff;cursor:pointer}
button.secondary{background:#fff;color:var(--ink)}
button.link{background:none;border:none;color:#fff;text-decoration:underline;padding:0}
nav.pager{display:flex;gap:16px;align-items:center;margin-top:10px}
ol.timeline{list-style:none;padding:0;margin:0;border-left:2px solid var(--line)}
ol.timeline li{margin:0 0 10px 0;padding-left:12px;position:relative}
ol.timeline li::before{content:"";position:absolute;left:-6px;top:6px;width:10px;height:10px;border-radius:50%;background:var(--accent)}
#feed li{font-size:13px;border-bottom:1px solid var(--line);padding:4px 0;list-style:none}
#feed{padding:0;margin:0;max-height:70vh;overflow:auto}
.signin{max-width:420px;margin:40px auto}
@media (max-width:700px){
  main{padding:8px}
  thead{display:none}
  table,tbody,tr,td{display:block;width:100%}
  tr{border:1px solid var(--line);border-radius:6px;margin-bottom:8px;padding:4px 0}
  td{border:none;padding:3px 8px}
  td::before{content:attr(data-label);display:block;font-size:11px;color:var(--muted)}
  dl.facts{grid-template-columns:1fr}
}
`;

/** The script: confirmations, and the live feed. */
export const DASHBOARD_JS = `"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form && form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener("DOMContentLoaded", function () {
  var list = document.getElementById("feed");
  if (!list || typeof EventSource === "undefined") return;
  var state = document.getElementById("feed-state");
  var source = new EventSource(list.getAttribute("data-stream"));
  var show = function (text) { if (state) state.textContent = text; };
  source.onopen = function () { show("Connected: new events appear here as they are emitted."); };
  source.onerror = function () { show("Disconnected: reconnecting…"); };
  source.onmessage = function (message) {
    var event;
    try { event = JSON.parse(message.data); } catch (e) { return; }
    var item = document.createElement("li");
    var link = document.createElement("a");
    link.href = list.getAttribute("data-event-page") + "/" + encodeURIComponent(event.id);
    link.textContent = event.type;
    var data = {};
    try { data = JSON.parse(event.body).data || {}; } catch (e) { data = {}; }
    item.appendChild(document.createTextNode((event.timestamp || "") + " "));
    item.appendChild(link);
    item.appendChild(document.createTextNode(" " + (data.id || "") + (data.status ? " " + data.status : "")));
    list.insertBefore(item, list.firstChild);
    while (list.children.length > 200) list.removeChild(list.lastChild);
  };
});
`;
