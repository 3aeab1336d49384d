import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { History } from './page-models/history'
import { makeBuilders } from '../src/testing/fixture-builders'
import type { Part } from '../src/core/schema'
import { error, ModelScript, streamText, toolCalls, type ScriptedResponse } from './testing/model-script'
import { conversation, indexOfText, isSummariser, requestsOf, textOf, transcript, userTexts } from './testing/requests'
import { showWorkspace } from './page-models/workbench'

// Compaction, prune, fork and revert, through the scripted model server, which records every request it receives.
// Behaviour: opencode's compaction and revert, as ARCHITECTURE.md describes them.

const model = new ModelScript()

// Every test drives several turns through the worker (tool steps write snapshots): more than the default 30 s.
test.describe.configure({ timeout: 60_000 })

test.beforeEach(async () => {
  await model.reset()
})

// A model error that every provider client recognises as "the request does not fit the context window".
const OVERFLOW_MESSAGE = "This model's maximum context length is 16000 tokens. However, your messages resulted in 17500 tokens."
const overflowError = (options: { repeat?: number } = {}) => error(400, { message: OVERFLOW_MESSAGE, ...options })

// What the model sees in place of the marker message: a question the summary answers.
const QUESTION = 'What did we do so far?'
const SUMMARY = 'Objective: a parser with its own lexer. Done: plan, lexer, token list. Next: write the tests.'
const CONTINUE = /Continue if you have next steps/
const CLEARED = '[Old tool result content cleared]'
const CLEARED_NOTE = /cleared for the model/i

// With a 16,000-token window and 1,024 for output, a step reporting 15,300 tokens is over the usable 14,976.
const SMALL_CONTEXT = 16_000
const OVER_THE_LIMIT = { prompt_tokens: 15_200, completion_tokens: 100 }

/** Three short turns, answered and idle: the history a compaction has to summarise. */
const TURNS = [
  { prompt: 'Plan the parser', reply: 'The parser plan is ready.' },
  { prompt: 'Add the lexer', reply: 'The lexer is in place.' },
  { prompt: 'List the tokens', reply: 'The token list is done.' },
] as const
const LAST_PROMPT = 'Now write the tests'

async function start(page: Page, title = 'Parser') {
  const app = new History(page)
  await app.start(title)
  return app
}

async function chat() {
  return requestsOf(await model.requests())
}

/** Sends the three short turns; `then` is queued after their replies (compaction, the fourth turn…). */
async function threeTurns(app: History, then: ScriptedResponse[] = []) {
  await model.push([...TURNS.map((turn) => streamText(turn.reply)), ...then], { model: 'mock-model' })
  for (const turn of TURNS) {
    await app.send(turn.prompt)
    await expect(app.reply(turn.reply)).toHaveCount(1)
    await app.idle()
  }
}

/**
 * Three short turns, then a fourth whose tool step reports usage over the small window: the session compacts
 * (a summariser request), then goes on by itself (a synthetic continue message answered by one more request).
 */
async function overflowingSession(app: History) {
  await app.limitContext(SMALL_CONTEXT)
  await threeTurns(app, [
    toolCalls([{ id: 'call_notes', name: 'write', args: { filePath: 'notes.txt', content: 'tests pending\n' } }], { usage: OVER_THE_LIMIT }),
    streamText(SUMMARY),
    streamText('Carrying on with the tests.'),
  ])
  await app.send(LAST_PROMPT)
  await expect(app.reply('Carrying on with the tests.')).toHaveCount(1)
  await app.idle()
}

/** Three short turns, then "Compact now": one summariser request, no follow-up. */
async function compactedByHand(app: History) {
  await threeTurns(app, [streamText(SUMMARY)])
  const before = (await chat()).length
  await app.compactNow()
  await expect(app.summary()).toContainText(SUMMARY)
  await app.idle()
  const requests = await chat()
  expect(requests).toHaveLength(before + 1)
  expect(isSummariser(requests.at(-1)!)).toBe(true)
}

/** Checks a request's history starts from the summary: the question, the summary as the answer, then the rest. */
function expectSummaryFirst(messages: ReturnType<typeof conversation>) {
  expect(messages[0]?.role, messages.map((m) => `${m.role}: ${textOf(m)}`).join('\n')).toBe('user')
  expect(textOf(messages[0]!)).toContain(QUESTION)
  expect(messages[1]?.role).toBe('assistant')
  expect(textOf(messages[1]!)).toContain(SUMMARY)
}

