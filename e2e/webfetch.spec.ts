import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'

/*
 * webfetch in the built app: the HTML converters run in the engine's worker, which has no `document`, from a chunk
 * loaded on the first page fetched. A converter that works in Node but not there fails here.
 */

const model = new ModelScript()

const PAGE = [
  '<!doctype html><html><head><title>Guide</title><style>h1 { color: red }</style>',
  '<script>window.leak = "from a script"</script></head><body>',
  '<h1>Getting started</h1>',
  '<p>Read <a href="https://example.com/docs">the docs</a> first.</p>',
  '<ul><li>Install</li><li>Run</li></ul>',
  '<pre><code class="language-sh">npm start</code></pre>',
  '</body></html>',
].join('\n')

let server: http.Server
let origin: string

test.beforeAll(async () => {
  // A site that allows cross-origin reads, as webfetch needs in a browser.
  server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'access-control-allow-origin': '*' })
    response.end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

test.beforeEach(async () => {
  await model.reset()
})

test('a fetched page reaches the model as Markdown by default, and as plain text when asked', async ({ page }) => {
  await model.push(
    [
      toolCalls([{ id: 'as_markdown', name: 'webfetch', args: { url: `${origin}/guide` } }]),
      toolCalls([{ id: 'as_text', name: 'webfetch', args: { url: `${origin}/guide`, format: 'text' } }]),
      streamText('The guide says to install, then run.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Read the guide')
  const host = origin.slice('http://'.length)
  await page.getByRole('dialog', { name: `Allow fetching from ${host}?` }).getByRole('button', { name: 'Always allow' }).click()
  await expect(app.replies().last()).toContainText('The guide says to install, then run.')

  // What the user sees: the first call's output, opened, is the page as Markdown.
  const card = app.messages.getByRole('group', { name: 'Tool call: webfetch' }).first()
  await card.getByText(/^Output/).click()
  await expect(card).toContainText('# Getting started')
  await expect(card).toContainText('[the docs](https://example.com/docs)')

  // What the model was given.
  const last = (await model.requests()).filter((request) => request.model === 'mock-model').at(-1)!
  const output = (id: string) => {
    const message = last.body!.messages.find((entry) => entry.role === 'tool' && entry.tool_call_id === id)
    return typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content)
  }
  expect(output('as_markdown')).toBe(
    ['# Getting started', '', 'Read [the docs](https://example.com/docs) first.', '', '-   Install', '-   Run', '', '```sh', 'npm start', '```'].join('\n'),
  )
  expect(output('as_text')).toBe(['Getting started', '', 'Read the docs first.', '', 'Install', 'Run', '', 'npm start'].join('\n'))
})
