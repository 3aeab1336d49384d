import type { Fixture } from '../../src/store/fixture'
import { ascending, descending } from '../../src/core/id'
import type { AssistantMessage, Message, Part, SessionInfo, Tokens, UserMessage } from '../../src/core/schema'

/**
 * Seed data for e2e tests: one session whose history holds every part type (and every tool state, a message error,
 * a compaction with its summary), plus a child session that must stay out of the sidebar's top level.
 *
 * The rows are valid for `FixtureSchema`. Sessions only show in the sidebar when `projectID` is the worker's
 * project, so pass it in:
 *
 *   const { project } = await page.evaluate(() => window.__tabcode!.api.start())   // memoised; returns the project
 *   await page.evaluate((fixture) => window.__tabcode!.api.writeFixture(fixture), everyPartTypeFixture({ projectID: project.id }))
 *
 * `EVERY_PART_TYPE_TEXT` has one distinctive visible string per part type. Some sit inside folded sections:
 * reasoning (summary "Reasoning"), tool input and output (summaries "Input" / "Output"), and the tail of the long
 * tool output (button "Show all 40 lines"). `step-start` renders nothing visible, so it has no entry.
 */
export const EVERY_PART_TYPE_TEXT = {
  sessionTitle: 'Every part type',
  childSessionTitle: 'Child of every part type',
  userText: 'Please tidy the parser before the release',
  syntheticText: 'Attached by tabcode: contents of parser.ts',
  ignoredText: 'Aside the model never saw',
  reasoning: 'Comparing the recursive parser with the table-driven one',
  assistantText: 'The parser now handles nested lists',
  assistantHeading: 'Parser changes',
  toolCompletedTitle: 'Run the parser tests',
  toolCompletedOutput: 'parser.test.ts: 14 passed',
  toolOutputTail: 'output line 40 of the test run',
  toolErrorText: 'Command interrupted by the user',
  toolRunningSubject: 'npm run lint',
  toolPendingName: 'webfetch',
  toolCompactedTitle: 'Read the old lexer',
  stepFinish: 'step finished: tool-calls',
  patchFile: 'src/parser/nested-list.ts',
  snapshot: '5a9c0e1d',
  retry: 'Retry attempt 2: Rate limit reached',
  fileName: 'parser-diagram.png',
  externalFileName: 'grammar-notes.txt',
  agent: '@explore',
  subtaskDescription: 'Survey the lexer tests',
  subtaskPrompt: 'List every lexer test that covers nested lists',
  messageError: 'APIError 429',
  messageErrorText: 'Too many requests, slow down',
  compaction: 'Conversation compacted',
  summaryText: 'Summary of the parser work so far',
  afterCompactionText: 'Now update the changelog',
  modelID: 'fixture-model',
} as const

const T = EVERY_PART_TYPE_TEXT
// A 1×1 transparent PNG: a real image the file chip may preview without fetching anything.
const PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

export interface EveryPartTypeOptions {
  /** The worker's project id (see above); without it the session exists but the sidebar does not list it. */
  projectID?: string
  /** When the conversation started (epoch ms). Default: one hour ago. */
  now?: number
}

const tokens = (input: number, output: number, reasoning = 0, read = 0, write = 0): Tokens => ({
  input,
  output,
  reasoning,
  cache: { read, write },
})