// ── compaction ──────────────────────────────────────────────────────────────────────────────────────────────────

test('a long session overflows, is compacted and continues by itself', async ({ page }) => {
  const app = await start(page)
  await overflowingSession(app)

  // The divider, the summary card and the small continue note; the older turns stay readable above.
  await expect(app.divider()).toHaveCount(1)
  await expect(app.divider()).toContainText('Compacted automatically')
  await expect(app.summary()).toContainText(SUMMARY)
  await expect(app.messages.getByText('Continued after compaction').first()).toBeVisible()
  for (const turn of TURNS) {
    await expect(app.userMessage(turn.prompt)).toHaveCount(1)
    await expect(app.reply(turn.reply)).toHaveCount(1)
  }

  // Three turns, the overflowing step, the summariser, the continued step: nothing more.
  const requests = await chat()
  expect(requests.map(isSummariser)).toEqual([false, false, false, false, true, false])
  expect(await model.pending()).toEqual({})
})

test('the request after compaction carries the question, the summary and the recent tail, then the continue message', async ({ page }) => {
  const app = await start(page)
  await overflowingSession(app)

  const requests = await chat()
  const summariser = requests.at(-2)!
  expect(isSummariser(summariser)).toBe(true)
  // The summariser read the old history.
  expect(JSON.stringify(summariser.body!.messages)).toContain(TURNS[0].prompt)

  const after = conversation(requests.at(-1)!)
  const lines = transcript(requests.at(-1)!)
  expectSummaryFirst(after)
  // The oldest turn is only in the summary now; the recent turns follow it verbatim.
  expect(lines.join('\n')).not.toContain(TURNS[0].prompt)
  const tail = indexOfText(after, TURNS[2].prompt)
  expect(tail, lines.join('\n')).toBeGreaterThan(1)
  expect(indexOfText(after, TURNS[2].reply)).toBeGreaterThan(tail)
  expect(indexOfText(after, LAST_PROMPT)).toBeGreaterThan(tail)
  // Last, the synthetic message that asks the model to go on.
  const last = after.at(-1)!
  expect(last.role).toBe('user')
  expect(textOf(last)).toMatch(CONTINUE)
})

test('"What the model sees" shows the history starting from the summary', async ({ page }) => {
  const app = await start(page)
  await compactedByHand(app)

  const dialog = await app.modelView()
  await expect(dialog).toContainText(QUESTION)
  await expect(dialog).toContainText(SUMMARY)
  await expect(dialog).toContainText(TURNS[2].prompt)
  await expect(dialog).not.toContainText(TURNS[0].prompt)
  await expect(dialog).toContainText(/≈\s*[\d,.]+\s*k?\s*tokens/)
  await expect(dialog).toContainText(/summary/i)
  const text = (await dialog.textContent()) ?? ''
  expect(text.indexOf(QUESTION)).toBeLessThan(text.indexOf(SUMMARY))
  expect(text.indexOf(SUMMARY)).toBeLessThan(text.indexOf(TURNS[2].prompt))
})

test('"Compact now" summarises on request and the next prompt starts from the summary', async ({ page }) => {
  const app = await start(page)
  await compactedByHand(app)

  await expect(app.divider()).toContainText('Compacted on request')
  // A manual compaction adds no continue message: the session waits for the user.
  await expect(app.messages.getByText('Continued after compaction')).toHaveCount(0)
  await expect(app.userMessage(TURNS[0].prompt)).toHaveCount(1)

  await model.push([streamText('Tests coming up.')], { model: 'mock-model' })
  await app.send(LAST_PROMPT)
  await expect(app.reply('Tests coming up.')).toHaveCount(1)
  const next = (await chat()).at(-1)!
  const messages = conversation(next)
  expectSummaryFirst(messages)
  expect(transcript(next).join('\n')).not.toContain(TURNS[0].prompt)
  expect(indexOfText(messages, TURNS[2].prompt)).toBeGreaterThan(1)
  expect(textOf(messages.at(-1)!)).toContain(LAST_PROMPT)
})

