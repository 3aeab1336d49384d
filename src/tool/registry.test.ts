import { describe, expect, it } from 'vitest'
import { ToolRegistry } from './registry'

describe('the tool registry', () => {
  const registry = new ToolRegistry()

  it('reads a call whose name and input are right as it is', () => {
    expect(registry.resolve({ toolName: 'todowrite', input: '{"todos":[]}' })).toEqual({ toolName: 'todowrite', input: { todos: [] } })
    expect(registry.resolve({ toolName: 'todowrite', input: '  ' })).toEqual({ toolName: 'todowrite', input: {} })
  })

  it('repairs a name that is only wrong in case', () => {
    expect(registry.resolve({ toolName: 'TodoWrite', input: '{}' })).toEqual({ toolName: 'todowrite', input: {} })
  })

  it('routes an unknown tool to invalid, naming the tools that exist', () => {
    const call = registry.resolve({ toolName: 'bash', input: '{}' })
    expect(call.toolName).toBe('invalid')
    expect(call.input).toEqual({ tool: 'bash', error: expect.stringMatching(/unavailable tool 'bash'.*todowrite, webfetch/) })
  })

  it('routes arguments that are not JSON to invalid, saying why', () => {
    const call = registry.resolve({ toolName: 'todowrite', input: '{"todos": [' })
    expect(call).toEqual({ toolName: 'invalid', input: { tool: 'todowrite', error: expect.stringMatching(/^Invalid input for tool todowrite: the arguments are not valid JSON/) } })
  })

  it('describes every tool to the model with a JSON schema, the same object each step', () => {
    const context = { store: {} as never, sessionID: 's', messageID: 'm', progress: () => {} }
    const first = registry.stepTools(context, new AbortController().signal).definitions
    expect(first.map((tool) => tool.name)).toEqual(['invalid', 'todowrite', 'webfetch'])
    expect(first.find((tool) => tool.name === 'todowrite')?.inputSchema).toMatchObject({ type: 'object', properties: { todos: { type: 'array' } } })
    expect(registry.stepTools(context, new AbortController().signal).definitions).toBe(first)
  })
})
