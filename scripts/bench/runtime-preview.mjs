// The static preview (src/workspace/preview): how long a small web app takes to show in the Preview tab, built
// from the project's files without WebContainer, and to be built again (the "Reload preview" button reads every
// file again, as a rebuild after an edit does, minus the 200 ms the pane waits for edits to settle).

const MODULES = 30

/** A page with a style sheet, an image and a chain of modules; main.js stamps each run so a new run can be told apart. */
function smallApp() {
  const files = {
    'index.html': `<!doctype html><html><head><link rel="stylesheet" href="style.css"><script type="module" src="main.js"></script></head><body><h1 id="out">Loading</h1><img src="logo.svg" alt=""></body></html>`,
    'style.css': `h1 { color: rgb(20, 20, 160); background: url(logo.svg) no-repeat; }\n`,
    'logo.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>`,
    'main.js': `import { total } from './lib/m0.js'\ndocument.getElementById('out').textContent = 'Ready ' + total + ' ' + Math.random()\n`,
  }
  for (let index = 0; index < MODULES; index++) {
    files[`lib/m${index}.js`] =
      index === MODULES - 1 ? `export const total = ${MODULES}\n` : `export { total } from './m${index + 1}.js'\nexport const name${index} = ${JSON.stringify('x'.repeat(40))}\n`
  }
  return Object.entries(files).map(([path, text]) => ({ path, text }))
}

export async function measureStaticPreview(page) {
  await page.evaluate(async (files) => {
    const api = window.__tabcode.api
    const encoder = new TextEncoder()
    const { project } = await api.createProject({
      name: 'Preview bench',
      source: { type: 'files', files: files.map(({ path, text }) => ({ path, data: encoder.encode(text) })) },
    })
    await api.openProject(project.id)
  }, smallApp())
  await page.reload()
  await page.waitForFunction(() => !!window.__tabcode, null, { timeout: 30_000 })
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  // Open on a wide screen unless closed last time; its content comes after the first frame: wait for either state.
  const toggle = page.getByRole('button', { name: 'Show workspace' })
  await panel.or(toggle).first().waitFor({ timeout: 30_000 })
  if (await toggle.isVisible()) await toggle.click()
  const frame = page.frameLocator('iframe[title="Static preview of index.html"]')
  const heading = frame.getByRole('heading', { name: new RegExp(`^Ready ${MODULES} `) })

  // A page the agent wrote shows inert until the user runs its scripts (SECURITY.md, "The preview"): the first show
  // is the build, shown inert, then the press of Run and the page's own run. Reloads of the same page keep running.
  const t0 = Date.now()
  await panel.getByRole('tab', { name: 'Preview' }).click()
  await panel.getByRole('button', { name: 'Run the page’s scripts' }).click({ timeout: 30_000 })
  await heading.waitFor({ timeout: 30_000 })
  const staticPreviewFirstMs = Date.now() - t0

  const reloads = []
  for (let run = 0; run < 5; run++) {
    const before = await heading.textContent()
    const t1 = Date.now()
    await panel.getByRole('button', { name: 'Reload preview' }).click()
    await frame.getByRole('heading', { name: new RegExp(`^Ready ${MODULES} `) }).filter({ hasNotText: before }).waitFor({ timeout: 30_000 })
    reloads.push(Date.now() - t1)
  }
  reloads.sort((a, b) => a - b)
  return { staticPreviewFirstMs, staticPreviewReloadMs: reloads[reloads.length >> 1] }
}
