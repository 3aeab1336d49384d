import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { Sharing } from './page-models/share'
import { ModelScript, streamText, toolCalls } from './testing/model-script'

// Issue 15 item 6: what tabcode exports and shows matches opencode 1.18.33 where the issue says it must.

test.describe.configure({ timeout: 90_000 })

const FIXTURES = join(process.cwd(), 'e2e/testing/opencode')

interface OpencodeFile {
  info: { id: string; title: string }
  messages: { info: { id: string; role: string; time: { created: number; completed?: number }; error?: unknown }; parts: { type: string }[] }[]
}

/** An export's messages as far as these tests read them. */
interface ExportedSession {
  messages: { info: { role: string; error?: unknown; finish?: string }; parts: { type: string; tool?: string; state: { status: string; output?: string; error?: string; metadata?: Record<string, unknown> } }[] }[]
}

const toolParts = (session: ExportedSession) => session.messages.flatMap((message) => message.parts).filter((part) => part.type === 'tool')

/** A real opencode export whose last reply never finished (no `time.completed`), as a file to import. */
function unfinishedExport(): { path: string; document: OpencodeFile } {
  const document = JSON.parse(readFileSync(join(FIXTURES, 'text-only.json'), 'utf8')) as OpencodeFile
  const last = document.messages.findLast((message) => message.info.role === 'assistant')!
  delete last.info.time.completed
  document.info.title = 'Unfinished import'
  const path = join(mkdtempSync(join(tmpdir(), 'tabcode-fidelity-')), 'unfinished.json')
  writeFileSync(path, JSON.stringify(document))
  return { path, document }
}

/** The opencode CLI, where scripts/interop.mjs looks for it ($OPENCODE_BIN, /tmp/oc); not a project dependency, so optional. */
function opencodeBinary(): string | undefined {
  return [process.env.OPENCODE_BIN, '/tmp/oc/node_modules/.bin/opencode'].find(
    (candidate): candidate is string => !!candidate && existsSync(candidate),
  )
}

test('an imported session exports byte for byte the same before and after it is opened again', async ({ page }) => {
  const { path, document } = unfinishedExport()
  const app = new Sharing(page)
  await app.open()
  await app.importFile(path)
  await expect(app.status('Imported an opencode session (read-only)')).toBeVisible()
  await expect(app.heading('Unfinished import')).toBeVisible()
  const importedID = await app.openSessionID()
  const before = { opencode: await app.exportSession({ format: 'opencode' }), tabcode: await app.exportSession() }

  // Away and back, as a person reopens it; then the worker's own open is awaited, so any repair has run.
  await app.newSession()
  await app.sessionLink(/^Unfinished import/).click()
  await expect(app.heading('Unfinished import')).toBeVisible()
  expect(await page.evaluate((id) => window.__tabcode!.api.openSession(id), importedID)).toEqual({ repaired: false })
  await expect(app.messages).not.toContainText('The tab running this turn was closed')
  const after = { opencode: await app.exportSession({ format: 'opencode' }), tabcode: await app.exportSession() }

  expect(after.opencode.text).toBe(before.opencode.text)
  // The tabcode file says when it was exported; everything else is the same bytes.
  const withoutTime = (text: string) => text.replace(/"exported": \{[^}]*\}/, '"exported": {}')
  expect(withoutTime(after.tabcode.text)).toBe(withoutTime(before.tabcode.text))
  // What was imported is what is exported: the unfinished reply stays unfinished, with no invented error.
  const exported = JSON.parse(after.opencode.text) as OpencodeFile
  const reply = exported.messages.findLast((message) => message.info.role === 'assistant')!
  expect(reply.info.time.completed).toBeUndefined()
  expect(reply.info.error).toBeUndefined()
  expect(exported.messages.map((message) => message.parts.map((part) => part.type))).toEqual(
    document.messages.map((message) => message.parts.map((part) => part.type)),
  )
})

