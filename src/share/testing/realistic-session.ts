import { makeIdGenerator } from '../../core/id'
import type { MessageWithParts } from '../../store/message-store'
import type { AssistantMessage, Part, SessionInfo, UserMessage } from '../../core/schema'
import type { SessionTranscript } from '../transcript'
import { CONVERSATION } from './conversation'

/**
 * A text-only session of 100 messages shaped exactly as the agent loop stores one: a user message with its text,
 * then an assistant message with step-start, text and step-finish parts, real-looking timings, growing token
 * counts and the costs the price table gives. Deterministic, so the link size it yields is a stable figure.
 */
export function realisticTranscript(start = Date.UTC(2026, 10, 30, 9, 14, 3)): SessionTranscript {
  const ids = makeIdGenerator()
  let time = start
  // A fixed linear congruential sequence: varied but repeatable gaps between events.
  let seed = 7
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const wait = (min: number, max: number) => (time += Math.round(min + random() * (max - min)))

  const sessionID = ids.descending('session', time)
  const model = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' }
  const messages: MessageWithParts[] = []
  let context = 9_800
  let totalCost = 0
  // Spelled out rather than emptyTokens(): this file stays free of zod so a page can build the fixture.
  const totals = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }

  for (const [prompt, answer] of CONVERSATION) {
    const userTime = wait(20_000, 180_000)
    const user: UserMessage = {
      id: ids.ascending('message', userTime),
      sessionID,
      role: 'user',
      time: { created: userTime },
      agent: 'build',
      model,
    }
    const userText: Part = { id: ids.ascending('part', userTime), sessionID, messageID: user.id, type: 'text', text: prompt }
    messages.push({ info: user, parts: [userText] })

    const created = wait(30, 90)
    const firstToken = wait(900, 2_400)
    const lastToken = wait(answer.length * 8, answer.length * 14)
    const completed = wait(20, 60)
    const input = Math.round(prompt.length / 3.6)
    const output = Math.round(answer.length / 3.9)
    const cacheRead = context
    context += input + output
    const cost = (input * 3_000_000 + output * 15_000_000 + cacheRead * 300_000) / 1e12
    totalCost += cost
    totals.input += input
    totals.output += output
    totals.cache.read += cacheRead
    const assistantID = ids.ascending('message', created)
    const assistant: AssistantMessage = {
      id: assistantID,
      sessionID,
      role: 'assistant',
      time: { created, completed },
      parentID: user.id,
      modelID: model.modelID,
      providerID: model.providerID,
      agent: 'build',
      mode: 'build',
      path: { cwd: '/workspace', root: '/workspace' },
      cost,
      tokens: { input, output, reasoning: 0, cache: { read: cacheRead, write: 0 } },
      finish: 'stop',
    }
    const parts: Part[] = [
      { id: ids.ascending('part', created), sessionID, messageID: assistantID, type: 'step-start', snapshot: 'c7d1e0a4b5f62938a1d0e7c4b8f5a69d20e1c3b7a4f8d6e2c5b9a1f0e3d7c4b2' },
      { id: ids.ascending('part', firstToken), sessionID, messageID: assistantID, type: 'text', text: answer, time: { start: firstToken, end: lastToken } },
      {
        id: ids.ascending('part', completed),
        sessionID,
        messageID: assistantID,
        type: 'step-finish',
        reason: 'stop',
        snapshot: 'c7d1e0a4b5f62938a1d0e7c4b8f5a69d20e1c3b7a4f8d6e2c5b9a1f0e3d7c4b2',
        cost,
        tokens: { input, output, reasoning: 0, cache: { read: cacheRead, write: 0 } },
      },
    ]
    messages.push({ info: assistant, parts })
  }

  const info: SessionInfo = {
    id: sessionID,
    slug: 'quiet-harbor',
    projectID: 'prj_0190a1b2c3d40000AbCdEfGhIj',
    directory: '/workspace',
    title: 'CSV import for stock counts',
    version: '0.1.0',
    model: { ...model },
    agent: 'build',
    cost: totalCost,
    tokens: totals,
    time: { created: start, updated: time },
  }
  return { info, messages }
}
