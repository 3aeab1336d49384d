/**
 * The open session lives in the URL fragment (`#/session/ses_…`), so a reload, a bookmark or a middle-click on a
 * sidebar link opens the same session. Fragments never reach a server, and the service worker serves one shell.
 * A share link carries a whole session in the fragment instead (`#/share/v1.…`); the page opens it once and then
 * names the imported session, so a reload does not import it again.
 */
const PREFIX = '#/session/'
const SHARE_PREFIX = '#/share/'

export function hashForSession(sessionID: string | undefined): string {
  return sessionID ? `${PREFIX}${sessionID}` : ''
}

export function sessionFromHash(hash: string): string | undefined {
  if (!hash.startsWith(PREFIX)) return undefined
  const id = decodeURIComponent(hash.slice(PREFIX.length))
  return /^ses_[0-9A-Za-z]+$/.test(id) ? id : undefined
}

/** The share fragment as the worker reads it (`#/share/…`), or undefined for any other fragment. */
export function shareLinkFromHash(hash: string): string | undefined {
  return hash.startsWith(SHARE_PREFIX) && hash.length > SHARE_PREFIX.length ? hash : undefined
}