test('the export dialog writes opencode\'s own format, which opencode import reads', async ({ page }) => {
  const app = new Sharing(page)
  await app.open()
  await app.importFile(join(FIXTURES, 'tool-calls.json'))
  await expect(app.status('Imported an opencode session (read-only)')).toBeVisible()
  const original = JSON.parse(readFileSync(join(FIXTURES, 'tool-calls.json'), 'utf8')) as OpencodeFile

  const tabcode = await app.exportSession()
  expect(tabcode.name).toMatch(/\.tabcode\.json$/)
  expect(JSON.parse(tabcode.text)).toMatchObject({ format: 'tabcode-session' })

  const file = await app.exportSession({ format: 'opencode' })
  expect(file.name).toMatch(/\.opencode\.json$/)
  const exported = JSON.parse(file.text) as OpencodeFile & Record<string, unknown>
  // opencode's shape: `info` (a session) and `messages` of `{info, parts}`, and nothing of ours around them.
  expect(Object.keys(exported).sort()).toEqual(['info', 'messages'])
  expect(exported.info.id).toMatch(/^ses_/)
  expect(exported.info.title).toBe(original.info.title)
  expect(exported.messages.map((message) => [message.info.role, message.parts.map((part) => part.type)])).toEqual(
    original.messages.map((message) => [message.info.role, message.parts.map((part) => part.type)]),
  )

  const opencode = opencodeBinary()
  if (!opencode) return
  // The real CLI as scripts/interop.mjs runs it: a throwaway home, so nothing of this machine's opencode is touched.
  const scratch = mkdtempSync(join(tmpdir(), 'tabcode-opencode-'))
  const home = join(scratch, 'home')
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_PURE: '1',
  }
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(opencode, args, { env, cwd: scratch, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    )
  const imported = await run(['import', file.path])
  expect(imported.stderr + imported.stdout).not.toContain('Missing key')
  expect(imported.code, imported.stderr).toBe(0)
  expect(imported.stdout).toContain(`Imported session: ${exported.info.id}`)
  const back = await run(['export', exported.info.id])
  expect(back.code, back.stderr).toBe(0)
  const reread = JSON.parse(back.stdout) as OpencodeFile
  expect(reread.messages.map((message) => message.parts.map((part) => part.type))).toEqual(exported.messages.map((message) => message.parts.map((part) => part.type)))
})

