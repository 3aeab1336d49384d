import { describe, expect, it } from 'vitest'
import type { WorkerNotice } from '../core/protocol/lifecycle'
import { makeTestContext } from '../testing/test-context'
import { createGitRemotes } from './git-remotes'

describe("the worker's git remotes", () => {
  it('asks this tab for a token and hands the answer to git; a blank answer is a Cancel; a stopped command withdraws its ask', async () => {
    const { context } = makeTestContext()
    const notices: WorkerNotice[] = []
    const { remotes, handlers } = createGitRemotes(() => context, (notice) => notices.push(notice))
    const asked = remotes.askToken({ host: 'example.com', url: 'https://example.com/a.git' }, new AbortController().signal)
    expect(notices).toEqual([{ type: 'git-token-wanted', ask: { id: 'git-token-1', host: 'example.com', url: 'https://example.com/a.git' } }])
    await handlers.answerGitToken({ id: 'git-token-1', token: ' typed ' })
    expect(await asked).toBe('typed')

    const blank = remotes.askToken({ host: 'example.com', url: 'https://example.com/a.git' }, new AbortController().signal)
    await handlers.answerGitToken({ id: 'git-token-2', token: '   ' })
    expect(await blank).toBeUndefined()

    const stop = new AbortController()
    const stopped = remotes.askToken({ host: 'example.com', url: 'https://example.com/a.git' }, stop.signal)
    stop.abort()
    expect(await stopped).toBeUndefined()
    expect(notices.at(-1)).toEqual({ type: 'git-token-settled', id: 'git-token-3' })
    // Nothing is kept until git says the server accepted the token.
    expect(await handlers.listGitTokenHosts()).toEqual([])
    await remotes.saveToken('example.com', 'typed')
    expect(await handlers.listGitTokenHosts()).toEqual(['example.com'])
    await handlers.removeGitToken('example.com')
    expect(await remotes.token('example.com')).toBeUndefined()
  })

  it('uses the CORS proxy from Settings, and none by default', async () => {
    const { context } = makeTestContext()
    const { remotes } = createGitRemotes(() => context, () => {})
    expect(await remotes.corsProxy()).toBeUndefined()
    await context.db.settings.put({ key: 'git.corsProxy', value: 'https://proxy.example.com' })
    expect(await remotes.corsProxy()).toBe('https://proxy.example.com')
  })
})
