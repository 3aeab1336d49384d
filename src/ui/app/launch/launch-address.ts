/**
 * The addresses the installed app is launched with (its manifest, vite.config.ts, declares them): the "New session"
 * shortcut and the share target. Read here into one action, purely; the workbench carries it out and then takes the
 * query off the address, so a reload does not do it again.
 */

/** The query parameter the manifest's shortcuts set. */
export const LAUNCH_PARAMETER = 'launch'
/** The "New session" shortcut's address. */
export const NEW_SESSION_ADDRESS = `/?${LAUNCH_PARAMETER}=new-session`
/**
 * The share target's query parameters. Named apart from anything else the app reads, so an address that happens to
 * carry a `url` or `text` parameter is not taken for a share.
 */
export const SHARE_PARAMETERS = { title: 'share-title', text: 'share-text', url: 'share-url' } as const

export type LaunchAction =
  | { type: 'none' }
  | { type: 'new-session' }
  /** A tabcode share link came with a share: opened through the link import (`#/share/…`, as the worker reads it). */
  | { type: 'open-share-link'; link: string }
  /** Anything else shared: the text for the prompt box of a new session, never sent by itself. */
  | { type: 'draft'; text: string }
  /** Nothing this app knows how to do; `problem` says what came. */
  | { type: 'unknown'; problem: string }

const SHARE_FRAGMENT = /#\/share\/[A-Za-z0-9._~%-]+/

/** What the address's query asks of the app. */
export function readLaunchAddress(search: string): LaunchAction {
  const query = new URLSearchParams(search)
  const launch = query.get(LAUNCH_PARAMETER)
  if (launch !== null) {
    if (launch === 'new-session') return { type: 'new-session' }
    return { type: 'unknown', problem: `tabcode was opened to do “${launch.slice(0, 60)}”, which it does not know. Nothing was done.` }
  }
  const shared = Object.values(SHARE_PARAMETERS).filter((name) => query.has(name))
  if (shared.length === 0) return { type: 'none' }
  const title = (query.get(SHARE_PARAMETERS.title) ?? '').trim()
  const text = (query.get(SHARE_PARAMETERS.text) ?? '').trim()
  const url = (query.get(SHARE_PARAMETERS.url) ?? '').trim()
  // Apps put a shared link in `url` or (Android's, mostly) in `text` among other words.
  const link = [url, text, title].map((value) => SHARE_FRAGMENT.exec(value)?.[0]).find(Boolean)
  if (link) return { type: 'open-share-link', link }
  // The title is often the page's name, said again in `text` with the address that is also `url`: a part another one
  // holds is said once, there.
  const parts = [title, text, url].filter(Boolean)
  const lines = parts.filter((part, index) => !parts.some((other, at) => at !== index && other.includes(part) && (other !== part || at < index)))
  if (lines.length === 0) return { type: 'unknown', problem: 'Something was shared with tabcode, but it held no text or link. Nothing was done.' }
  return { type: 'draft', text: lines.join('\n\n') }
}

/** The address without what `readLaunchAddress` reads (other parameters and the fragment stay). */
export function addressWithoutLaunch(href: string): string {
  const url = new URL(href)
  for (const name of [LAUNCH_PARAMETER, ...Object.values(SHARE_PARAMETERS)]) url.searchParams.delete(name)
  return url.pathname + url.search + url.hash
}
