import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { expect, test } from './testing/fixtures'
import { Sharing } from './page-models/share'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText } from './testing/model-script'
import { conversation, requestsOf, userTexts } from './testing/requests'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

// A 1×1 red PNG.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

test('an image pasted into the prompt shows as a chip, reaches the model as an image part, and stays in the message after a reload', async ({ page }) => {
  await model.push([streamText('A red pixel.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.prompt.focus()
  await app.prompt.evaluate((element, base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
    const data = new DataTransfer()
    data.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }))
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  }, PNG_BASE64)
  const attached = page.getByRole('list', { name: 'Attachments' })
  await expect(attached.getByRole('listitem', { name: 'pixel.png' })).toBeVisible()
  await app.prompt.fill('What is in this picture?')
  await app.prompt.press('Enter')
  await expect(app.replies().first()).toContainText('A red pixel.')
  await expect(attached).toHaveCount(0)

  const [request] = requestsOf(await model.requests())
  const user = conversation(request!).find((message) => message.role === 'user')!
  expect(Array.isArray(user.content)).toBe(true)
  const parts = user.content as Array<{ type: string; text?: string; image_url?: { url: string } }>
  expect(parts.find((part) => part.type === 'text')?.text).toBe('What is in this picture?')
  expect(parts.find((part) => part.type === 'image_url')?.image_url?.url).toBe(`data:image/png;base64,${PNG_BASE64}`)

  const prompt = app.prompts().first()
  await expect(prompt).toContainText('pixel.png')
  await expect(prompt.getByRole('img', { name: 'Preview of pixel.png' })).toBeVisible()
  await page.reload()
  await app.ready()
  await expect(app.prompts().first()).toContainText('What is in this picture?')
  await expect(app.prompts().first()).toContainText('pixel.png')
  await expect(app.prompts().first().getByRole('img', { name: 'Preview of pixel.png' })).toBeVisible()
})

test('an oversized file says what is wrong, and the prompt keeps its text and still sends', async ({ page }) => {
  await model.push([streamText('Noted.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.prompt.fill('Here are my notes')
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Attach files' }).click()
  await (await chooser).setFiles([
    { name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('remember the milk') },
  ])
  await expect(page.getByRole('alert')).toContainText('huge.bin is 10.0 MB: an attachment can be at most 10.0 MB.')
  const attached = page.getByRole('list', { name: 'Attachments' })
  await expect(attached.getByRole('listitem', { name: 'notes.txt' })).toBeVisible()
  await expect(attached.getByRole('listitem', { name: 'huge.bin' })).toHaveCount(0)
  await expect(app.prompt).toHaveValue('Here are my notes')
  await app.prompt.press('Enter')
  await expect(app.replies().first()).toContainText('Noted.')
  const [request] = requestsOf(await model.requests())
  const sent = userTexts(request!).join('\n')
  expect(sent).toContain('Here are my notes')
  expect(sent).toContain('The user attached notes.txt:')
  expect(sent).toContain('remember the milk')
})

test('a removed chip is not sent, and a file the model cannot read goes as opencode\'s "cannot read" text', async ({ page }) => {
  await model.push([streamText('I cannot open archives.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Attach files' }).click()
  await (await chooser).setFiles([
    { name: 'bundle.zip', mimeType: 'application/zip', buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]) },
    { name: 'drop-me.txt', mimeType: 'text/plain', buffer: Buffer.from('not this one') },
  ])
  await page.getByRole('button', { name: 'Remove drop-me.txt' }).click()
  await expect(page.getByRole('listitem', { name: 'drop-me.txt' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(app.replies().first()).toContainText('I cannot open archives.')
  const [request] = requestsOf(await model.requests())
  const sent = userTexts(request!).join('\n')
  expect(sent).toContain('ERROR: Cannot read bundle.zip (this model does not support file input). Inform the user.')
  expect(sent).not.toContain('not this one')
})

test('a file dropped on the prompt is attached; a link made too long by it says so, and the file export carries it', async ({ page }) => {
  await model.push([streamText('A big photo.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  // Random bytes do not compress: 600 KB of them put the link past its 524,288 characters. They start as a PNG does,
  // since a "PNG" whose bytes are something else is refused when attached.
  const photo = Buffer.concat([Buffer.from(PNG_BASE64, 'base64').subarray(0, 8), randomBytes(600_000)]).toString('base64')
  await app.prompt.evaluate((element, base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
    const data = new DataTransfer()
    data.items.add(new File([bytes], 'photo.png', { type: 'image/png' }))
    element.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }))
    element.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
  }, photo)
  await expect(page.getByRole('listitem', { name: 'photo.png' })).toBeVisible()
  await app.prompt.fill('Look at this')
  await app.prompt.press('Enter')
  await expect(app.replies().first()).toContainText('A big photo.')

  const sharing = new Sharing(page)
  await sharing.openShareDialog()
  const refusal = sharing.shareDialog.getByRole('alert').filter({ hasText: 'This link is too long' })
  await expect(refusal).toContainText('because of the attachment in its prompts')
  const [download] = await Promise.all([page.waitForEvent('download'), refusal.getByRole('button', { name: 'Export as file instead' }).click()])
  const text = await readFile((await download.path())!, 'utf8')
  expect(text).toContain(`data:image/png;tabcode=attachment;base64,${photo}`)
})
