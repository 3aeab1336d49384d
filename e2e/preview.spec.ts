import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { MOCK_MODEL_SERVER_URL, ModelScript, streamText, toolCalls } from './testing/model-script'
import { showWorkspace } from './page-models/workbench'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const write = (id: string, filePath: string, content: string) => ({ id, name: 'write', args: { filePath, content } })

/** The model writes the files (one step), then says so. */
async function writeFiles(app: Conversation, files: Record<string, string>, prompt: string) {
  const calls = Object.entries(files).map(([path, content], index) => write(`w${index}`, path, content))
  await model.push([toolCalls(calls), streamText('Files written.')], { model: 'mock-model' })
  await app.send(prompt)
  await expect(app.replies().last()).toContainText('Files written.')
}

async function showPreview(page: Page) {
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Preview' }).click()
  return panel
}

const util = (count: number) => `export const message = () => 'Hello from util ${count}'\n`

test('a static page shows in Preview, styled and with its modules, follows an edit, and links to its other pages', async ({ page }) => {
  const app = new Conversation(page)
  await app.start()
  await writeFiles(
    app,
    {
      'index.html': `<!doctype html><html><head><title>Site</title><link rel="stylesheet" href="style.css"><script type="module" src="./main.js"></script></head><body><h1 id="out">Loading</h1><a href="about.html">About us</a></body></html>`,
      'style.css': 'h1 { color: rgb(200, 0, 0); }\n',
      'main.js': `import { message } from './util.js'\ndocument.getElementById('out').textContent = message()\n`,
      'util.js': util(1),
      'about.html': `<!doctype html><html><head><title>About</title></head><body><p>About this site</p><a href="./">Home</a></body></html>`,
    },
    'Make a small site',
  )
  const panel = await showPreview(page)
  const frame = page.frameLocator('iframe[title="Static preview of index.html"]')
  // Shown, styled, but its scripts wait for the user (issue 27).
  await expect(frame.getByRole('heading', { name: 'Loading' })).toHaveCSS('color', 'rgb(200, 0, 0)')
  await panel.getByRole('button', { name: 'Run the page’s scripts' }).click()
  await expect(frame.getByRole('heading', { name: 'Hello from util 1' })).toBeVisible()
  await expect(frame.getByRole('heading')).toHaveCSS('color', 'rgb(200, 0, 0)')

  // An edit to a module it runs is a page the user has not run yet (issue 27): it shows inert until they run it.
  await writeFiles(app, { 'util.js': util(2) }, 'Bump the greeting')
  await expect(panel).toContainText('The page changed since you ran it')
  await expect(frame.getByRole('heading', { name: 'Loading' })).toBeVisible()
  await panel.getByRole('button', { name: 'Run the page’s scripts' }).click()
  await expect(frame.getByRole('heading', { name: 'Hello from util 2' })).toBeVisible()

  await frame.getByRole('link', { name: 'About us' }).click()
  await expect(page.frameLocator('iframe[title="Static preview of about.html"]').getByText('About this site')).toBeVisible()
  await panel.getByRole('button', { name: 'Back to index.html' }).click()
  await expect(frame.getByRole('heading', { name: 'Hello from util 2' })).toBeVisible()
  // The link was followed inside the project, never by loading about.html from the app's origin into the frame.
  expect(page.frames().map((frame) => frame.url()).filter((url) => url.includes('about.html'))).toEqual([])
})

test('a project built by a tool says it needs a dev server, and offers WebContainer', async ({ page }) => {
  const app = new Conversation(page)
  await app.start()
  await writeFiles(
    app,
    {
      'package.json': JSON.stringify({ name: 'app', scripts: { dev: 'vite', build: 'vite build' } }),
      'index.html': `<!doctype html><html><head><script type="module" src="/src/main.ts"></script></head><body><div id="app">Static shell</div></body></html>`,
      'src/main.ts': `import { createApp } from 'vue'\ncreateApp({}).mount('#app')\n`,
    },
    'Start a Vite app',
  )
  const panel = await showPreview(page)
  const note = panel.getByRole('note')
  await expect(note).toContainText('This project needs a dev server (npm run dev): start WebContainer.')
  await expect(note.getByRole('button', { name: 'Start WebContainer' })).toBeVisible()
  await panel.getByText('1 thing the static preview could not load').click()
  await expect(panel).toContainText('index.html: /src/main.ts is not JavaScript')
  // What can be shown without it still is.
  await expect(page.frameLocator('iframe[title="Static preview of index.html"]').getByText('Static shell')).toBeVisible()
})

test.describe('the sandbox', () => {
  // The browser logs each request the page's policy refuses; refusing them is the point. One pattern (a second array element would read as fixture options), anchored to the script that tried.
  test.use({
    allowConsoleErrors: [
      /(violates the following Content Security Policy directive: "connect-src data: blob:"\. The action has been blocked|Refused to connect because it violates the document's Content Security Policy)\. tabcode-preview:\/probe\.js$/,
    ],
  })

  test('refuses storage, the network and the parent page to a script in the preview', async ({ page }) => {
    const requests: { url: string; frame: string }[] = []
    page.on('request', (request) => requests.push({ url: request.url(), frame: request.frame().url() }))
    const app = new Conversation(page)
    await app.start()
    const probe = `
const list = document.getElementById('results')
const record = (name, outcome) => {
  const item = document.createElement('li')
  item.textContent = name + ': ' + outcome
  list.append(item)
}
const attempt = async (name, run) => {
  try {
    await run()
    record(name, 'allowed')
  } catch (error) {
    record(name, 'refused')
  }
}
await attempt('indexedDB', () => new Promise((resolve, reject) => {
  const request = indexedDB.open('tabcode')
  request.onsuccess = () => resolve(request.result)
  request.onerror = () => reject(request.error)
}))
await attempt('localStorage', () => localStorage.getItem('tabcode'))
await attempt('same-origin fetch', () => fetch('/'))
await attempt('network fetch', () => fetch(${JSON.stringify(`${MOCK_MODEL_SERVER_URL}/health`)}))
await attempt('parent document', () => parent.document.title)
record('done', 'yes')
`
    await writeFiles(
      app,
      {
        'index.html': `<!doctype html><html><head><script type="module" src="probe.js"></script></head><body><ul id="results"></ul></body></html>`,
        'probe.js': probe,
      },
      'Write a probe page',
    )
    const panel = await showPreview(page)
    await panel.getByRole('button', { name: 'Run the page’s scripts' }).click()
    const frame = page.frameLocator('iframe[title="Static preview of index.html"]')
    await expect(frame.getByText('done: yes')).toBeVisible()
    for (const name of ['indexedDB', 'localStorage', 'same-origin fetch', 'network fetch', 'parent document']) {
      await expect(frame.getByText(`${name}: refused`)).toBeVisible()
    }
    // Nothing left the frame, and nothing reached the other host.
    expect(requests.filter(({ url, frame }) => url.endsWith('/health') || (frame === 'about:srcdoc' && !url.startsWith('data:')))).toEqual([])
  })
})
