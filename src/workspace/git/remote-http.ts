import * as git from 'isomorphic-git'
import web from 'isomorphic-git/http/web'
import { fatal, GitExit, type GitContext } from './repo'

/** The user name sent with a token: forges that take a token as the password accept any name with it. */
const TOKEN_USER = 'x-access-token'

/** A remote URL git may reach: HTTP(S) only, as the browser can only fetch those. */
export function checkRemoteUrl(url: string): URL {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw fatal(`repository '${url}' does not exist (only http:// and https:// remotes can be reached from the browser)`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw fatal(`unable to access '${url}': only http:// and https:// remotes can be reached from the browser`)
  }
  if (parsed.username || parsed.password) {
    // A token in the URL would be kept in .git/config and shown by `git remote -v`.
    throw fatal(`unable to access '${withoutCredentials(parsed)}': put the token in Settings (or type it when asked), not in the URL`)
  }
  return parsed
}

function withoutCredentials(url: URL): string {
  const copy = new URL(url)
  copy.username = ''
  copy.password = ''
  return copy.href
}

/**
 * What isomorphic-git's network calls take: the browser's fetch (stopped with the command), the proxy the user set,
 * and auth callbacks that offer a token only when the server asks for one (a 401), only the token kept for that
 * server's own host, and keep a token the user typed only once the server has accepted it.
 */
export async function networkOptions(context: GitContext, url: string) {
  const remotes = context.request.remotes
  if (!remotes) throw fatal(`unable to access '${url}': this workspace has no network`)
  const host = checkRemoteUrl(url).host
  const signal = context.request.signal
  const http = { request: (request: Parameters<typeof web.request>[0]) => web.request({ ...request, signal }) }
  const corsProxy = await remotes.corsProxy()
  let typed: string | undefined
  let stored: string | undefined
  const onAuth = async () => {
    stored = await remotes.token(host)
    if (stored) return { username: TOKEN_USER, password: stored }
    typed = await remotes.askToken({ host, url }, signal)
    if (!typed) return { cancel: true }
    return { username: TOKEN_USER, password: typed }
  }
  const onAuthFailure = async () => {
    // A rejected token is never kept: the next command asks again.
    if (stored) await remotes.forgetToken(host)
    throw fatal(`Authentication failed for '${url}'`)
  }
  const onAuthSuccess = async () => {
    if (typed) await remotes.saveToken(host, typed)
  }
  return { http, ...(corsProxy ? { corsProxy } : {}), onAuth, onAuthFailure, onAuthSuccess }
}

/** isomorphic-git's network failures in git's words; anything else passes through. */
export function networkError(error: unknown, url: string, corsProxy?: string): unknown {
  if (error instanceof GitExit) return error
  if (error instanceof git.Errors.UserCanceledError) {
    return fatal(`could not read Password for '${url}': the token was not given`)
  }
  if (error instanceof git.Errors.HttpError) {
    const status = error.data.statusCode
    if (status === 401 || status === 403) return fatal(`Authentication failed for '${url}'`)
    if (status === 404) return fatal(`repository '${url}' not found`)
    return fatal(`unable to access '${url}': The requested URL returned error: ${status}`)
  }
  if (error instanceof git.Errors.SmartHttpError || error instanceof git.Errors.RemoteCapabilityError) {
    return fatal(`unable to access '${url}': ${error.message}`)
  }
  if (error instanceof TypeError) {
    // The browser hides why a cross-origin request failed: an unreachable server and a missing CORS answer look alike.
    if (corsProxy) {
      return fatal(`unable to access '${url}': the request through the CORS proxy ${corsProxy} failed (${error.message}); check the proxy in Settings`)
    }
    return fatal(
      `unable to access '${url}': the request failed (${error.message}). A browser can only reach a git server ` +
        'that allows cross-origin (CORS) requests from this page; for servers that do not (GitHub, GitLab), set a CORS ' +
        'proxy in Settings (one you run or trust: it sees what you fetch and push, and your token).',
    )
  }
  return error
}
