import { describe, expect, it } from 'vitest'
import { ToolRegistry } from '../tools/registry'
import { runLoop, type LoopDependencies } from '../session/loop'
import type { ModelSource } from '../session/model-source'
import { pruneSession } from '../session/compaction/prune'
import type { Message, Part, SessionInfo } from '../core/schema'
import { writeFixture } from '../store/fixture'
import { createUserMessage } from '../store/prompt'
import { loadRecentHistory } from '../store/recent-history'
import { importTranscript } from '../share/import'
import { fromOpencodeExport, toOpencodeExport } from '../share/opencode'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { testWorkspacePorts } from '../testing/loop-dependencies'
import { countReads } from '../testing/count-reads'
import { historyBuilder } from '../testing/test-history'
import { scriptedModel, textReply } from '../testing/scripted-model'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

type Builder = ReturnType<typeof historyBuilder>

/** opencode's automatic compaction loop: a typed prompt, then rounds of a reply, a marker keeping it, its summary, "continue". */
function compactionLoop(h: Builder, rounds: number) {
  h.user('the only typed prompt')
  for (let round = 0; round < rounds; round++) {
    const reply = h.assistant(`work ${round}`, { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `output ${round}`)])
    h.marker({ tail_start_id: reply.info.id })
    h.summary(`SUMMARY ${round}`)
    h.resume()
  }
  h.assistant('the newest work')
}

/** One typed prompt answered by `steps` tool-call steps, an overflow compaction in its middle (nothing to replay) and more steps. */
function longTurn(h: Builder, steps: number) {
  h.user('a long task')
  let tail = ''
  for (let step = 0; step < steps; step++) {
    const reply = h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `step ${step}`)])
    if (step === steps - 3) tail = reply.info.id
  }
  h.marker({ overflow: true, tail_start_id: tail })
  h.summary('SUMMARY')
  h.resume()
  for (let step = 0; step < 3; step++) h.assistant('', { finish: 'tool-calls' }, (info) => [h.tool(info, 'read', `after ${step}`)])
  h.assistant('the long task is done')
}

/**
 * A parent session whose turns each ran the task tool: `children` child sessions (parentID), each with a prompt, a
 * few tool-call steps and an answer; the parent compacted after them.
 */
function withChildren(h: Builder, children: number, session: SessionInfo) {
  const build = makeBuilders(Date.UTC(2026, 10, 30, 13))
  const rows = { sessions: [] as SessionInfo[], messages: [] as Message[], parts: [] as Part[] }
  h.user('split the work')
  for (let index = 0; index < children; index++) {
    const child = build.session({ projectID: session.projectID, parentID: session.id, title: `child ${index}` })
    rows.sessions.push(child)
    const prompt = build.user(child.id)
    rows.messages.push(prompt)
    rows.parts.push(build.text(prompt, `subtask ${index}`))
    for (let step = 0; step < 3; step++) {
      const reply = build.assistant(child.id, prompt.id, { finish: step < 2 ? 'tool-calls' : 'stop' })
      rows.messages.push(reply)
      rows.parts.push(build.text(reply, `child ${index} step ${step}`))
    }
    h.assistant('', { finish: 'tool-calls' }, (info) => [
      h.part(info, {
        type: 'tool',
        callID: `call_${index}`,
        tool: 'task',
        state: { status: 'completed', input: { description: `subtask ${index}`, prompt: 'go', subagent_type: 'general' }, output: `<task id="${child.id}">done</task>`, title: `subtask ${index}`, metadata: { sessionId: child.id }, time: { start: 1, end: 2 } },
      }),
    ])
  }
  const last = h.assistant('all the subtasks are done')
  h.marker({ tail_start_id: last.info.id })
  h.summary('SUMMARY')
  h.user('and now?')
  h.assistant('nothing left')
  return rows
}

