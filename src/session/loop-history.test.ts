import { describe, expect, it } from 'vitest'
import { ToolRegistry } from '../tools/registry'
import { runLoop, type LoopDependencies } from './loop'
import type { ModelSource } from './model-source'
import type { Message, Part, PartOf } from '../core/schema'
import { writeFixture } from '../store/fixture'
import { createUserMessage } from '../store/prompt'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { testWorkspacePorts } from '../testing/loop-dependencies'
import { countReads } from '../testing/count-reads'
import { scriptedModel, textReply } from '../testing/scripted-model'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

/**
 * A long session compacted near its end, as a real one is: `older` turns, a marker whose summary kept the last turn
 * verbatim, the "continue" it added and the reply to that. The session's diffs were recorded by earlier turns.
 */
async function compactedSession(older: number) {
  const test = makeTestContext()
  const build = makeBuilders()
  const session = build.session({ summary: { additions: 0, deletions: 0, files: 0, diffs: [] } })
  const messages: Message[] = []
  const parts: Part[] = []
  const add = (info: Message, part: (info: Message) => Part[]) => {
    messages.push(info)
    parts.push(...part(info))
    return info
  }
  for (let index = 0; index < older; index++) {
    const user = add(build.user(session.id), (info) => [build.text(info, `old question ${index}`)])
    add(build.assistant(session.id, user.id), (info) => [build.text(info, `old answer ${index}`), build.stepFinish(info, 0, 10, 10)])
  }
  const tailStart = messages.at(-2)!
  const marker = add(build.user(session.id), (info) => [
    { id: build.ids.ascending('part', build.now()), sessionID: session.id, messageID: info.id, type: 'compaction', auto: true, tail_start_id: tailStart.id } as PartOf<'compaction'>,
  ])
  add(build.assistant(session.id, marker.id, { summary: true, agent: 'compaction', mode: 'compaction' }), (info) => [build.text(info, 'THE SUMMARY')])
  const resume = add(build.user(session.id), (info) => [
    { ...build.text(info, 'Continue if you have next steps'), synthetic: true, metadata: { compaction_continue: true } },
  ])
  add(build.assistant(session.id, resume.id), (info) => [build.text(info, 'carried on')])
  await writeFixture(test.context, { sessions: [session], messages, parts })
  // The new prompt comes after every seeded row.
  test.advance(build.now() - test.context.now() + 1_000)
  return { ...test, session, messages, start: messages.findIndex((info) => info.id === tailStart.id) }
}

async function oneTextTurn(older: number) {
  const test = await compactedSession(older)
  const main = scriptedModel([textReply('the new answer')])
  const models: ModelSource = {
    resolve: async (reference) => ({ model: main.model, providerID: reference.providerID, modelID: reference.modelID, limit: { context: 100_000, output: 4_000 }, cost: { input: 0, output: 0 } }),
    smallModel: async () => undefined,
  }
  const dependencies: LoopDependencies = {
    store: test.context,
    models,
    tools: new ToolRegistry(),
    retryLimit: async () => 0,
    sleep: async () => {},
    setStatus: () => {},
    // Pruning runs in the background once the loop ends; it is left out of what the step reads.
    compaction: async () => ({ auto: true, prune: false }),
    ...testWorkspacePorts({ now: test.context.now }),
    snapshots: {
      track: async () => 'snp_same',
      changedFiles: async () => [],
      diffs: async () => [],
      sessionDiffs: async () => [],
    },
  }
  await createUserMessage(test.context, { sessionID: test.session.id, parts: [{ type: 'text', text: 'the new prompt' }], model: MODEL })
  const read = await countReads(test.db)
  const stop = await runLoop(dependencies, test.session.id, { signal: new AbortController().signal })
  expect(stop).toMatchObject({ type: 'inbox-empty' })
  const older_ = new Set(test.messages.slice(0, Math.max(0, test.start - 4)).map((info) => info.id))
  return { read, older: older_, request: JSON.stringify(main.model.doStreamCalls[0]!.prompt) }
}

describe('a step in a long compacted session', () => {
  it('reads no part from before the compaction’s kept tail, and sends what the whole history would', async () => {
    const { read, older, request } = await oneTextTurn(1_500)
    expect([...read.parts].filter((id) => older.has(id))).toEqual([])
    // Message rows are walked in doubling batches from the newest: the last batch may reach a few rows further back.
    expect([...read.messages].filter((id) => older.has(id)).length).toBeLessThanOrEqual(16)
    // The request: the summary, the turn it kept verbatim, what followed, the new prompt; nothing older.
    expect(request).toContain('THE SUMMARY')
    expect(request).toContain('old question 1499')
    expect(request).toContain('carried on')
    expect(request).toContain('the new prompt')
    expect(request).not.toContain('old question 1498')
  })

  it('costs the same number of row reads in a session ten times longer', async () => {
    const short = await oneTextTurn(150)
    const long = await oneTextTurn(1_500)
    expect(long.read.rows).toBe(short.read.rows)
    expect(long.request.replace(/old (question|answer) \d+/g, '')).toBe(short.request.replace(/old (question|answer) \d+/g, ''))
  })
})
