import type { BrowserContext, Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { Sharing } from './page-models/share'
import { EVIL_HOST, XSS_MARKDOWN, XSS_PAYLOADS } from './testing/xss-payloads'
import { MOCK_MODEL_SERVER_URL, ModelScript, streamText, text, toolCalls } from './testing/model-script'
import { makeBuilders } from '../src/testing/fixture-builders'
import type { Part } from '../src/core/schema'
import { createShareLink } from '../src/share/link'
import type { SessionTranscript } from '../src/share/transcript'
import { showWorkspace } from './page-models/workbench'

// Issue 13: untrusted text reaches the page through model text, tool output, session titles, share links and
// file imports. Every payload of the corpus goes through each of them; none may run (`__xss` and `alert` are
// counted in every frame) and nothing may be fetched from any host but the app's and the mock model server's.

test.describe.configure({ timeout: 90_000 })

const model = new ModelScript()

interface XssWatch {
  /** The numbers of the payloads that ran. */
  ran: number[]
  dialogs: string[]
  /** Every request to a host other than the app's and the mock model server's. */
  foreign: string[]
}

/** Binds `__xss` in every page and frame of the context, and records dialogs and requests that leave the two origins. */
async function watchForXss(context: BrowserContext, page: Page, appOrigin: string): Promise<XssWatch> {
  const watch: XssWatch = { ran: [], dialogs: [], foreign: [] }
  await context.exposeBinding('__xss', (_source, n: number) => void watch.ran.push(n))
  const allowed = new Set([new URL(appOrigin).origin, new URL(MOCK_MODEL_SERVER_URL).origin])
  context.on('request', (request) => {
    const url = new URL(request.url())
    // data: and blob: URLs reach no host.
    if (!/^(https?|wss?):$/.test(url.protocol)) return
    if (!allowed.has(url.origin)) watch.foreign.push(request.url())
  })
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  return watch
}

/**
 * Markup that could run or fetch if it were ever reached (hovered, clicked, focused): event-handler attributes,
 * script-capable elements, links with a scheme other than http(s)/mailto, media from other hosts, CSS with url().
 * The app builds its DOM node by node, so none of this should exist at all.
 */
async function dangerousMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const describe = (element: Element) => element.outerHTML.slice(0, 120)
    const parse = (url: string) => {
      try {
        return new URL(url, location.href)
      } catch {
        return undefined
      }
    }
    for (const element of document.body.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames()) {
        if (/^on/i.test(attribute) || /^(srcdoc|formaction|xlink:href)$/i.test(attribute)) found.push(`attribute ${attribute}: ${describe(element)}`)
      }
      if (/url\(/i.test(element.getAttribute('style') ?? '')) found.push(`style url(): ${describe(element)}`)
    }
    for (const element of document.body.querySelectorAll('script, iframe, object, embed, frame, frameset, base, meta, link, style, form[action]')) {
      found.push(`element: ${describe(element)}`)
    }
    for (const anchor of document.body.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      if (!['http:', 'https:', 'mailto:'].includes(anchor.protocol)) found.push(`link: ${describe(anchor)}`)
    }
    for (const media of document.body.querySelectorAll<HTMLImageElement>('img[src], source[src], video[src], audio[src]')) {
      const source = parse(media.getAttribute('src')!)
      if (source && source.protocol !== 'data:' && source.origin !== location.origin) found.push(`media: ${describe(media)}`)
    }
    return found
  })
}

async function expectNothingRanOrFetched(page: Page, watch: XssWatch) {
  // One comparison, so a failure lists every kind of breach at once.
  const seen = { ran: watch.ran, dialogs: watch.dialogs, foreign: watch.foreign, markup: await dangerousMarkup(page) }
  expect(seen, 'payloads that ran, dialogs, requests to other hosts, markup that could run or fetch').toEqual({ ran: [], dialogs: [], foreign: [], markup: [] })
}

/** A few payloads' source, which must be on screen as text (raw HTML is shown, not parsed). */
const SHOWN_AS_TEXT = [XSS_PAYLOADS[0]!.text, XSS_PAYLOADS[2]!.text, XSS_PAYLOADS[4]!.text]