export function everyPartTypeFixture(options: EveryPartTypeOptions = {}): Fixture {
  const start = options.now ?? Date.now() - 60 * 60 * 1000
  const projectID = options.projectID ?? 'prj_fixture'
  let clock = start
  const tick = (milliseconds = 1000) => (clock += milliseconds)

  const sessionID = descending('session', start)
  const childID = descending('session', start + 1)
  const messages: Message[] = []
  const parts: Part[] = []
  const base = (messageID: string) => ({ id: ascending('part', tick(10)), sessionID, messageID })

  const user = (): UserMessage => {
    const info: UserMessage = {
      id: ascending('message', tick()),
      sessionID,
      role: 'user',
      time: { created: clock },
      agent: 'build',
      model: { providerID: 'local', modelID: T.modelID },
    }
    messages.push(info)
    return info
  }
  const assistant = (parent: UserMessage, patch: Partial<AssistantMessage> = {}): AssistantMessage => {
    const created = tick()
    const info: AssistantMessage = {
      id: ascending('message', created),
      sessionID,
      role: 'assistant',
      time: { created, completed: created + 4200 },
      parentID: parent.id,
      modelID: T.modelID,
      providerID: 'local',
      agent: 'build',
      mode: 'build',
      path: { cwd: '/workspace', root: '/workspace' },
      cost: 0,
      tokens: tokens(0, 0),
      finish: 'stop',
      ...patch,
    }
    messages.push(info)
    return info
  }

  // 1. The user's prompt: typed text, text tabcode added, an ignored aside, two files, an agent mention, a subtask.
  const prompt = user()
  parts.push(
    { ...base(prompt.id), type: 'text', text: T.userText },
    { ...base(prompt.id), type: 'text', text: `${T.syntheticText}\nexport function parse() {}`, synthetic: true },
    { ...base(prompt.id), type: 'text', text: T.ignoredText, ignored: true },
    { ...base(prompt.id), type: 'file', mime: 'image/png', filename: T.fileName, url: PIXEL_PNG },
    {
      ...base(prompt.id),
      type: 'file',
      mime: 'text/plain',
      filename: T.externalFileName,
      url: 'https://example.invalid/grammar-notes.txt',
    },
    { ...base(prompt.id), type: 'agent', name: 'explore', source: { value: T.agent, start: 0, end: 8 } },
    { ...base(prompt.id), type: 'subtask', description: T.subtaskDescription, prompt: T.subtaskPrompt, agent: 'explore' },
  )

  // 2. A tool-using step: reasoning, text, one tool call in each state, usage, a patch, a snapshot, a retry.
  const stepTokens = tokens(12_400, 830, 210, 9_000, 1_200)
  const step = assistant(prompt, { cost: 0.0123, tokens: stepTokens, finish: 'tool-calls' })
  const toolStart = step.time.created + 500
  const longOutput = [
    T.toolCompletedOutput,
    ...Array.from({ length: 38 }, (_, index) => `  ✓ case ${index + 1}`),
    T.toolOutputTail,
  ].join('\n')
  parts.push(
    { ...base(step.id), type: 'step-start', snapshot: 'f00dfeed' },
    {
      ...base(step.id),
      type: 'reasoning',
      text: `${T.reasoning}.\n\nThe table-driven one is faster.`,
      time: { start: step.time.created, end: step.time.created + 2300 },
    },
    {
      ...base(step.id),
      type: 'text',
      text: `## ${T.assistantHeading}\n\n${T.assistantText}. Run \`npm test\` to check:\n\n\`\`\`ts\n// a nested list\nconst list = parse('- a\\n  - b', { strict: true })\n\`\`\``,
      time: { start: step.time.created + 2400, end: step.time.created + 3000 },
    },
    {
      ...base(step.id),
      type: 'tool',
      callID: 'call_completed',
      tool: 'bash',
      state: {
        status: 'completed',
        input: { command: 'npm test -- parser', description: T.toolCompletedTitle },
        output: longOutput,
        title: T.toolCompletedTitle,
        metadata: { exit: 0 },
        time: { start: toolStart, end: toolStart + 1800 },
      },
    },
    {
      ...base(step.id),
      type: 'tool',
      callID: 'call_error',
      tool: 'bash',
      state: {
        status: 'error',
        input: { command: 'npm run build' },
        error: T.toolErrorText,
        metadata: { interrupted: true, output: 'building…' },
        time: { start: toolStart, end: toolStart + 650 },
      },
    },
    {
      ...base(step.id),
      type: 'tool',
      callID: 'call_running',
      tool: 'bash',
      state: { status: 'running', input: { command: T.toolRunningSubject }, time: { start: toolStart } },
    },
    {
      ...base(step.id),
      type: 'tool',
      callID: 'call_pending',
      tool: T.toolPendingName,
      state: { status: 'pending', input: {}, raw: '' },
    },
    {
      ...base(step.id),
      type: 'tool',
      callID: 'call_compacted',
      tool: 'read',
      state: {
        status: 'completed',
        input: { filePath: 'src/lexer.ts' },
        output: 'export function lex() {}',
        title: T.toolCompactedTitle,
        metadata: {},
        time: { start: toolStart, end: toolStart + 40, compacted: toolStart + 60_000 },
      },
    },
    { ...base(step.id), type: 'step-finish', reason: 'tool-calls', snapshot: 'beadcafe', cost: 0.0123, tokens: stepTokens },
    { ...base(step.id), type: 'patch', hash: 'f00dfeed00', files: [T.patchFile, 'src/parser/index.ts'] },
    { ...base(step.id), type: 'snapshot', snapshot: `${T.snapshot}77aa` },
    {
      ...base(step.id),
      type: 'retry',
      attempt: 2,
      error: { name: 'APIError', data: { message: 'Rate limit reached', statusCode: 429, isRetryable: true } },
      time: { created: step.time.created + 100 },
    },
  )

  // 3. A step that failed with a provider error.
  const failed = assistant(prompt, {
    finish: 'error',
    error: { name: 'APIError', data: { message: T.messageErrorText, statusCode: 429, isRetryable: true } },
  })
  parts.push({ ...base(failed.id), type: 'step-start' })

  // 4. Compaction: the marker on a user message, then the summary.
  const compact = user()
  parts.push({ ...base(compact.id), type: 'compaction', auto: true })
  const summaryTokens = tokens(30_000, 400)
  const summary = assistant(compact, { summary: true, cost: 0.0042, tokens: summaryTokens })
  parts.push(
    { ...base(summary.id), type: 'text', text: `${T.summaryText}: nested lists parse, tests pass.` },
    { ...base(summary.id), type: 'step-finish', reason: 'stop', cost: 0.0042, tokens: summaryTokens },
  )

  // 5. The conversation goes on after the compaction.
  const after = user()
  parts.push({ ...base(after.id), type: 'text', text: T.afterCompactionText })

  const session: SessionInfo = {
    id: sessionID,
    slug: 'steady-parser',
    projectID,
    directory: '/workspace',
    title: T.sessionTitle,
    version: '0.1.0',
    cost: 0.0165,
    tokens: tokens(42_400, 1_230, 210, 9_000, 1_200),
    time: { created: start, updated: clock },
  }
  const child: SessionInfo = {
    id: childID,
    slug: 'quiet-lexer',
    projectID,
    directory: '/workspace',
    parentID: sessionID,
    title: T.childSessionTitle,
    version: '0.1.0',
    time: { created: start + 1, updated: clock + 1 },
  }
  return { sessions: [session, child], messages, parts }
}
