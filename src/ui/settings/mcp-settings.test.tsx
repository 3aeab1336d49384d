// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render } from 'solid-js/web'
import type { McpServerInput, McpServerSummary } from '../../core/mcp'
import { MCP_OAUTH_CHANNEL } from '../../core/mcp-oauth-callback'
import { McpSection, type McpSettingsApi, type OpenSignInWindow } from './mcp-settings'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function mount(api: McpSettingsApi, openWindow?: OpenSignInWindow): HTMLElement {
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(() => <McpSection api={api} agents={[]} {...(openWindow ? { openWindow } : {})} />, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  return container
}

function button(root: HTMLElement, name: string): HTMLButtonElement {
  const found = [...root.querySelectorAll('button')].find((candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent?.trim()) === name)
  if (!found) throw new Error(`no button ${name}`)
  return found
}

const docs: McpServerSummary = { name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization' }], enabled: true }

function fakeApi(servers: McpServerSummary[]) {
  const saves: McpServerInput[] = []
  const api: McpSettingsApi = {
    listMcpServers: async () => servers,
    saveMcpServer: vi.fn(async (input: McpServerInput) => {
      saves.push(input)
      return servers
    }),
    removeMcpServer: async () => [],
    mcpStatus: vi.fn(async () => [{ name: 'docs', status: { state: 'cors' as const, origin: 'https://tabcode.example' } }]),
    mcpSignIn: async () => ({ type: 'connected' as const }),
    mcpFinishSignIn: async () => [],
    mcpSignOut: async () => [],
  }
  return { api, saves }
}

describe('MCP servers in Settings', () => {
  it('shows each server’s status, here a CORS refusal with the fix', async () => {
    const { api } = fakeApi([docs])
    const root = mount(api)
    await settle()
    await settle()
    const row = root.querySelector('[aria-label="MCP server docs"]')
    expect(row?.textContent).toContain('refuses requests from this page (CORS)')
    expect(row?.textContent).toContain('https://tabcode.example')
    button(root, 'Check again').click()
    await settle()
    expect(api.mcpStatus).toHaveBeenLastCalledWith({ refresh: true })
  })

  it('edits a server with its header values left empty, which keeps the stored ones', async () => {
    const { api, saves } = fakeApi([docs])
    const root = mount(api)
    await settle()
    button(root, 'Edit MCP server docs').click()
    const value = root.querySelector<HTMLInputElement>('[aria-label="Header 1 value"]')!
    expect(value.value).toBe('')
    expect(value.type).toBe('password')
    root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    await settle()
    expect(saves).toEqual([{ previous: 'docs', name: 'docs', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization' }], enabled: true }])
  })

  describe('OAuth sign-in', () => {
    const guarded: McpServerSummary = { name: 'guarded', url: 'https://mcp.example/mcp', headers: [], enabled: true }
    const needsSignIn = [{ name: 'guarded', status: { state: 'auth' as const, status: 401, oauth: true } }]
    const connected = [{ name: 'guarded', status: { state: 'connected' as const, tools: ['guarded_lookup'] } }]

    function signInApi() {
      let signedIn = false
      const api: McpSettingsApi = {
        listMcpServers: async () => [{ ...guarded, ...(signedIn ? { signedIn } : {}) }],
        saveMcpServer: async () => [],
        removeMcpServer: async () => [],
        mcpStatus: vi.fn(async () => (signedIn ? connected : needsSignIn)),
        mcpSignIn: vi.fn(async () => ({ type: 'authorize' as const, url: 'https://as.example/authorize?state=state-1', state: 'state-1' })),
        mcpFinishSignIn: vi.fn(async () => {
          signedIn = true
          return connected
        }),
        mcpSignOut: vi.fn(async () => {
          signedIn = false
          return needsSignIn
        }),
      }
      const popup = { location: { href: 'about:blank' }, closed: false, close: vi.fn() }
      return { api, popup, open: () => popup as unknown as Window }
    }

    const callback = (message: Record<string, string>) => {
      const channel = new BroadcastChannel(MCP_OAUTH_CHANNEL)
      channel.postMessage({ type: 'mcp-oauth-callback', ...message })
      channel.close()
    }

    it('opens the authorization URL in the popup, finishes with the callback’s code, and shows the server connected', async () => {
      const { api, popup, open } = signInApi()
      const root = mount(api, open)
      await settle()
      await settle()
      button(root, 'Sign in to MCP server guarded').click()
      await settle()
      expect(popup.location.href).toBe('https://as.example/authorize?state=state-1')
      expect(root.textContent).toContain('Waiting for the sign-in window')
      // Another sign-in's answer is not this one's.
      callback({ state: 'state-2', code: 'stray' })
      callback({ state: 'state-1', code: 'code-1' })
      await vi.waitFor(() => expect(api.mcpFinishSignIn).toHaveBeenCalledWith({ name: 'guarded', code: 'code-1', state: 'state-1' }))
      expect(api.mcpFinishSignIn).toHaveBeenCalledTimes(1)
      await vi.waitFor(() => expect(root.textContent).toContain('Connected: 1 tool.'))
      button(root, 'Sign out of MCP server guarded').click()
      await vi.waitFor(() => expect(root.textContent).toContain('offers OAuth'))
      expect(api.mcpSignOut).toHaveBeenCalledWith({ name: 'guarded' })
    })

    it('never loads a sign-in page that is not https into the popup, whatever the worker answered', async () => {
      for (const url of ['http://as.example/authorize?state=state-1', 'javascript:alert(document.domain)']) {
        const { api, popup, open } = signInApi()
        api.mcpSignIn = vi.fn(async () => ({ type: 'authorize' as const, url, state: 'state-1' }))
        const root = mount(api, open)
        await settle()
        await settle()
        button(root, 'Sign in to MCP server guarded').click()
        await vi.waitFor(() => expect(root.querySelector('[role="alert"]')?.textContent).toContain('is not https'))
        expect(popup.location.href).toBe('about:blank')
        expect(popup.close).toHaveBeenCalled()
        root.remove()
      }
    })

    it('says a refused or cancelled sign-in, and a blocked popup, without finishing', async () => {
      const { api, open } = signInApi()
      const root = mount(api, open)
      await settle()
      await settle()
      button(root, 'Sign in to MCP server guarded').click()
      await settle()
      callback({ state: 'state-1', error: 'access_denied' })
      await vi.waitFor(() => expect(root.querySelector('[role="alert"]')?.textContent).toContain('Sign-in to guarded was refused'))

      button(root, 'Sign in to MCP server guarded').click()
      await settle()
      button(root, 'Cancel sign-in to MCP server guarded').click()
      await vi.waitFor(() => expect(root.querySelector('[role="alert"]')?.textContent).toContain('Sign-in to guarded was cancelled'))
      expect(api.mcpFinishSignIn).not.toHaveBeenCalled()
      root.remove()

      const blocked = mount(api, () => null)
      await settle()
      await settle()
      button(blocked, 'Sign in to MCP server guarded').click()
      await vi.waitFor(() => expect(blocked.querySelector('[role="alert"]')?.textContent).toContain('blocked the sign-in window'))
    })
  })
})
