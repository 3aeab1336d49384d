import { describe, expect, it } from 'vitest'
import type { PermissionAsk } from '../../core/schema'
import { askSummary } from './ask-summary'

const ask = (overrides: Partial<PermissionAsk>): PermissionAsk =>
  ({ id: 'per_1', sessionID: 'ses_1', permission: 'x', patterns: ['*'], always: ['*'], metadata: {}, time: { created: 1 }, ...overrides }) as PermissionAsk

describe('askSummary', () => {
  it('names an MCP tool, its server and the input it would send', () => {
    const summary = askSummary(ask({ permission: 'dict_lookup', metadata: { server: 'dict', tool: 'lookup', input: { word: 'zephyr' } } }))
    expect(summary.title).toBe('Allow dict_lookup?')
    expect(summary.description).toContain('lookup on the MCP server dict')
    expect(summary.detail).toBe('{\n  "word": "zephyr"\n}')
  })
})