test('a provider context-overflow error compacts and retries the prompt once', async ({ page }) => {
  const app = await start(page)
  await threeTurns(app, [overflowError(), streamText(SUMMARY), streamText('Answered after compacting.')])
  await app.send(LAST_PROMPT)
  await expect(app.reply('Answered after compacting.')).toHaveCount(1)
  await app.idle()
  await expect(app.divider()).toHaveCount(1)

  const requests = await chat()
  // Three turns, the rejected request, the summariser, the one retry.
  expect(requests.map(isSummariser)).toEqual([false, false, false, false, true, false])
  expect(requests.filter((request) => request.served?.type === 'error')).toHaveLength(1)
  // The prompt that did not fit is replayed after the summary, not summarised.
  expect(JSON.stringify(requests[4]!.body!.messages)).not.toContain(LAST_PROMPT)
  const retry = conversation(requests[5]!)
  expectSummaryFirst(retry)
  expect(textOf(retry.filter((message) => message.role === 'user').at(-1)!)).toContain(LAST_PROMPT)
  expect(await model.pending()).toEqual({})
})

test('a second overflow right after compacting stops with an error that offers a branch or a larger model', async ({ page }) => {
  const app = await start(page)
  // Whatever else would be asked for stays queued: a third summary, a later answer.
  await threeTurns(app, [overflowError(), streamText(SUMMARY), overflowError(), streamText(SUMMARY), streamText('Never sent.')])
  await app.send(LAST_PROMPT)
  const bounded = page.getByText(/larger (model|context)/i).first()
  await expect(bounded).toBeVisible()
  await expect(bounded).toContainText(/branch|fork/i)
  await app.idle()

  const requests = await chat()
  // Rejected, summarised, retried, rejected again: one compaction for the overflow, then the turn ends.
  expect(requests.map(isSummariser)).toEqual([false, false, false, false, true, false])
  expect(requests.slice(3).map((request) => request.served?.type)).toEqual(['error', 'stream', 'error'])
  expect(await model.pending()).toEqual({ 'mock-model': 2 })
  await expect(app.reply('Never sent.')).toHaveCount(0)
})

test('a summariser that overflows stops with its error, after a bounded number of requests', async ({ page }) => {
  const app = await start(page)
  await app.limitContext(SMALL_CONTEXT)
  await threeTurns(app, [
    toolCalls([{ id: 'call_notes', name: 'write', args: { filePath: 'notes.txt', content: 'tests pending\n' } }], { usage: OVER_THE_LIMIT }),
    // The summariser's request does not fit either, however often it would be asked.
    overflowError({ repeat: 5 }),
  ])
  await app.send(LAST_PROMPT)
  await expect(page.getByText(/too large to (compact|summari[sz]e)/i).first()).toBeVisible()
  await app.idle()

  const requests = await chat()
  // Three turns, the overflowing step, one summariser attempt: the turn stops there.
  expect(requests.map(isSummariser)).toEqual([false, false, false, false, true])
  expect(await model.pending()).toEqual({ 'mock-model': 4 })
  await expect(app.messages.getByText('Continued after compaction')).toHaveCount(0)
})

test('with automatic compaction switched off, an overflow error ends the turn and nothing is summarised', async ({ page }) => {
  const app = await start(page)
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  const auto = settings.getByRole('checkbox', { name: 'Compact automatically near the context limit' })
  await expect(auto).toBeChecked()
  await auto.uncheck()
  await expect.poll(() => page.evaluate(async () => (await window.__tabcode!.api.getSettings()).compactionAuto)).toBe(false)
  await page.keyboard.press('Escape')
  await expect(settings).toBeHidden()

  await threeTurns(app, [overflowError(), streamText(SUMMARY)])
  await app.send(LAST_PROMPT)
  // The error says what happened and what the user can do instead (compact by hand, branch, a larger model).
  const stopped = page.getByText(/compaction is off/i).first()
  await expect(stopped).toBeVisible()
  await app.idle()
  const requests = await chat()
  expect(requests.map(isSummariser)).toEqual([false, false, false, false])
  expect(await model.pending()).toEqual({ 'mock-model': 1 })
  await expect(app.divider()).toHaveCount(0)
})

