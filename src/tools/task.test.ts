import { describe, expect, it, vi } from 'vitest'
import type { SubtaskRequest } from '../core/ports'
import { describeTask, makeTaskTool, taskTool } from './task'
import { makeToolContext } from './testing/tool-context'

function contextWith(subtask: (request: SubtaskRequest) => Promise<{ sessionID: string; output: string }>) {
  const calls: SubtaskRequest[] = []
  const context = makeToolContext({
    subtask: (request) => {
      calls.push(request)
      return subtask(request)
    },
  })
  return { context, calls }
}

describe('task', () => {
  it('runs the subagent and returns its answer in opencode 1.18\'s <task> shape, with the id to continue it', async () => {
    const model = { providerID: 'anthropic', modelID: 'claude-sonnet-4' }
    const { context, calls } = contextWith(async () => ({ sessionID: 'ses_child', output: 'Found it in src/api.ts.', model }))
    const result = await taskTool.execute(
      { description: 'Find API routes', prompt: 'List every API route and its file.', subagent_type: 'explore' },
      context,
    )
    expect(calls).toEqual([{ agent: 'explore', description: 'Find API routes', prompt: 'List every API route and its file.' }])
    expect(result).toEqual({
      title: 'Find API routes',
      output: '<task id="ses_child" state="completed">\n<task_result>\nFound it in src/api.ts.\n</task_result>\n</task>',
      metadata: { parentSessionId: context.sessionID, sessionId: 'ses_child', model, truncated: false },
    })
    expect(context.asks).toEqual([
      { permission: 'task', patterns: ['explore'], always: ['*'], metadata: { description: 'Find API routes', subagent_type: 'explore' } },
    ])
    expect(context.updates[0]).toMatchObject({ title: 'Find API routes' })
  })

  it('continues an earlier child session when given its task_id', async () => {
    const { context, calls } = contextWith(async (request) => ({ sessionID: request.sessionID ?? 'ses_new', output: 'More.' }))
    const result = await taskTool.execute({ description: 'Dig deeper', prompt: 'Go on.', subagent_type: 'general', task_id: 'ses_old' }, context)
    expect(calls[0]).toEqual({ agent: 'general', description: 'Dig deeper', prompt: 'Go on.', sessionID: 'ses_old' })
    expect(result.output).toMatch(/^<task id="ses_old" state="completed">/)
  })

  it('refuses an agent it does not offer, without asking or running anything', async () => {
    const subtask = vi.fn(async () => ({ sessionID: 'ses_x', output: '' }))
    const { context } = contextWith(subtask)
    await expect(taskTool.execute({ description: 'x', prompt: 'y', subagent_type: 'build' }, context)).rejects.toThrow(
      'Unknown agent type: build is not a valid agent type. Available: general, explore.',
    )
    expect(subtask).not.toHaveBeenCalled()
    expect(context.asks).toEqual([])
  })

  it('fails the call when the subagent fails (an aborted turn, say)', async () => {
    const { context } = contextWith(async () => {
      throw new Error('Stopped by the user')
    })
    await expect(taskTool.execute({ description: 'x', prompt: 'y', subagent_type: 'general' }, context)).rejects.toThrow('Stopped by the user')
  })

  it('lists the subagents it is given in its description', () => {
    const tool = makeTaskTool([{ name: 'reviewer', description: 'Reviews a diff.' }])
    expect(tool.description).toContain('Available agent types and the tools they have access to:\n- reviewer: Reviews a diff.\n')
    expect(taskTool.description).toMatch(/- general: General-purpose agent.*\n- explore: Fast agent specialized for exploring codebases/)
  })

  it("starts the turn's subagents, the project's and the user's included, and no others", async () => {
    const { context, calls } = contextWith(async () => ({ sessionID: 'ses_child', output: 'Reviewed.' }))
    const turn = { ...context, subagents: [{ name: 'reviewer', description: 'Reviews code' }] }
    await taskTool.execute({ description: 'Review', prompt: 'Review src.', subagent_type: 'reviewer' }, turn)
    expect(calls[0]).toMatchObject({ agent: 'reviewer' })
    await expect(taskTool.execute({ description: 'Look', prompt: 'Look.', subagent_type: 'explore' }, turn)).rejects.toThrow('Available: reviewer.')
    expect(describeTask(turn.subagents)).toContain('- reviewer: Reviews code')
  })
})
