import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { getSettings, setSetting } from './provider-store'
import { forgetMcpOAuth, listMcpServers, loadMcpOAuth, loadMcpServers, removeMcpServer, saveMcpServer, updateMcpOAuth, watchMcpSecrets } from './mcp-store'

const SECRET = 'Bearer mcp-secret-0123456789'
const input = { name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization', value: SECRET }], enabled: true }

describe('MCP servers in the settings table', () => {
  it('stores header values for the engine and never hands them out', async () => {
    const { context } = makeTestContext()
    const saved = await saveMcpServer(context, input)
    expect(saved).toEqual([{ name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization' }], enabled: true }])
    expect(JSON.stringify(await listMcpServers(context))).not.toContain('mcp-secret')
    expect(JSON.stringify(await getSettings(context))).not.toContain('mcp-secret')
    expect((await loadMcpServers(context))[0]?.headers).toEqual([{ name: 'Authorization', value: SECRET }])
    // Edited without the value: the stored one stays.
    await saveMcpServer(context, { ...input, previous: 'docs', headers: [{ name: 'Authorization' }], enabled: false })
    expect((await loadMcpServers(context))[0]).toMatchObject({ enabled: false, headers: [{ name: 'Authorization', value: SECRET }] })
  })

  it('is not written as a whole row through setSetting', async () => {
    const { context } = makeTestContext()
    await expect(setSetting(context, { key: 'mcp.servers', value: [] })).rejects.toMatchObject({ name: 'InputError' })
  })

  it('removes a server, and says when there is none of that name', async () => {
    const { context } = makeTestContext()
    await saveMcpServer(context, input)
    expect(await removeMcpServer(context, 'docs')).toEqual([])
    await expect(removeMcpServer(context, 'docs')).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it('tells the logger the header values as they change', async () => {
    const { context, db } = makeTestContext()
    const seen: string[][] = []
    const watching = watchMcpSecrets(db, { next: (secrets) => seen.push(secrets), error: () => {} })
    await saveMcpServer(context, input)
    await expect.poll(() => seen.at(-1)).toEqual([SECRET])
    watching.unsubscribe()
  })

  describe('OAuth sign-ins', () => {
    const server = { name: 'docs', url: 'https://mcp.example/mcp' }
    const tokens = { access_token: 'oauth-access-0123456789', token_type: 'Bearer', refresh_token: 'oauth-refresh-0123456789' }

    it('keeps a server’s tokens for the engine, shows only that it is signed in, and signs out', async () => {
      const { context } = makeTestContext()
      await saveMcpServer(context, input)
      await updateMcpOAuth(context, server, (record) => ({ ...record, tokens }))
      expect((await loadMcpOAuth(context, server)).tokens).toEqual(tokens)
      const listed = await listMcpServers(context)
      expect(listed[0]?.signedIn).toBe(true)
      expect(JSON.stringify(listed)).not.toContain('oauth-')
      expect(JSON.stringify(await getSettings(context))).not.toContain('oauth-')
      await expect(setSetting(context, { key: 'mcp.oauth', value: {} })).rejects.toMatchObject({ name: 'InputError' })
      await forgetMcpOAuth(context, 'docs')
      expect((await listMcpServers(context))[0]?.signedIn).toBeUndefined()
    })

    it('forgets tokens made for another URL, follows a rename and goes with a removed server', async () => {
      const { context } = makeTestContext()
      await saveMcpServer(context, input)
      await updateMcpOAuth(context, server, (record) => ({ ...record, tokens }))
      expect((await loadMcpOAuth(context, { name: 'docs', url: 'https://moved.example/mcp' })).tokens).toBeUndefined()
      await saveMcpServer(context, { ...input, previous: 'docs', name: 'manual', headers: [{ name: 'Authorization' }] })
      expect((await loadMcpOAuth(context, { ...server, name: 'manual' })).tokens).toEqual(tokens)
      await removeMcpServer(context, 'manual')
      expect((await loadMcpOAuth(context, { ...server, name: 'manual' })).tokens).toBeUndefined()
    })

    it('tells the logger the tokens too', async () => {
      const { context, db } = makeTestContext()
      const seen: string[][] = []
      const watching = watchMcpSecrets(db, { next: (secrets) => seen.push(secrets), error: () => {} })
      await saveMcpServer(context, input)
      await updateMcpOAuth(context, server, (record) => ({ ...record, tokens, codeVerifier: 'oauth-verifier-0123456789' }))
      await expect.poll(() => seen.at(-1)?.sort()).toEqual([SECRET, tokens.access_token, tokens.refresh_token, 'oauth-verifier-0123456789'].sort())
      watching.unsubscribe()
    })
  })
})
