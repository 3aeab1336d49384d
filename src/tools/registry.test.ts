import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { executeTool, ToolRegistry } from './registry'
import { memoryOutputs } from './testing/tool-context'

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
    const call = registry.resolve({ toolName: 'python', input: '{}' })
    expect(call.toolName).toBe('invalid')
    expect(call.input).toEqual({ tool: 'python', error: expect.stringMatching(/unavailable tool 'python'. Available tools: bash, read, .*todowrite/) })
  })

  it('routes arguments that are not JSON to invalid, saying why', () => {
    const call = registry.resolve({ toolName: 'todowrite', input: '{"todos": [' })
    expect(call).toEqual({ toolName: 'invalid', input: { tool: 'todowrite', error: expect.stringMatching(/^Invalid input for tool todowrite: the arguments are not valid JSON/) } })
  })

  it('describes every tool to the model with a JSON schema, the same object each step', () => {
    const context = { sessionID: 's', messageID: 'm', progress: () => {} } as unknown as Parameters<ToolRegistry['stepTools']>[0]
    const first = registry.stepTools(context, new AbortController().signal).definitions
    expect(first.map((tool) => tool.name)).toEqual(['bash', 'edit', 'glob', 'grep', 'invalid', 'list', 'question', 'read', 'task', 'todowrite', 'webfetch', 'write'])
    expect(first.find((tool) => tool.name === 'todowrite')?.inputSchema).toMatchObject({ type: 'object', properties: { todos: { type: 'array' } } })
    expect(registry.stepTools(context, new AbortController().signal).definitions).toBe(first)
  })

  it('keeps the end of a long command output and the start of anything else, saving the whole', async () => {
    const outputs = memoryOutputs()
    const lines = Array.from({ length: 3_000 }, (_, index) => `line ${index + 1}`).join('\n')
    const tool = (id: string, truncate?: 'tail') => ({ id, description: '', parameters: z.object({}), ...(truncate ? { truncate } : {}), execute: async () => ({ title: id, output: lines }) })
    const toolContext = { outputs, sessionID: 'ses_x', messageID: 'msg_x', callID: 'c' } as never
    const head = await executeTool(tool('a'), {}, toolContext)
    const tail = await executeTool(tool('b', 'tail'), {}, toolContext)
    expect(head.output.startsWith('line 1\n')).toBe(true)
    expect(tail.output.endsWith('line 3000')).toBe(true)
    expect(tail.output).toMatch(/^… 1000 earlier lines not shown/)
    expect(await outputs.read(tail.metadata.outputID as string)).toBe(lines)
  })
})
