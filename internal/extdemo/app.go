package extdemo

// AppHTML is the counter App: a page that, inside a host's sandboxed
// frame, initializes over postMessage JSON-RPC (ui/initialize), shows the
// tool result the host delivers (ui/notifications/tool-result) and calls
// the increment tool through the host (tools/call) when its button is
// clicked.
const AppHTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Counter</title></head>
<body>
<p id="status">starting</p>
<p id="count"></p>
<button id="inc" style="position:fixed;top:0;left:0;width:100%;height:48px">Increment</button>
<div style="height:56px"></div>
<script>
let next = 1;
const pending = new Map();
function request(method, params) {
  const id = next++;
  window.parent.postMessage({jsonrpc: "2.0", id, method, params}, "*");
  return new Promise((resolve, reject) => pending.set(id, {resolve, reject}));
}
function notify(method, params) {
  window.parent.postMessage({jsonrpc: "2.0", method, params}, "*");
}
function show(result) {
  const t = (result && result.content || []).filter(c => c.type === "text").map(c => c.text).join(" ");
  const el = document.getElementById("count");
  el.textContent = t;
  // Tell the host what the page now shows (a log message).
  notify("notifications/message", {level: "info", logger: "counter", data: "shown: " + el.textContent});
}
window.addEventListener("message", (ev) => {
  if (ev.source !== window.parent) return;
  const m = ev.data || {};
  if (m.id !== undefined && pending.has(m.id)) {
    const p = pending.get(m.id); pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message)); else p.resolve(m.result);
    return;
  }
  if (m.method === "ui/notifications/tool-result") show(m.params);
});
document.getElementById("inc").addEventListener("click", async () => {
  try { show(await request("tools/call", {name: "increment", arguments: {}})); }
  catch (e) { document.getElementById("status").textContent = "error: " + e.message; }
});
request("ui/initialize", {protocolVersion: "2026-01-26", appInfo: {name: "counter", version: "1.0.0"}, appCapabilities: {}})
  .then((r) => { document.getElementById("status").textContent = "ready on " + ((r.hostInfo || {}).name || "a host"); notify("ui/notifications/initialized", {}); })
  .catch((e) => { document.getElementById("status").textContent = "error: " + e.message; });
</script>
</body></html>
`
