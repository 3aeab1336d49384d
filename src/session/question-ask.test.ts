import { describe, expect, test } from 'vitest'
import { ascending } from '../core/id'
import type { EventOf, SessionEvent } from '../core/event'
import { agentRules } from '../core/permission/defaults'
import { disabledTools, effectiveRules } from '../core/permission/evaluate'
import { PermissionDeniedError } from '../core/permission/errors'
import { PermissionReplySchema, type PermissionAsk } from '../core/schema'
import { createPermissionService } from './ask-service'
import type { StoreContext } from '../store/context'
import { makeTestContext } from '../testing/test-context'
import { executeTool } from '../tools/registry'
import { makeToolContext } from '../tools/testing/tool-context'
import { questionTool } from '../tools/question'
import type { ToolDefinition } from '../tools/tool'

const colour = {
  question: 'Which colour should the button be?',
  header: 'Colour',
  options: [
    { label: 'Blue', description: 'Matches the header' },
    { label: 'Green', description: 'Reads as success' },
  ],
}
const extras = {
  question: 'Which extras?',
  header: 'Extras',
  options: [
    { label: 'Icon', description: 'A leading icon' },
    { label: 'Tooltip', description: 'A hint on hover' },
  ],
  multiple: true,
}

/** The question tool wired to a real ask service over a test database, as the worker wires it. */
function setup(agent = 'build') {
  const base = makeTestContext()
  const events: SessionEvent[] = []
  let onAsked: ((ask: PermissionAsk) => void) | undefined
  const store: StoreContext = {
    ...base.context,
    emit: (event) => {
      events.push(event)
      if (event.type === 'permission.asked') onAsked?.(event.ask)
    },
  }
  const service = createPermissionService({ store, lockless: true })
  const sessionID = ascending('session')
  const projectID = ascending('project')
  const messageID = ascending('message')
  const context = makeToolContext({ sessionID, messageID })
  context.ask = (request) =>
    service.check({ sessionID, projectID, messageID, callID: context.callID, agentRules: agentRules(agent), request, signal: context.abort })
  const asked = new Promise<PermissionAsk>((resolve) => (onAsked = resolve))
  const run = (input: unknown) => executeTool(questionTool as ToolDefinition, input, context)
  const replied = () => events.filter((event): event is EventOf<'permission.replied'> => event.type === 'permission.replied')
  return { service, context, asked, run, replied, sessionID }
}

describe('the question tool', () => {
  test('waits for the answers and gives them to the model in opencode’s words', async () => {
    const { service, asked, run } = setup()
    const result = run({ questions: [colour, extras] })
    const ask = await asked
    expect(ask.permission).toBe('question')
    expect(ask.metadata.questions).toEqual([colour, extras])
    await service.reply(ask.id, { type: 'answer', answers: [['Green'], ['Icon', 'Tooltip']] })
    const done = await result
    expect(done.output).toBe(
      'User has answered your questions: "Which colour should the button be?"="Green", "Which extras?"="Icon, Tooltip". ' +
        "You can now continue with the user's answers in mind.",
    )
    expect(done.title).toBe('Asked 2 questions')
    expect(done.metadata.answers).toEqual([['Green'], ['Icon', 'Tooltip']])
  })

  test('takes a typed answer and says which question was left unanswered', async () => {
    const { service, asked, run } = setup()
    const result = run({ questions: [colour, extras] })
    await service.reply((await asked).id, { type: 'answer', answers: [['Purple, please'], []] })
    expect((await result).output).toContain('"Which colour should the button be?"="Purple, please", "Which extras?"="Unanswered"')
  })

  test('refuses two answers to a single-choice question, and the question stays open for a good answer', async () => {
    const { service, asked, run } = setup()
    const result = run({ questions: [colour] })
    const ask = await asked
    await expect(service.reply(ask.id, { type: 'answer', answers: [['Blue', 'Green']] })).rejects.toMatchObject({
      name: 'QuestionAnswerError',
      message: 'Answer 1: "Which colour should the button be?" takes one answer, got 2.',
    })
    await expect(service.reply(ask.id, { type: 'answer', answers: [['Blue'], ['Green']] })).rejects.toThrow(/expected 1 answer lists/)
    expect(await service.pending(ask.sessionID)).toHaveLength(1)
    await service.reply(ask.id, { type: 'answer', answers: [['Blue']] })
    expect((await result).output).toContain('="Blue"')
  })

  test('a question is answered or dismissed, never "allowed"', async () => {
    const { service, asked, run } = setup()
    void run({ questions: [colour] }).catch(() => {})
    const ask = await asked
    await expect(service.reply(ask.id, { type: 'once' })).rejects.toMatchObject({ name: 'QuestionAnswerError' })
    expect(await service.pending(ask.sessionID)).toHaveLength(1)
  })

  test('dismissing rejects the call like a permission reject (the turn stops after the step)', async () => {
    const { service, asked, run, replied } = setup()
    const result = run({ questions: [colour] })
    const ask = await asked
    await service.reply(ask.id, { type: 'reject' })
    await expect(result).rejects.toMatchObject({ name: 'QuestionRejectedError', message: 'The user dismissed this question' })
    expect(replied().map((event) => event.reply)).toEqual([{ type: 'reject' }])
  })

  test('stopping the turn while a question waits withdraws it and ends the call as aborted', async () => {
    const { service, asked, run, context, replied, sessionID } = setup()
    const result = run({ questions: [colour] })
    await asked
    context.controller.abort()
    await expect(result).rejects.toMatchObject({ name: 'AbortError' })
    expect(await service.pending(sessionID)).toEqual([])
    // Every tab's dialog closes on this event.
    expect(replied()).toHaveLength(1)
  })

  test('a subagent may not ask: the rules deny it before anyone is asked', async () => {
    const { run, replied } = setup('general')
    await expect(run({ questions: [colour] })).rejects.toSatisfy(PermissionDeniedError.isInstance)
    expect(replied()).toEqual([])
  })

  test('a call without questions or options is an input error the model can fix', async () => {
    const { run } = setup()
    await expect(run({ questions: [] })).rejects.toThrow(/question tool was called with invalid arguments: questions/)
    await expect(run({ questions: [{ question: 'Why?', header: 'Why' }] })).rejects.toThrow(/questions\.0\.options/)
  })
})

describe('the answer reply', () => {
  test('carries one list per question and crosses the boundary as plain data', () => {
    expect(PermissionReplySchema.parse({ type: 'answer', answers: [['Blue'], []] })).toEqual({ type: 'answer', answers: [['Blue'], []] })
    expect(PermissionReplySchema.safeParse({ type: 'answer', answers: ['Blue'] }).success).toBe(false)
    expect(PermissionReplySchema.safeParse({ type: 'answer' }).success).toBe(false)
  })
})

describe('who may ask', () => {
  test('build and plan are offered the tool; subagents and hidden agents are not', () => {
    const hidden = (agent: string) => disabledTools(['question', 'read'], effectiveRules({ agentRules: agentRules(agent) })).has('question')
    expect(['build', 'plan'].map(hidden)).toEqual([false, false])
    expect(['general', 'explore', 'compaction', 'title', 'summary'].map(hidden)).toEqual([true, true, true, true, true])
  })
})
