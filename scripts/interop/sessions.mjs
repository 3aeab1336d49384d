// The sessions `npm run interop` writes in our own format, each shaped as the app stores it: tool calls that
// completed and failed, a turn stopped mid-bash, a fork, a compaction, and a subtask with its child session.
// Each builder returns a SessionTranscript (validated by the caller with SessionTranscriptSchema).

const START = Date.UTC(2026, 10, 30, 10)
const usage = (input, output, reasoning = 0, read = 100) => ({ input, output, reasoning, cache: { read, write: 0 } })

/** Rows for one session, with ids and times that only move forward, as the app's own. */
function sessionRows(ids, { sessionID, title, parentID, start }) {
  let time = start
  const tick = () => (time += 211)
  const rows = []
  const builder = {
    sessionID,
    get time() {
      return time
    },
    part(messageID, fields) {
      return { id: ids.ascending('part', tick()), sessionID, messageID, ...fields }
    },
    user(agent, parts, fields = {}) {
      const info = { id: ids.ascending('message', tick()), sessionID, role: 'user', time: { created: time }, agent, model: { providerID: 'openai', modelID: 'gpt-5' }, ...fields }
      rows.push({ info, parts: parts.map((fields) => builder.part(info.id, fields)) })
      return info
    },
    assistant(parent, parts, fields = {}) {
      const created = tick()
      const info = {
        id: ids.ascending('message', created),
        sessionID,
        role: 'assistant',
        time: { created, completed: created + 1_500 },
        parentID: parent.id,
        modelID: 'gpt-5',
        providerID: 'openai',
        agent: parent.agent,
        mode: parent.agent, // as the loop writes it
        path: { cwd: '/workspace', root: '/workspace' },
        cost: 0,
        tokens: usage(0, 0, 0, 0),
        ...fields,
      }
      rows.push({ info, parts: parts.map((fields) => builder.part(info.id, typeof fields === 'function' ? fields(time) : fields)) })
      return info
    },
    transcript(extra = {}) {
      const assistants = rows.filter((row) => row.info.role === 'assistant').map((row) => row.info)
      const sum = (pick) => assistants.reduce((total, info) => total + pick(info), 0)
      const info = {
        id: sessionID,
        slug: 'steady-heron',
        projectID: 'prj_interop',
        directory: '/workspace',
        ...(parentID ? { parentID } : {}),
        title,
        version: '0.1.0',
        agent: 'build',
        model: { providerID: 'openai', modelID: 'gpt-5' },
        cost: Math.round(sum((info) => info.cost) * 1e6) / 1e6,
        tokens: {
          input: sum((info) => info.tokens.input),
          output: sum((info) => info.tokens.output),
          reasoning: sum((info) => info.tokens.reasoning),
          cache: { read: sum((info) => info.tokens.cache.read), write: 0 },
        },
        time: { created: start - 100, updated: time },
        ...extra,
      }
      return { info, messages: rows }
    },
  }
  return builder
}

const step = (reason, cost, tokens) => [{ type: 'step-start' }, { type: 'step-finish', reason, cost, tokens }]
const text = (value) => (time) => ({ type: 'text', text: value, time: { start: time, end: time + 90 } })
const completed = (callID, tool, input, output, extra = {}) => (time) => ({
  type: 'tool',
  callID,
  tool,
  state: { status: 'completed', input, output, title: extra.title ?? tool, metadata: extra.metadata ?? {}, time: { start: time, end: time + 30 } },
})