test('undoing a compaction sends the full history again', async ({ page }) => {
  const app = await start(page)
  await compactedByHand(app)

  await app.undoCompactionButton().click()
  await expect(app.divider()).toContainText('Compaction undone')
  await expect(app.undoCompactionButton()).toHaveCount(0)
  // The summary stays readable.
  await expect(app.summary()).toContainText(SUMMARY)

  await model.push([streamText('With everything in view.')], { model: 'mock-model' })
  await app.send(LAST_PROMPT)
  await expect(app.reply('With everything in view.')).toHaveCount(1)
  const next = (await chat()).at(-1)!
  const prompts = userTexts(next)
  expect(prompts[0], transcript(next).join('\n')).toContain(TURNS[0].prompt)
  for (const turn of TURNS) expect(transcript(next).join('\n')).toContain(turn.reply)
  expect(prompts.at(-1)).toContain(LAST_PROMPT)
})

// ── prune ───────────────────────────────────────────────────────────────────────────────────────────────────────

// Four old tool outputs of 60,000 characters (≈ 15,000 tokens each). Walking back from the newest, the protected
// 40,000 tokens cover the two newest; the two oldest (≈ 30,000 tokens, over the 20,000 minimum) are cleared.
const LOG_CHARS = 60_000
const logOutput = (n: number) => `log ${n} begins\n${'x'.repeat(99)}\n`.repeat(Math.ceil(LOG_CHARS / 113)).slice(0, LOG_CHARS)

test('prune clears old tool outputs for the model: marked in the UI, cleared in the next request', async ({ page }) => {
  const app = new History(page)
  await app.start()
  const providerID = await app.providerID()
  const build = makeBuilders(Date.now() - 60 * 60_000)
  const modelRef = { providerID, modelID: 'mock-model' }
  await app.seed((projectID) => {
    const session = build.session({ projectID, title: 'Old logs' })
    const ask = build.user(session.id, { model: modelRef })
    const reads = build.assistant(session.id, ask.id, { providerID, modelID: 'mock-model', finish: 'tool-calls' })
    const tools: Part[] = [1, 2, 3, 4].map((n) => ({
      id: build.ids.ascending('part', build.now()),
      sessionID: session.id,
      messageID: reads.id,
      type: 'tool',
      callID: `call_log_${n}`,
      tool: 'read',
      state: {
        status: 'completed',
        input: { filePath: `/workspace/logs/${n}.log` },
        output: logOutput(n),
        title: `logs/${n}.log`,
        metadata: {},
        time: { start: build.now(), end: build.now() },
      },
    }))
    const answer = build.assistant(session.id, ask.id, { providerID, modelID: 'mock-model' })
    const again = build.user(session.id, { model: modelRef })
    const second = build.assistant(session.id, again.id, { providerID, modelID: 'mock-model' })
    return {
      sessions: [session],
      messages: [ask, reads, answer, again, second],
      parts: [
        build.text(ask, 'Read the four logs'),
        ...tools,
        build.text(answer, 'All four logs read.'),
        build.text(again, 'Anything odd in them?'),
        build.text(second, 'Nothing odd.'),
      ],
    }
  })
  await app.sessionLink(/^Old logs/).click()
  await expect(app.reply('Nothing odd.')).toHaveCount(1)

  // A turn ends; prune runs after it.
  await model.push([streamText('Noted.'), streamText('Still fine.')], { model: 'mock-model' })
  await app.send('Summarise the logs')
  await expect(app.reply('Noted.')).toHaveCount(1)
  await app.idle()
  for (const n of [1, 2]) await expect(app.toolCall('read', `logs/${n}.log`)).toContainText(CLEARED_NOTE)
  for (const n of [3, 4]) await expect(app.toolCall('read', `logs/${n}.log`)).not.toContainText(CLEARED_NOTE)

  // The next request carries the cleared text for the two oldest outputs and the rest in full.
  await app.send('And now?')
  await expect(app.reply('Still fine.')).toHaveCount(1)
  const next = (await chat()).at(-1)!
  const results = next.body!.messages.filter((message) => message.role === 'tool')
  const byCall = Object.fromEntries(results.map((message) => [message.tool_call_id, textOf(message)]))
  expect(byCall['call_log_1']).toBe(CLEARED)
  expect(byCall['call_log_2']).toBe(CLEARED)
  expect(byCall['call_log_3']).toContain('log 3 begins')
  expect(byCall['call_log_4']).toContain('log 4 begins')
  // Stored and shown as before: only the model sees it cleared.
  await expect(app.toolCall('read', 'logs/1.log')).toContainText('log 1 begins')
})

