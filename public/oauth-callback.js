// The page an MCP server's authorization server redirects the sign-in popup to (src/core/mcp-oauth-callback.ts has
// the message's shape and the page-side checks). It hands the redirect's code and state back to the tab that started
// the sign-in, then closes. Plain JavaScript in public/ so that it loads without the app (offline too: the service
// worker precaches it), and so that the authorization code never passes through the app's router or history.
;(() => {
  const query = new URLSearchParams(location.search)
  const message = { type: 'mcp-oauth-callback', state: query.get('state') ?? '' }
  for (const [field, param] of [['code', 'code'], ['iss', 'iss'], ['error', 'error'], ['errorDescription', 'error_description']]) {
    const value = query.get(param)
    if (value) message[field] = value
  }
  // The app runs with COOP same-origin, so the opener is usually gone after the authorization server's pages: the
  // channel reaches it anyway (same origin only). An opener that is left gets the message too, for this origin only.
  const channel = new BroadcastChannel('tabcode-mcp-oauth')
  channel.postMessage(message)
  channel.close()
  if (window.opener) window.opener.postMessage(message, location.origin)
  // The code is spent; it should not stay in this window's history.
  history.replaceState(null, '', location.pathname)
  document.getElementById('outcome').textContent = message.error ? 'The sign-in was refused. You can close this window.' : 'Signed in. You can close this window.'
  window.close()
})()