/** Tool calls that completed and failed, and a `task` call whose child session is a subagent run. */
export function toolsAndSubtask({ makeIdGenerator }) {
  const ids = makeIdGenerator()
  const sessionID = ids.descending('session', START)
  const childID = ids.descending('session', START + 5_000)
  const parent = sessionRows(ids, { sessionID, title: 'Greeting in hello.txt', start: START })
  const user = parent.user('build', [{ type: 'text', text: 'Add a greeting to hello.txt, run the tests and have it reviewed.' }])
  const firstTokens = usage(3_000, 120, 64)
  const [start, finish] = step('tool-calls', 0.021, firstTokens)
  parent.assistant(
    user,
    [
      start,
      (time) => ({ type: 'reasoning', text: 'Write the file, then try the tests.', time: { start: time, end: time + 40 } }),
      completed('call_w', 'write', { filePath: '/workspace/hello.txt', content: 'Hello, world\n' }, 'Wrote file successfully.', {
        title: 'hello.txt',
        metadata: { exists: false },
      }),
      (time) => ({
        type: 'tool',
        callID: 'call_b',
        tool: 'bash',
        state: { status: 'error', input: { command: 'npm test', description: 'Run the tests' }, error: 'npm needs WebContainer, which is not available offline.', time: { start: time, end: time + 8 } },
      }),
      completed(
        'call_t',
        'task',
        { description: 'Review', prompt: 'Review hello.txt', subagent_type: 'general' },
        `<task id="${childID}" state="completed">\n<task_result>\nLooks good.\n</task_result>\n</task>`,
        { title: 'Review', metadata: { parentSessionId: sessionID, sessionId: childID, model: { providerID: 'openai', modelID: 'gpt-5' }, truncated: false } },
      ),
      finish,
    ],
    { cost: 0.021, tokens: firstTokens, finish: 'tool-calls' },
  )
  const secondTokens = usage(3_400, 40)
  const [start2, finish2] = step('stop', 0.009, secondTokens)
  parent.assistant(user, [start2, text('Done: `hello.txt` greets the world, and the review found nothing. The tests need WebContainer to run.'), finish2], {
    cost: 0.009,
    tokens: secondTokens,
    finish: 'stop',
  })

  const child = sessionRows(ids, { sessionID: childID, parentID: sessionID, title: 'Review (@general subagent)', start: START + 5_000 })
  const childUser = child.user('general', [{ type: 'text', text: 'Review hello.txt' }])
  const childTokens = usage(500, 4)
  const [start3, finish3] = step('stop', 0.001, childTokens)
  child.assistant(childUser, [start3, text('Looks good.'), finish3], { cost: 0.001, tokens: childTokens, finish: 'stop' })
  // Subagent sessions carry the rule that stops them starting subagents of their own.
  const childTranscript = child.transcript({ agent: 'general', permission: [{ permission: 'task', pattern: '*', action: 'deny' }] })
  return { ...parent.transcript(), children: [childTranscript] }
}

/** A subtask from a command: the user message's `subtask` part, the `task` call that ran it, and the child session. */
export function commandSubtask({ makeIdGenerator }) {
  const ids = makeIdGenerator()
  const sessionID = ids.descending('session', START + 20_000)
  const childID = ids.descending('session', START + 21_000)
  const parent = sessionRows(ids, { sessionID, title: 'Explore the workspace', start: START + 20_000 })
  const user = parent.user('build', [{ type: 'subtask', prompt: 'List what is in src/', description: 'List src', agent: 'explore', command: 'explore' }])
  const taskTokens = usage(0, 0, 0, 0)
  parent.assistant(
    { ...user, agent: 'explore' },
    [
      completed(
        'call_sub',
        'task',
        { prompt: 'List what is in src/', description: 'List src', subagent_type: 'explore', command: 'explore' },
        `<task id="${childID}" state="completed">\n<task_result>\nsrc/ holds main.ts.\n</task_result>\n</task>`,
        { title: 'List src', metadata: { parentSessionId: sessionID, sessionId: childID, model: { providerID: 'openai', modelID: 'gpt-5' }, truncated: false } },
      ),
    ],
    { mode: 'explore', tokens: taskTokens, finish: 'tool-calls' },
  )
  const summarize = parent.user('build', [{ type: 'text', text: 'Summarize the task tool output above and continue with your task.', synthetic: true }])
  const tokens = usage(900, 12)
  const [start, finish] = step('stop', 0.002, tokens)
  parent.assistant(summarize, [start, text('src/ holds one file, main.ts.'), finish], { cost: 0.002, tokens, finish: 'stop' })

  const child = sessionRows(ids, { sessionID: childID, parentID: sessionID, title: 'List src (@explore subagent)', start: START + 21_000 })
  const childUser = child.user('explore', [{ type: 'text', text: 'List what is in src/' }])
  const childTokens = usage(400, 8)
  const [start2, finish2] = step('tool-calls', 0.001, childTokens)
  child.assistant(childUser, [start2, completed('call_ls', 'list', { path: '/workspace/src' }, '/workspace/src/\n  main.ts\n', { title: 'src', metadata: { count: 1, truncated: false } }), finish2], {
    cost: 0.001,
    tokens: childTokens,
    finish: 'tool-calls',
  })
  const [start3, finish3] = step('stop', 0.001, childTokens)
  child.assistant(childUser, [start3, text('src/ holds main.ts.'), finish3], { cost: 0.001, tokens: childTokens, finish: 'stop' })
  const childTranscript = child.transcript({ agent: 'explore', permission: [{ permission: 'task', pattern: '*', action: 'deny' }] })
  return { ...parent.transcript(), children: [childTranscript] }
}

/**
 * A turn stopped mid-run: the bash it was running kept its output so far and "User aborted the command" (as opencode
 * stores it), a read still in flight became an interrupted error, and the message ended with MessageAbortedError and
 * no finish (the step never reached one).
 * Then a later turn that went on normally.
 */
