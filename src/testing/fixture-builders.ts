import { makeIdGenerator } from '../core/id'
import { emptyTokens, type AssistantMessage, type PartOf, type SessionInfo, type UserMessage } from '../core/schema'
import { defaultTitle } from '../core/title'

/** Valid rows for tests and benchmarks, with ids minted from the given clock so order follows time. */
export function makeBuilders(start = Date.UTC(2026, 10, 30, 12)) {
  const ids = makeIdGenerator()
  let time = start
  const tick = () => ++time

  const session = (overrides: Partial<SessionInfo> = {}): SessionInfo => {
    const now = tick()
    return {
      id: ids.descending('session', now),
      slug: 'calm-otter',
      projectID: 'prj_test',
      directory: '/workspace',
      title: defaultTitle({ child: !!overrides.parentID, now }),
      version: 'test',
      cost: 0,
      tokens: emptyTokens(),
      time: { created: now, updated: now },
      ...overrides,
    }
  }

  const user = (sessionID: string, overrides: Partial<UserMessage> = {}): UserMessage => ({
    id: ids.ascending('message', tick()),
    sessionID,
    role: 'user',
    time: { created: time },
    agent: 'build',
    model: { providerID: 'openai', modelID: 'gpt-test' },
    ...overrides,
  })

  const assistant = (sessionID: string, parentID: string, overrides: Partial<AssistantMessage> = {}): AssistantMessage => ({
    id: ids.ascending('message', tick()),
    sessionID,
    role: 'assistant',
    time: { created: time, completed: time + 1 },
    parentID,
    modelID: 'gpt-test',
    providerID: 'openai',
    agent: 'build',
    mode: 'build',
    path: { cwd: '/workspace', root: '/workspace' },
    cost: 0,
    tokens: emptyTokens(),
    finish: 'stop',
    ...overrides,
  })

  const text = (message: { id: string; sessionID: string }, value: string): PartOf<'text'> => ({
    id: ids.ascending('part', tick()),
    sessionID: message.sessionID,
    messageID: message.id,
    type: 'text',
    text: value,
  })

  const stepFinish = (
    message: { id: string; sessionID: string },
    cost: number,
    input: number,
    output: number,
  ): PartOf<'step-finish'> => ({
    id: ids.ascending('part', tick()),
    sessionID: message.sessionID,
    messageID: message.id,
    type: 'step-finish',
    reason: 'stop',
    cost,
    tokens: { input, output, reasoning: 0, cache: { read: 0, write: 0 } },
  })

  return { ids, session, user, assistant, text, stepFinish, now: () => time }
}