// ── fork ────────────────────────────────────────────────────────────────────────────────────────────────────────

/** Two turns that change files: the first writes notes.txt, the second edits it and adds todo.txt. */
async function filesSession(app: History) {
  await model.push(
    [
      toolCalls([{ id: 'call_write', name: 'write', args: { filePath: 'notes.txt', content: 'first draft\n' } }]),
      streamText('Wrote the first draft.'),
      toolCalls([
        { id: 'call_edit', name: 'edit', args: { filePath: 'notes.txt', oldString: 'first draft', newString: 'second draft' } },
        { id: 'call_todo', name: 'write', args: { filePath: 'todo.txt', content: 'ship it\n' } },
      ]),
      streamText('Revised the notes and added a todo.'),
    ],
    { model: 'mock-model' },
  )
  await app.send('Write the notes')
  await expect(app.reply('Wrote the first draft.')).toHaveCount(1)
  await app.idle()
  await app.send('Revise the notes')
  await expect(app.reply('Revised the notes and added a todo.')).toHaveCount(1)
  await app.idle()
  expect(await app.fileText('notes.txt')).toBe('second draft\n')
  expect(await app.fileText('todo.txt')).toBe('ship it\n')
}

test('branching at a user message leaves that prompt out, refills it, and starts from the files as they were then', async ({ page }) => {
  const app = await start(page, 'Notes')
  const origin = await app.projectName()
  const originID = await page.evaluate(() => window.__tabcode!.projectID)
  await filesSession(app)

  await app.branchFrom(app.userMessage('Revise the notes'))
  await expect(app.branchedNotice()).toContainText(/Branched into “Notes \(fork #\d+\)”/)
  // It says where the fork went, and its prompt has the focus the menu had.
  await expect(app.branchedNotice()).toContainText(`in a project of its own, “${origin} (fork)”`)
  await expect(app.prompt).toBeFocused()
  await expect(app.heading()).toHaveText(/^Notes \(fork #\d+\)$/)
  // News, not a banner that stays: it goes by itself.
  await expect(app.branchedNotice()).toHaveCount(0, { timeout: 20_000 })
  await expect(page.getByRole('link', { name: 'Forked from Notes' })).toBeVisible()
  // The files differ from the origin's now, so the fork got its own project.
  await expect(app.projectPicker().locator('option:checked')).toHaveText(`${origin} (fork)`)

  // Everything before that prompt, not the prompt nor what followed; the prompt box holds it for editing.
  await expect(app.userMessage('Write the notes')).toHaveCount(1)
  await expect(app.reply('Wrote the first draft.')).toHaveCount(1)
  await expect(app.userMessage('Revise the notes')).toHaveCount(0)
  await expect(app.reply('Revised the notes and added a todo.')).toHaveCount(0)
  await expect(app.prompt).toHaveValue('Revise the notes')

  const forkID = await app.projectIDNamed(`${origin} (fork)`)
  expect(await app.fileText('notes.txt', forkID)).toBe('first draft\n')
  expect(await app.fileText('todo.txt', forkID)).toBeNull()
  // In the Files tab too.
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files' }).click()
  const tree = panel.getByRole('tree', { name: 'Files' })
  await expect(tree.getByRole('treeitem', { name: /notes\.txt/ })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: /todo\.txt/ })).toHaveCount(0)
  // The origin keeps its files.
  expect(await app.fileText('notes.txt', originID)).toBe('second draft\n')
  expect(await app.fileText('todo.txt', originID)).toBe('ship it\n')

  // The fork is a working session: its next request carries the history before the branch point.
  await model.push([streamText('Working in the fork.')], { model: 'mock-model' })
  await app.send('Revise them differently')
  await expect(app.reply('Working in the fork.')).toHaveCount(1)
  const next = (await chat()).at(-1)!
  expect(userTexts(next)).toEqual(['Write the notes', 'Revise them differently'])
})

test('branching at an assistant reply keeps that reply and the files as they were after it', async ({ page }) => {
  const app = await start(page, 'Notes')
  const origin = await app.projectName()
  await filesSession(app)

  await app.branchFrom(app.reply('Wrote the first draft.'))
  await expect(app.heading()).toHaveText(/^Notes \(fork #\d+\)$/)
  await expect(app.projectPicker().locator('option:checked')).toHaveText(`${origin} (fork)`)
  await expect(app.userMessage('Write the notes')).toHaveCount(1)
  await expect(app.reply('Wrote the first draft.')).toHaveCount(1)
  await expect(app.userMessage('Revise the notes')).toHaveCount(0)
  await expect(app.reply('Revised the notes and added a todo.')).toHaveCount(0)
  await expect(app.prompt).toHaveValue('')

  const forkID = await app.projectIDNamed(`${origin} (fork)`)
  expect(await app.fileText('notes.txt', forkID)).toBe('first draft\n')
  expect(await app.fileText('todo.txt', forkID)).toBeNull()
})

test('branching at the last reply copies the whole session into the same project, and the two link to each other', async ({ page }) => {
  const app = await start(page, 'Notes')
  const origin = await app.projectName()
  await filesSession(app)

  await app.branchFrom(app.reply('Revised the notes and added a todo.'))
  await expect(app.heading()).toHaveText(/^Notes \(fork #\d+\)$/)
  const title = ((await app.heading().textContent()) ?? '').trim()
  // Same files as the origin: no new project.
  await expect(app.projectPicker().locator('option:checked')).toHaveText(origin)
  await expect(app.userMessage('Write the notes')).toHaveCount(1)
  await expect(app.userMessage('Revise the notes')).toHaveCount(1)
  await expect(app.reply('Revised the notes and added a todo.')).toHaveCount(1)
  expect(await app.fileText('notes.txt')).toBe('second draft\n')

  // From the fork to its origin and back through the origin's list of forks.
  await page.getByRole('link', { name: 'Forked from Notes' }).click()
  await expect(app.heading()).toHaveText('Notes')
  await page.getByRole('button', { name: 'Forks (1)' }).click()
  await page.getByRole('list', { name: 'Forks' }).getByRole('link', { name: title, exact: true }).click()
  await expect(app.heading()).toHaveText(title)
})

test('a branch made in another tab shows in the forks list of its origin without reloading', async ({ page, context }) => {
  const first = await start(page, 'Notes')
  await model.push([streamText('Drafted the notes.')], { model: 'mock-model' })
  await first.send('Draft the notes')
  await expect(first.reply('Drafted the notes.')).toHaveCount(1)
  await first.idle()
  await expect(page.getByRole('button', { name: /^Forks \(/ })).toHaveCount(0)

  const second = new History(await context.newPage())
  await second.open()
  await second.sessionLink(/^Notes/).click()
  await second.branchFrom(second.reply('Drafted the notes.'))
  await expect(second.heading()).toHaveText(/^Notes \(fork #\d+\)$/)
  const title = ((await second.heading().textContent()) ?? '').trim()

  // The first tab still shows the origin, and now its fork.
  await expect(first.heading()).toHaveText('Notes')
  await page.getByRole('button', { name: 'Forks (1)' }).click()
  await expect(page.getByRole('list', { name: 'Forks' }).getByRole('link', { name: title, exact: true })).toBeVisible()
})

// ── revert ──────────────────────────────────────────────────────────────────────────────────────────────────────

test('revert conversation and files, then a prompt: the reverted messages are removed and the files stay restored', async ({ page }) => {
  const app = await start(page, 'Notes')
  await filesSession(app)

  const dialog = await app.askRevert(app.userMessage('Revise the notes'), 'Revert conversation and files')
  // The prompt and the two replies of the second turn.
  await expect(dialog).toContainText(/3 messages/)
  const files = dialog.getByRole('list', { name: 'Files that will change' })
  await expect(files.getByRole('listitem')).toHaveCount(2)
  await expect(files.getByRole('listitem').filter({ hasText: 'notes.txt' })).toContainText('restored')
  await expect(files.getByRole('listitem').filter({ hasText: 'todo.txt' })).toContainText('deleted')
  await dialog.getByRole('button', { name: 'Revert', exact: true }).click()
  await expect(dialog).toBeHidden()

  const notice = app.revertedNotice()
  await expect(notice).toContainText('3 messages hidden')
  await expect(notice).toContainText('Files restored: 2')
  await expect(app.userMessage('Revise the notes')).toHaveCount(0)
  await expect(app.reply('Revised the notes and added a todo.')).toHaveCount(0)
  await expect(app.reply('Wrote the first draft.')).toHaveCount(1)
  await expect(app.prompt).toHaveValue('Revise the notes')
  expect(await app.fileText('notes.txt')).toBe('first draft\n')
  expect(await app.fileText('todo.txt')).toBeNull()

  // The next prompt removes the hidden messages for good; the model never sees them.
  await model.push([streamText('Kept them short.')], { model: 'mock-model' })
  await app.prompt.fill('Keep the notes short')
  await app.prompt.press('Enter')
  await expect(app.reply('Kept them short.')).toHaveCount(1)
  await expect(notice).toHaveCount(0)
  const next = (await chat()).at(-1)!
  expect(userTexts(next)).toEqual(['Write the notes', 'Keep the notes short'])
  expect(JSON.stringify(next.body)).not.toContain('second draft')
  await page.reload()
  await app.ready()
  await expect(app.userMessage('Keep the notes short')).toHaveCount(1)
  await expect(app.userMessage('Revise the notes')).toHaveCount(0)
  await expect(app.reply('Revised the notes and added a todo.')).toHaveCount(0)
  expect(await app.fileText('notes.txt')).toBe('first draft\n')
  expect(await app.fileText('todo.txt')).toBeNull()
})

test('revert conversation and files, then unrevert: the messages and the files come back', async ({ page }) => {
  const app = await start(page, 'Notes')
  await filesSession(app)

  await app.revert(app.userMessage('Revise the notes'), 'Revert conversation and files')
  expect(await app.fileText('notes.txt')).toBe('first draft\n')
  expect(await app.fileText('todo.txt')).toBeNull()

  await app.unrevert()
  await expect(app.userMessage('Revise the notes')).toHaveCount(1)
  await expect(app.reply('Revised the notes and added a todo.')).toHaveCount(1)
  expect(await app.fileText('notes.txt')).toBe('second draft\n')
  expect(await app.fileText('todo.txt')).toBe('ship it\n')

  // Nothing is removed by the next prompt either: the whole history goes to the model.
  await model.push([streamText('All of it is back.')], { model: 'mock-model' })
  await app.prompt.fill('Is everything back?')
  await app.prompt.press('Enter')
  await expect(app.reply('All of it is back.')).toHaveCount(1)
  expect(userTexts((await chat()).at(-1)!)).toEqual(['Write the notes', 'Revise the notes', 'Is everything back?'])
})

test('revert conversation only hides the messages and leaves the files alone', async ({ page }) => {
  const app = await start(page, 'Notes')
  await filesSession(app)

  const dialog = await app.askRevert(app.userMessage('Revise the notes'), 'Revert conversation')
  await expect(dialog).toContainText('Files are left as they are.')
  await expect(dialog.getByRole('list', { name: 'Files that will change' })).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Revert', exact: true }).click()
  await expect(dialog).toBeHidden()

  const notice = app.revertedNotice()
  await expect(notice).toContainText('3 messages hidden')
  await expect(notice).not.toContainText('Files restored')
  await expect(app.userMessage('Revise the notes')).toHaveCount(0)
  expect(await app.fileText('notes.txt')).toBe('second draft\n')
  expect(await app.fileText('todo.txt')).toBe('ship it\n')

  await model.push([streamText('Left the files as they are.')], { model: 'mock-model' })
  await app.prompt.fill('Carry on from the first draft')
  await app.prompt.press('Enter')
  await expect(app.reply('Left the files as they are.')).toHaveCount(1)
  expect(userTexts((await chat()).at(-1)!)).toEqual(['Write the notes', 'Carry on from the first draft'])
  expect(await app.fileText('notes.txt')).toBe('second draft\n')
  expect(await app.fileText('todo.txt')).toBe('ship it\n')
})
