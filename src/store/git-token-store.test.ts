import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { forgetGitToken, listGitTokenHosts, loadGitToken, saveGitToken } from './git-token-store'
import { getSettings, setSetting } from './provider-store'

const TOKEN = 'ghp_SECRET_0123456789'

describe('git tokens', () => {
  it('are kept per host, listed by host only, forgotten one at a time, and never in the settings the page reads', async () => {
    const { context } = makeTestContext()
    await saveGitToken(context, 'example.com', TOKEN)
    await saveGitToken(context, '127.0.0.1:8821', 'other')
    expect(await listGitTokenHosts(context)).toEqual(['127.0.0.1:8821', 'example.com'])
    expect(await loadGitToken(context, 'example.com')).toBe(TOKEN)
    expect(await loadGitToken(context, 'example.org')).toBeUndefined()
    expect(JSON.stringify(await getSettings(context))).not.toContain(TOKEN)
    await forgetGitToken(context, 'example.com')
    expect(await listGitTokenHosts(context)).toEqual(['127.0.0.1:8821'])
    expect(await loadGitToken(context, 'example.com')).toBeUndefined()
  })

  it('cannot be written as a setting; the CORS proxy can, as an http(s) URL, and empty means none', async () => {
    const { context } = makeTestContext()
    await expect(setSetting(context, { key: 'git.tokens', value: { 'example.com': TOKEN } })).rejects.toThrow('Git tokens are kept when a server accepts one')
    await expect(setSetting(context, { key: 'git.corsProxy', value: 'ftp://proxy' })).rejects.toThrow('The CORS proxy must be an http:// or https:// URL')
    expect((await getSettings(context)).gitCorsProxy).toBeUndefined()
    expect((await setSetting(context, { key: 'git.corsProxy', value: 'https://proxy.example.com' })).gitCorsProxy).toBe('https://proxy.example.com')
    expect((await setSetting(context, { key: 'git.corsProxy', value: '' })).gitCorsProxy).toBeUndefined()
  })
})
