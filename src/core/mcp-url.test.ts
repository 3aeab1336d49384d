import { describe, expect, it } from 'vitest'
import { InsecureMcpUrlError, isAllowedMcpUrl } from './mcp-url'

describe('MCP URLs', () => {
  it('are https anywhere, or http only on this machine', () => {
    for (const url of ['https://mcp.example/mcp', 'https://10.0.0.5/mcp', 'http://127.0.0.1:8790/mcp', 'http://localhost/mcp', 'http://[::1]:8080/x', 'http://app.localhost/']) {
      expect(isAllowedMcpUrl(url), url).toBe(true)
    }
    for (const url of ['http://mcp.example/mcp', 'http://192.168.1.2/mcp', 'http://localhost.example/', 'javascript:alert(1)', 'data:text/html,x', 'ftp://host/', 'blob:https://x/1', 'not a url']) {
      expect(isAllowedMcpUrl(url), url).toBe(false)
    }
    expect(isAllowedMcpUrl(new URL('http://127.0.0.1/'))).toBe(true)
  })

  it('refuses with an error that names the address', () => {
    const error = new InsecureMcpUrlError('http://auth.example/token')
    expect(error.name).toBe('InsecureMcpUrlError')
    expect(error.message).toContain('http://auth.example/token is not https')
  })
})
