import { makeBuilders } from '../../testing/fixture-builders'
import type { MessageWithParts } from '../../store/message-store'
import type { Part } from '../../core/schema'
import type { SessionTranscript } from '../transcript'

/**
 * A session that uses every kind of row an import has to carry: reasoning, tool calls (completed with an
 * attachment, failed, still pending), step parts with snapshots, a patch, a retry, a compaction pointing at a
 * message, a revert point, and a child session (a subagent) with its own messages.
 */
export function richTranscript(): SessionTranscript {
  const build = makeBuilders()
  const root = build.session({ title: 'Fix the flaky upload test', model: { providerID: 'openai', modelID: 'gpt-test' }, metadata: { pinned: true } })
  const child = build.session({ parentID: root.id, title: 'Explore the upload module' })

  const user1 = build.user(root.id)
  const assistant1 = build.assistant(root.id, user1.id)
  const now = build.now()
  const tool = (status: 'completed' | 'error' | 'pending', callID: string): Part => {
    const base = { id: build.ids.ascending('part', now + 1), sessionID: root.id, messageID: assistant1.id, type: 'tool' as const, callID, tool: 'bash' }
    if (status === 'completed') {
      return {
        ...base,
        state: {
          status,
          input: { command: 'npm test -- upload', description: 'Run the upload tests' },
          output: 'FAIL src/upload.test.ts\n  ✕ retries a dropped chunk (5012 ms)\n'.repeat(20),
          title: 'npm test -- upload',
          metadata: { exit: 1, preview: 'x'.repeat(500) },
          time: { start: now, end: now + 5100 },
          attachments: [
            { id: build.ids.ascending('part', now + 2), sessionID: root.id, messageID: assistant1.id, type: 'file', mime: 'text/plain', url: 'data:text/plain;base64,aGk=' },
          ],
        },
      }
    }
    if (status === 'error') {
      return { ...base, state: { status, input: { command: 'cat missing.txt' }, error: 'No such file', metadata: { interrupted: false }, time: { start: now, end: now + 3 } } }
    }
    return { ...base, state: { status, input: {}, raw: '{"comm' } }
  }
  const parts1: Part[] = [
    { id: build.ids.ascending('part', now), sessionID: root.id, messageID: assistant1.id, type: 'step-start', snapshot: 'snap-before' },
    { id: build.ids.ascending('part', now), sessionID: root.id, messageID: assistant1.id, type: 'reasoning', text: 'The test waits on a timer.', time: { start: now, end: now + 40 } },
    tool('completed', 'call_1'),
    tool('error', 'call_2'),
    tool('pending', 'call_3'),
    { id: build.ids.ascending('part', now + 3), sessionID: root.id, messageID: assistant1.id, type: 'patch', hash: 'snap-before', files: ['src/upload.ts'] },
    {
      id: build.ids.ascending('part', now + 3),
      sessionID: root.id,
      messageID: assistant1.id,
      type: 'retry',
      attempt: 1,
      error: { name: 'APIError', data: { message: 'overloaded', statusCode: 529, isRetryable: true } },
      time: { created: now + 4 },
    },
    { ...build.stepFinish(assistant1, 0.0123, 1200, 300), snapshot: 'snap-after' },
  ]
  const user2 = build.user(root.id)
  const assistant2 = build.assistant(root.id, user2.id, { summary: true, finish: 'stop' })
  const compactionUser = build.user(root.id)
  const compaction: Part = {
    id: build.ids.ascending('part', build.now()),
    sessionID: root.id,
    messageID: compactionUser.id,
    type: 'compaction',
    auto: true,
    tail_start_id: user2.id,
  }
  const assistant3 = build.assistant(root.id, compactionUser.id, { summary: true })

  const messages: MessageWithParts[] = [
    { info: user1, parts: [build.text(user1, 'The upload test fails one run in five. Can you find out why?')] },
    { info: assistant1, parts: parts1 },
    { info: user2, parts: [build.text(user2, 'Make the timer injectable then.')] },
    { info: assistant2, parts: [build.text(assistant2, 'Done: `createUploader({ clock })` now takes the clock.')] },
    { info: compactionUser, parts: [compaction] },
    { info: assistant3, parts: [build.text(assistant3, 'Summary: the upload test was flaky because of a real timer.')] },
  ]
  const childUser = build.user(child.id, { agent: 'explore' })
  const childAssistant = build.assistant(child.id, childUser.id, { agent: 'explore' })
  const childMessages: MessageWithParts[] = [
    { info: childUser, parts: [build.text(childUser, 'List the files of the upload module.')] },
    { info: childAssistant, parts: [build.text(childAssistant, 'src/upload.ts, src/chunk.ts, src/retry.ts')] },
  ]
  return {
    info: { ...root, revert: { messageID: user2.id } },
    messages,
    children: [{ info: child, messages: childMessages }],
  }
}