test('a bash command stopped mid-run is stored completed with its output so far, as opencode stores it', async ({ page }) => {
  const model = new ModelScript()
  await model.reset()
  await model.push([toolCalls([{ id: 'spin', name: 'bash', args: { command: 'echo compiling; while true; do :; done', description: 'Spins forever' } }])], {
    model: 'mock-model',
  })
  const app = new Conversation(page)
  await app.start()
  await app.send('Build it')
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(card).toContainText('running')
  const sessionID = decodeURIComponent(new URL(page.url()).hash.replace('#/session/', ''))
  const stored = () =>
    page.evaluate(async (id) => {
      const { messages } = await window.__tabcode!.api.pageMessages({ sessionID: id, limit: 50 })
      const part = messages.flatMap((message) => message.parts).find((entry) => entry.type === 'tool')
      return part?.type === 'tool' ? part.state : undefined
    }, sessionID)
  // The card shows the command, which holds the word too: wait for the command's own output (on a loaded machine
  // the shell's code may still be loading, and a Stop before the first statement rightly leaves no output).
  await expect
    .poll(async () => {
      const state = await stored()
      return state?.status === 'running' ? String((state.metadata as { output?: unknown } | undefined)?.output ?? '') : ''
    })
    .toContain('compiling')
  await app.stopButton().click()
  await app.idle()
  await expect(card).not.toContainText('running')
  await expect(card).not.toContainText('Tool execution aborted')

  // On a loaded machine the kill may answer after cleanup's 250 ms; its result is written over the call then.
  await expect.poll(async () => (await stored())?.status).toBe('completed')
  const state = await stored()
  expect(state?.status === 'completed' && state.output).toContain('compiling')
  expect(state?.status === 'completed' && state.output).toContain('User aborted the command')
  // The card still says the user stopped it (read from the output's note), not that the command failed.
  await expect(card).toContainText('interrupted')
  await expect(card).not.toContainText('failed')

  // Exported as opencode stores a stopped command and its reply: the call completed with opencode's keys and no
  // flag of ours; the reply ends with MessageAbortedError and, stopped mid-step, no finish.
  const exported = JSON.parse((await new Sharing(page).exportSession({ format: 'opencode' })).text) as ExportedSession
  const reference = JSON.parse(readFileSync(join(FIXTURES, 'tool-calls.json'), 'utf8')) as ExportedSession
  const referenceBash = toolParts(reference).find((part) => part.tool === 'bash')!
  const reply = exported.messages.find((message) => message.info.role === 'assistant')!
  const bash = toolParts(exported).find((part) => part.tool === 'bash')!
  expect(bash.state.status).toBe('completed')
  expect(Object.keys(bash.state).sort()).toEqual(Object.keys(referenceBash.state).sort())
  expect(bash.state.metadata).not.toHaveProperty('interrupted')
  expect(bash.state.output).toContain('User aborted the command')
  expect(reply.info.error).toEqual({ name: 'MessageAbortedError', data: { message: expect.any(String) } })
  expect(reply.info).not.toHaveProperty('finish')

  // The model is told the same on the next turn: the output so far and that the user stopped it.
  await model.push([streamText('Stopped it.')], { model: 'mock-model' })
  await app.send('ok')
  await expect(app.replies().last()).toContainText('Stopped it.')
  const last = (await model.requests()).filter((request) => request.model === 'mock-model').at(-1)!
  const result = JSON.stringify(last.body!.messages.find((message) => message.role === 'tool'))
  expect(result).toContain('compiling')
  expect(result).toContain('User aborted the command')
})

test('a parallel call the user rejects fails alone: the other call keeps its result and the turn stops (a listed difference)', async ({ page }) => {
  const model = new ModelScript()
  await model.reset()
  await model.push(
    [
      toolCalls([
        { id: 'notes', name: 'write', args: { filePath: 'notes.md', content: '# Notes\n' } },
        { id: 'secrets', name: 'read', args: { filePath: '.env' } },
      ]),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send('Write the notes and read the env file')
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('.env')
  await dialog.getByRole('button', { name: 'Reject', exact: true }).click()
  await app.idle()
  const read = app.messages.getByRole('group', { name: /^Tool call: read/ })
  await expect(read).toContainText('The user rejected permission')
  await expect(app.messages.getByRole('group', { name: /^Tool call: write/ })).toContainText('completed')
  // The turn stopped at the rejection: the one request was the only one for the main model.
  expect((await model.requests()).filter((request) => request.model === 'mock-model')).toHaveLength(1)

  const exported = JSON.parse((await new Sharing(page).exportSession({ format: 'opencode' })).text) as ExportedSession
  const reference = JSON.parse(readFileSync(join(FIXTURES, 'tool-calls.json'), 'utf8')) as ExportedSession
  const [write, rejected] = toolParts(exported)
  // Each call in opencode's shape: a completed write, and a failed call with opencode's keys and its words.
  expect(write!.state.status).toBe('completed')
  expect(rejected!.state).toMatchObject({ status: 'error', error: 'The user rejected permission to use this specific tool call.' })
  const referenceError = toolParts(reference).find((part) => part.state.status === 'error')!
  expect(Object.keys(rejected!.state).sort()).toEqual(Object.keys(referenceError.state).sort())
  // The listed difference (docs/differences-from-opencode.md, "A rejected parallel call fails only itself"): the step
  // ends normally, with its finish and no error on the message, where opencode records the rejection there too.
  const reply = exported.messages.find((message) => message.info.role === 'assistant')!
  expect(reply.info.finish).toBe('tool-calls')
  expect(reply.info).not.toHaveProperty('error')
})
