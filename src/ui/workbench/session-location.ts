/**
 * The open session lives in the URL fragment (`#/session/ses_…`), so a reload, a bookmark or a middle-click on a
 * sidebar link opens the same session. Fragments never reach a server, and the service worker serves one shell.
 */
const PREFIX = '#/session/'

export function hashForSession(sessionID: string | undefined): string {
  return sessionID ? `${PREFIX}${sessionID}` : ''
}

export function sessionFromHash(hash: string): string | undefined {
  if (!hash.startsWith(PREFIX)) return undefined
  const id = decodeURIComponent(hash.slice(PREFIX.length))
  return /^ses_[0-9A-Za-z]+$/.test(id) ? id : undefined
}