/** A session of `shape` at `size` stored, then a one-step text turn run in it; the rows its run and the turn's end read. */
async function oneStepTurn(shape: (h: Builder, size: number, session: SessionInfo) => { sessions: SessionInfo[]; messages: Message[]; parts: Part[] } | void, size: number, options: { imported?: boolean } = {}) {
  const test = makeTestContext()
  const h = historyBuilder()
  const session = makeBuilders().session({ id: h.sessionID, summary: { additions: 0, deletions: 0, files: 0, diffs: [] } })
  const others = shape(h, size, session) ?? { sessions: [], messages: [], parts: [] }
  await writeFixture(test.context, { sessions: [session, ...others.sessions], messages: [...h.history.map((entry) => entry.info), ...others.messages], parts: [...h.history.flatMap((entry) => entry.parts), ...others.parts] })
  let sessionID = session.id
  if (options.imported) {
    // Through opencode's export format and back, as a user's `opencode export` file is imported.
    const exported = toOpencodeExport({ info: session, messages: h.history })
    await test.db.projects.put({ id: session.projectID, name: 'P', directory: '/workspace', time: { created: 1, updated: 1 } } as never)
    const imported = await importTranscript(test.context, fromOpencodeExport(JSON.parse(JSON.stringify(exported))), { projectID: session.projectID, source: 'opencode', hash: `h${size}` })
    sessionID = imported.session.id
  }
  // After every seeded row, by time and by id (the builders' part ids take the real clock).
  test.advance(Math.max(h.history.at(-1)!.info.time.created, Date.now()) - test.context.now() + 60_000)
  const main = scriptedModel([textReply('the new answer')])
  const models: ModelSource = {
    resolve: async (reference) => ({ model: main.model, providerID: reference.providerID, modelID: reference.modelID, limit: { context: 1_000_000, output: 4_000 }, cost: { input: 0, output: 0 } }),
    smallModel: async () => undefined,
  }
  const dependencies: LoopDependencies = {
    store: test.context,
    models,
    tools: new ToolRegistry(),
    retryLimit: async () => 0,
    sleep: async () => {},
    setStatus: () => {},
    // The loop prunes in the background; it is run below, counted with the rest.
    compaction: async () => ({ auto: true, prune: false }),
    ...testWorkspacePorts({ now: test.context.now }),
    snapshots: { track: async () => 'snp_same', changedFiles: async () => [], diffs: async () => [], sessionDiffs: async () => [] },
  }
  await createUserMessage(test.context, { sessionID, parts: [{ type: 'text', text: 'the new prompt' }], model: MODEL })
  const read = await countReads(test.db)
  const stop = await runLoop(dependencies, sessionID, { signal: new AbortController().signal })
  expect(stop, JSON.stringify(stop)).toMatchObject({ type: 'inbox-empty' })
  expect(main.model.doStreamCalls, JSON.stringify(stop)).toHaveLength(1)
  const turn = { rows: read.rows, sessions: read.sessionRows, cursorRows: read.cursorRows }
  await pruneSession(test.context, sessionID)
  const end = read.rows - turn.rows
  const recent = await loadRecentHistory(test.context, sessionID)
  return { turn, end, recent, request: JSON.stringify(main.model.doStreamCalls[0]!.prompt) }
}

const shapes = {
  'an automatic compaction loop': { build: (h: Builder, size: number) => compactionLoop(h, size / 4), sizes: [48, 600] },
  'one turn of many tool calls with an overflow compaction in its middle': { build: longTurn, sizes: [300, 3_000] },
  'a parent of many subagent sessions': { build: withChildren, sizes: [20, 50] },
}

describe('a one-step turn in a session of each shape opencode leaves (issue 32)', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    for (const imported of [false, true]) {
      it(`reads as many rows, for the step and for the turn's end, whatever the size: ${name}${imported ? ', imported from opencode' : ''}`, async () => {
        const [small, large] = shape.sizes as [number, number]
        const short = await oneStepTurn(shape.build, small, { imported })
        const long = await oneStepTurn(shape.build, large, { imported })
        expect(long.recent.whole).toBe(false)
        expect(long.turn).toEqual(short.turn)
        // Index lookups issued together, not a cursor jumping from message to message (a round trip each in Chromium).
        expect(long.turn.cursorRows).toBe(0)
        expect(long.end).toBe(short.end)
        expect(long.request).toContain('the new prompt')
      }, 60_000)
    }
  }
})