/** A session that carries the corpus in every place a transcript holds text: title, prompt, reasoning, reply, tools, files, patch, subtask, error. */
function payloadTranscript(title: string): SessionTranscript {
  const build = makeBuilders(Date.now() - 60_000)
  const session = build.session({ title })
  const user = build.user(session.id)
  const answer = build.assistant(session.id, user.id, { finish: 'tool-calls' })
  const failed = build.assistant(session.id, user.id, {
    finish: 'error',
    error: { name: 'APIError', data: { message: XSS_PAYLOADS[2]!.text, statusCode: 500, isRetryable: false } },
  })
  const base = (message: { id: string }) => ({ id: build.ids.ascending('part', build.now() + 1), sessionID: session.id, messageID: message.id })
  const now = build.now()
  const userParts: Part[] = [
    build.text(user, XSS_MARKDOWN),
    { ...base(user), type: 'file', mime: 'image/png', filename: XSS_PAYLOADS[3]!.text, url: `https://${EVIL_HOST}/file.png` },
    { ...base(user), type: 'file', mime: 'image/svg+xml', filename: 'drawing.svg', url: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" onload="__xss(99)"/>')}` },
    { ...base(user), type: 'subtask', description: XSS_PAYLOADS[24]!.text, prompt: XSS_MARKDOWN, agent: 'explore' },
  ]
  const answerParts: Part[] = [
    { ...base(answer), type: 'reasoning', text: XSS_MARKDOWN, time: { start: now, end: now + 1 } },
    build.text(answer, XSS_MARKDOWN),
    {
      ...base(answer),
      type: 'tool',
      callID: 'call_cat',
      tool: 'bash',
      state: {
        status: 'completed',
        input: { command: `echo '${XSS_PAYLOADS[24]!.text}'`, description: XSS_PAYLOADS[2]!.text },
        output: XSS_MARKDOWN,
        title: XSS_PAYLOADS[3]!.text,
        metadata: { output: XSS_MARKDOWN },
        time: { start: now, end: now + 1 },
      },
    },
    {
      ...base(answer),
      type: 'tool',
      callID: 'call_failed',
      tool: 'read',
      state: { status: 'error', input: { filePath: XSS_PAYLOADS[25]!.text }, error: XSS_MARKDOWN, time: { start: now, end: now + 1 } },
    },
    { ...base(answer), type: 'patch', hash: 'f00dfeed00', files: XSS_PAYLOADS.slice(0, 5).map((payload) => payload.text) },
  ]
  return {
    info: session,
    messages: [
      { info: user, parts: userParts },
      { info: answer, parts: answerParts },
      { info: failed, parts: [] },
    ],
  }
}

test.beforeEach(async () => {
  await model.reset()
})

test('model text streamed in pieces, reasoning, tool output and a generated title show every payload as text and run none', async ({ page, context, baseURL }) => {
  const watch = await watchForXss(context, page, baseURL!)
  // Quotes around a generated title are dropped, so the title's payload starts with its tag.
  const title = XSS_PAYLOADS[2]!.text
  await model.push(text(title), { model: 'mock-small' })
  await model.push(
    [
      toolCalls([{ id: 'w', name: 'write', args: { filePath: 'xss.md', content: XSS_MARKDOWN } }]),
      toolCalls([
        { id: 'r', name: 'read', args: { filePath: 'xss.md' } },
        { id: 'b', name: 'bash', args: { command: 'cat xss.md && echo "<img src=x onerror=__xss(31)>"', description: XSS_PAYLOADS[3]!.text } },
      ]),
      streamText(`Here they are:\n\n${XSS_MARKDOWN}\n\nThat was all of them.`, { split: 7, reasoning: XSS_MARKDOWN }),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send(`Write these to xss.md, then show them:\n\n${XSS_MARKDOWN}`)
  await expect(app.replies().last()).toContainText('That was all of them.')
  await app.idle()
  for (const source of SHOWN_AS_TEXT) await expect(app.replies().last()).toContainText(source)
  await expect(app.messages.getByRole('group', { name: 'Tool call: bash' })).toContainText('<img src=x onerror=__xss(31)>')
  // The remote images wait for a click; the test never clicks them.
  await expect(app.replies().last().getByRole('button', { name: /^Load image: tracker/ })).toHaveCount(2)
  // The small model named the session with a payload: the sidebar and the header show it as text.
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(title)

  // The file and the command are shown again in the workspace panel: the file viewer and the terminal.
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files' }).click()
  await panel.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: /xss\.md/ }).click()
  await expect(panel).toContainText(XSS_PAYLOADS[0]!.text)
  await panel.getByRole('tab', { name: 'Terminal' }).click()
  await expect(panel.getByRole('region', { name: 'Terminal' })).toContainText('<img src=x onerror=__xss(31)>')

  await expectNothingRanOrFetched(page, watch)
})

test('sessions titled with every payload list, open and rename without running any', async ({ page, context, baseURL }) => {
  const watch = await watchForXss(context, page, baseURL!)
  const app = new Sharing(page)
  await app.open()
  await app.seed((projectID) => {
    const build = makeBuilders(Date.now() - 60_000)
    const sessions = XSS_PAYLOADS.map((payload) => build.session({ projectID, title: payload.text }))
    const messages = sessions.map((session) => build.user(session.id))
    return { sessions, messages, parts: messages.map((message, index) => build.text(message, XSS_PAYLOADS[index]!.text)) }
  })
  const links = app.sessionLinks()
  await expect(links).toHaveCount(XSS_PAYLOADS.length)
  for (let index = 0; index < XSS_PAYLOADS.length; index++) {
    await links.nth(index).click()
    await expect(app.main.getByRole('heading', { level: 1 })).not.toHaveText('')
    await expect(app.messages.getByRole('article', { name: 'You' })).toHaveCount(1)
  }
  // Titles whose payload has no line break show whole, as text.
  await expect(app.sessionLink(new RegExp(`^${escapeRegExp(XSS_PAYLOADS[2]!.text)}`))).toBeVisible()
  const renamed = '"><img src=x onerror=__xss(32)> renamed'
  await app.rename(XSS_PAYLOADS[2]!.text, renamed)
  await app.sessionLink(new RegExp(`^${escapeRegExp(renamed)}`)).click()
  await expect(app.heading(renamed)).toBeVisible()
  await expectNothingRanOrFetched(page, watch)
})

test('a crafted share link and an imported file carrying every payload open read-only and run none', async ({ page, context, baseURL }) => {
  const watch = await watchForXss(context, page, baseURL!)
  const app = new Sharing(page)
  await app.open()

  const linkTitle = XSS_PAYLOADS[0]!.text
  const link = await createShareLink(payloadTranscript(linkTitle), { base: `${baseURL}/`, includeToolOutput: true })
  await app.openLink(link.url)
  await expect(app.status('Opened a shared session (read-only)')).toBeVisible()
  await expect(app.heading(linkTitle)).toBeVisible()
  for (const source of SHOWN_AS_TEXT) await expect(app.messages).toContainText(source)
  await expectNothingRanOrFetched(page, watch)
  // The share dialog shows the session's size and secrets preview from the same text.
  await app.openShareDialog()
  await app.shareDialog.getByRole('button', { name: 'Close' }).click()

  const fileTitle = XSS_PAYLOADS[3]!.text
  const transcript = payloadTranscript(fileTitle)
  const file = { format: 'tabcode-session', version: 1, exported: { time: Date.now(), app: 'e2e' }, session: transcript }
  await app.importFile({ name: 'xss.json', buffer: Buffer.from(JSON.stringify(file)) })
  await expect(app.status('Imported a session (read-only)')).toBeVisible()
  await expect(app.heading(fileTitle)).toBeVisible()
  for (const source of SHOWN_AS_TEXT) await expect(app.messages).toContainText(source)
  await expect(app.messages.getByRole('group', { name: 'Changed files' })).toContainText(XSS_PAYLOADS[4]!.text)
  await expectNothingRanOrFetched(page, watch)
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
