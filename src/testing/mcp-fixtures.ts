// A remote MCP server's settings and a connection that looks words up, for the hub's tests and the loop's.
import type { McpServerConfig } from '../core/mcp'
import type { McpConnection } from '../mcp/hub'

export const mcpConfig = (name: string, overrides: Partial<McpServerConfig> = {}): McpServerConfig => ({
  type: 'remote',
  name,
  url: `https://${name}.example/mcp`,
  headers: [],
  enabled: true,
  ...overrides,
})

export function dictionaryConnection(calls: unknown[] = []): McpConnection {
  return {
    tools: [{ name: 'lookup', description: 'Looks a word up.', inputSchema: { $schema: 'draft-07', properties: { word: { type: 'string' } }, required: ['word'] } }],
    call: async (name, input) => {
      calls.push({ name, input })
      if (input.word === 'crash') throw new Error('socket hang up; sent Authorization: Bearer hub-secret-0123456789')
      if (input.word === 'fail') return { content: [{ type: 'text', text: 'No such word.' }], isError: true }
      return { content: [{ type: 'text', text: `${String(input.word)}: a word.` }, { type: 'text', text: 'Source: test.' }] }
    },
    close: async () => {},
  }
}