export function abortedTurn({ makeIdGenerator }) {
  const ids = makeIdGenerator()
  const sessionID = ids.descending('session', START + 40_000)
  const session = sessionRows(ids, { sessionID, title: 'Stopped build', start: START + 40_000 })
  const user = session.user('build', [{ type: 'text', text: 'Build it' }])
  const tokens = usage(2_000, 30)
  session.assistant(
    user,
    [
      { type: 'step-start' },
      (time) => ({
        type: 'tool',
        callID: 'call_spin',
        tool: 'bash',
        state: {
          status: 'completed',
          input: { command: 'echo compiling; while true; do :; done', description: 'Spins forever' },
          output: 'compiling\n\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>',
          title: 'Spins forever',
          metadata: { output: 'compiling\n', exit: null, description: 'Spins forever' },
          time: { start: time, end: time + 4_000 },
        },
      }),
      (time) => ({
        type: 'tool',
        callID: 'call_read',
        tool: 'read',
        state: { status: 'error', input: { filePath: '/workspace/big.log' }, error: 'Tool execution aborted', metadata: { interrupted: true }, time: { start: time, end: time + 10 } },
      }),
    ],
    { cost: 0.004, tokens, error: { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } } },
  )
  const next = session.user('build', [{ type: 'text', text: 'Never mind, just say hi.' }])
  const nextTokens = usage(2_100, 3)
  const [start, finish] = step('stop', 0.001, nextTokens)
  session.assistant(next, [start, text('Hi.'), finish], { cost: 0.001, tokens: nextTokens, finish: 'stop' })
  return session.transcript()
}

/**
 * A compacted session: two turns, the compaction marker (a user message with a `compaction` part whose tail starts at
 * the second turn), the summary (an assistant message with `summary: true`, agent "compaction"), the synthetic
 * "continue" prompt an automatic compaction adds, and the reply after it.
 */
export function compactedSession({ makeIdGenerator }) {
  const ids = makeIdGenerator()
  const sessionID = ids.descending('session', START + 60_000)
  const session = sessionRows(ids, { sessionID, title: 'Long refactor', start: START + 60_000 })
  const turn = (prompt, answer, tokens) => {
    const user = session.user('build', [{ type: 'text', text: prompt }])
    const [start, finish] = step('stop', 0.01, tokens)
    session.assistant(user, [start, text(answer), finish], { cost: 0.01, tokens, finish: 'stop' })
    return user
  }
  turn('Rename greet to welcome everywhere.', 'Renamed in 14 files.', usage(90_000, 300))
  const tail = turn('Now update the docs.', 'The docs say welcome now.', usage(120_000, 200))
  const marker = session.user('build', [{ type: 'compaction', auto: true, overflow: false }])
  const summaryTokens = usage(60_000, 800, 0, 0)
  const [start, finish] = step('stop', 0.03, summaryTokens)
  session.assistant(
    marker,
    [start, text('## Goal\nRename greet to welcome.\n\n## Done\n- code renamed (14 files)\n- docs updated\n\n## Next\n- release notes'), finish],
    { agent: 'compaction', mode: 'compaction', summary: true, cost: 0.03, tokens: summaryTokens, finish: 'stop' },
  )
  const resumed = session.user('build', [
    { type: 'text', text: 'Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.', synthetic: true },
  ])
  const tokens = usage(8_000, 60)
  const [start2, finish2] = step('stop', 0.004, tokens)
  session.assistant(resumed, [start2, text('Next: the release notes. Shall I write them?'), finish2], { cost: 0.004, tokens, finish: 'stop' })
  const transcript = session.transcript()
  const markerPart = transcript.messages.find((message) => message.info.id === marker.id).parts[0]
  markerPart.tail_start_id = tail.id
  return transcript
}

/**
 * A fork of a two-turn session at its second prompt: the first turn copied with new ids, the title "(fork #1)", and
 * `fork` naming the original (opencode has no such field; the session is a plain root session there).
 */
export function forkedSession({ makeIdGenerator }) {
  const ids = makeIdGenerator()
  const originalID = ids.descending('session', START + 80_000)
  const cutAt = ids.ascending('message', START + 80_500)
  const sessionID = ids.descending('session', START + 90_000)
  const session = sessionRows(ids, { sessionID, title: 'Pick a colour (fork #1)', start: START + 90_000 })
  const user = session.user('build', [{ type: 'text', text: 'Pick a colour for the button.' }])
  const tokens = usage(1_200, 5)
  const [start, finish] = step('stop', 0.001, tokens)
  session.assistant(user, [start, text('Teal.'), finish], { cost: 0.001, tokens, finish: 'stop' })
  return session.transcript({ fork: { sessionID: originalID, messageID: cutAt } })
}

export const NATIVE_SESSIONS = [
  ['tool calls (completed and errored) and a task call with its child session', toolsAndSubtask],
  ['a subtask from a command, with its child session', commandSubtask],
  ['an aborted turn (MessageAbortedError, a stopped bash, an interrupted read)', abortedTurn],
  ['a compacted session (marker, summary, tail, continue)', compactedSession],
  ['a forked session', forkedSession],
]
