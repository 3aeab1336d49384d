import type { Handlers } from '../core/protocol/base'
import type { GitRemotesApi, GitTokenAsk } from '../core/protocol/git-remotes'
import type { WorkerNotice } from '../core/protocol/lifecycle'
import type { StoreContext } from '../store/context'
import { forgetGitToken, listGitTokenHosts, loadGitToken, saveGitToken } from '../store/git-token-store'
import { getSettings } from '../store/provider-store'
import type { GitRemotes } from '../workspace/runtime/program'

/**
 * git's way to remotes in this tab's worker: the proxy from Settings, the tokens kept in the database, and token asks
 * shown by this tab's page (a notice to the page that owns the worker, never an event other tabs see), answered
 * through `answerGitToken`.
 */
export function createGitRemotes(ready: () => StoreContext, notify: (notice: WorkerNotice) => void) {
  const waiting = new Map<string, (token: string | undefined) => void>()
  let next = 0
  const remotes: GitRemotes = {
    corsProxy: async () => (await getSettings(ready())).gitCorsProxy,
    token: (host) => loadGitToken(ready(), host),
    saveToken: (host, token) => saveGitToken(ready(), host, token),
    forgetToken: (host) => forgetGitToken(ready(), host),
    askToken: ({ host, url }, signal) =>
      new Promise((resolve) => {
        const ask: GitTokenAsk = { id: `git-token-${++next}`, host, url }
        const settle = (token: string | undefined) => {
          waiting.delete(ask.id)
          signal.removeEventListener('abort', stop)
          resolve(token)
        }
        const stop = () => {
          settle(undefined)
          notify({ type: 'git-token-settled', id: ask.id })
        }
        if (signal.aborted) return resolve(undefined)
        signal.addEventListener('abort', stop)
        waiting.set(ask.id, settle)
        notify({ type: 'git-token-wanted', ask })
      }),
  }
  const handlers: Handlers<GitRemotesApi> = {
    listGitTokenHosts: () => listGitTokenHosts(ready()),
    removeGitToken: (host) => forgetGitToken(ready(), host),
    answerGitToken: ({ id, token }) => {
      const trimmed = token?.trim()
      waiting.get(id)?.(trimmed ? trimmed : undefined)
    },
  }
  return { remotes, handlers }
}
