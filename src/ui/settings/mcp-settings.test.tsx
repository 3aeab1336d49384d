// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render } from 'solid-js/web'
import type { McpServerInput, McpServerSummary } from '../../core/mcp'
import { McpSection, type McpSettingsApi } from './mcp-settings'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function mount(api: McpSettingsApi): HTMLElement {
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(() => <McpSection api={api} agents={[]} />, container)
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
})
