// @vitest-environment happy-dom
// Views with a frame are mounted detached: out of the document a frame never loads.
import { createSignal } from 'solid-js'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { createWorkspaceChanges } from './create-workspace-changes'
import { PreviewPane, type PreviewServer } from './preview-pane'
import { makeFakeWorkspace, mount, PROJECT, ROOT } from './testing/workspace-harness'

const PAGE = `<!doctype html><html><head><script type="module" src="main.js"></script></head><body><h1>Hello</h1></body></html>`

/** The pane over a fake project's files, with the static preview (and servers, when given). */
function mountProject(files: Record<string, string>, options: { servers?: PreviewServer[]; onStart?: () => void; detached?: boolean } = {}) {
  const workspace = makeFakeWorkspace(Object.fromEntries(Object.entries(files).map(([path, text]) => [`${ROOT}${path}`, text])))
  const container = mount(() => {
    const changes = createWorkspaceChanges(workspace.listen, () => PROJECT)
    return (
      <PreviewPane
        servers={options.servers ?? []}
        project={{ api: workspace.api, projectID: PROJECT, root: ROOT, changes }}
        info={{ projectID: PROJECT, backend: 'local', root: ROOT }}
        onStartWebContainer={options.onStart}
      />
    )
  }, { detached: options.detached ?? true })
  const frame = () => container.querySelector('iframe')
  const reads = (path: string) => workspace.api.readPreviewFile.mock.calls.filter(([input]) => input.path === `${ROOT}${path}`).length
  return { container, workspace, frame, reads }
}

describe('the preview pane', () => {
  it('says there is nothing to preview until a server is up', () => {
    const container = mount(() => <PreviewPane servers={[]} />)
    expect(container.textContent).toContain('Nothing to preview yet.')
    expect(container.querySelector('iframe')).toBeNull()
  })

  it('shows the newest server, and another one picked by port', () => {
    const [servers] = createSignal<PreviewServer[]>([
      { port: 3000, url: 'http://localhost:3000/' },
      { port: 5173, url: 'http://localhost:5173/' },
    ])
    const container = mount(() => <PreviewPane servers={servers()} />, { detached: true })
    const frame = () => container.querySelector('iframe')!
    expect(frame().getAttribute('src')).toBe('http://localhost:5173/')
    const picker = container.querySelector('select')!
    expect(picker.closest('label')!.textContent).toContain('Port')
    picker.value = '3000'
    picker.dispatchEvent(new Event('change', { bubbles: true }))
    expect(frame().getAttribute('src')).toBe('http://localhost:3000/')
    const link = container.querySelector('a')!
    expect(link.getAttribute('href')).toBe('http://localhost:3000/')
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
  })

  it('never frames or links anything but a web page', () => {
    const container = mount(() => <PreviewPane servers={[{ port: 1, url: 'javascript:alert(1)' }]} />, { detached: true })
    expect(container.querySelector('iframe')).toBeNull()
    expect(container.querySelector('a')).toBeNull()
  })
})

describe('the static preview', () => {
  it('shows the project’s index.html in a frame that shares nothing with the app, and rebuilds it once after a burst of edits', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    onTestFinished(() => void vi.useRealTimers())
    const { frame, workspace, reads, container } = mountProject({ '/index.html': PAGE, '/main.js': `import './util.js'`, '/util.js': `export const n = 1` })
    await vi.waitFor(() => expect(frame()).not.toBeNull())
    // The page's scripts do not run until the user says so: only the preview's own link handling does.
    expect(frame()!.getAttribute('sandbox')).toBe('allow-scripts')
    expect(frame()!.getAttribute('srcdoc')).not.toContain('tabcode-preview:/main.js')
    expect(container.textContent).toContain('The page’s scripts have not run.')
    expect(frame()!.getAttribute('title')).toBe('Static preview of index.html')
    expect(frame()!.getAttribute('srcdoc')).toContain('<h1>Hello</h1>')
    expect(container.textContent).not.toContain('Nothing to preview yet.')
    expect(reads('/index.html')).toBe(1)

    for (const text of ['Hi', 'Hey', 'Bye']) workspace.change({ type: 'write', path: `${ROOT}/index.html` }, PAGE.replace('Hello', text))
    await vi.advanceTimersByTimeAsync(150)
    expect(reads('/index.html')).toBe(1)
    await vi.advanceTimersByTimeAsync(100)
    await vi.waitFor(() => expect(frame()!.getAttribute('srcdoc')).toContain('<h1>Bye</h1>'))
    expect(reads('/index.html')).toBe(2)
    // Files the page does not read, and other projects' edits, start nothing.
    workspace.change({ type: 'write', path: `${ROOT}/node_modules/x/index.js` }, '')
    workspace.change({ type: 'write', path: `${ROOT}/README.md` }, 'notes')
    workspace.change({ type: 'write', path: `${ROOT}/index.html` }, PAGE, 'prj_other')
    await vi.advanceTimersByTimeAsync(1000)
    expect(reads('/index.html')).toBe(2)
    // A module it imports does (its scripts are read even while they do not run: what they import says whether
    // a dev server is wanted), and so does a file it looked for in vain once it appears.
    workspace.change({ type: 'write', path: `${ROOT}/util.js` }, 'export const n = 2')
    await vi.advanceTimersByTimeAsync(250)
    await vi.waitFor(() => expect(reads('/index.html')).toBe(3))
    workspace.change({ type: 'write', path: `${ROOT}/index.html` }, PAGE.replace('main.js', 'app.js'))
    await vi.advanceTimersByTimeAsync(250)
    await vi.waitFor(() => expect(container.querySelector('details')?.textContent).toContain('app.js is not in the project'))
    workspace.change({ type: 'write', path: `${ROOT}/app.js` }, 'export {}')
    await vi.advanceTimersByTimeAsync(250)
    await vi.waitFor(() => expect(container.querySelector('details')).toBeNull())
    expect(reads('/index.html')).toBe(5)
  })

  it('runs the page’s scripts once the user says so, for that version of the page, and stops them again', async () => {
    // In the document (clicks are delegated there).
    const { container, frame, reads, workspace } = mountProject({ '/index.html': PAGE, '/main.js': 'export {}' }, { detached: false })
    await vi.waitFor(() => expect(frame()).not.toBeNull())
    const button = (name: string) => [...container.querySelectorAll('button')].find((button) => button.textContent === name)
    const run = button('Run the page’s scripts')!
    // Its description says what running it means.
    expect(container.querySelector(`#${run.getAttribute('aria-describedby')}`)!.textContent).toContain('can send what it was told to another host')
    run.click()
    await vi.waitFor(() => expect(frame()!.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-modals'))
    expect(frame()!.getAttribute('srcdoc')).toContain('tabcode-preview:/main.js')
    expect(container.textContent).not.toContain('The page’s scripts have not run.')
    // A reload of the same page keeps it running; an edit to a script it runs is a page the user has not run.
    button('Reload preview')!.click()
    await vi.waitFor(() => expect(reads('/main.js')).toBe(2))
    await vi.waitFor(() => expect(frame()!.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-modals'))
    workspace.change({ type: 'write', path: `${ROOT}/main.js` }, 'location.href = "https://elsewhere.example/"')
    await vi.waitFor(() => expect(frame()!.getAttribute('sandbox')).toBe('allow-scripts'))
    expect(frame()!.getAttribute('srcdoc')).not.toContain('tabcode-preview:/main.js')
    expect(container.textContent).toContain('The page changed since you ran it')
    button('Run the page’s scripts')!.click()
    await vi.waitFor(() => expect(frame()!.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-modals'))
    button('Stop the page’s scripts')!.click()
    await vi.waitFor(() => expect(frame()!.getAttribute('sandbox')).toBe('allow-scripts'))
    expect(frame()!.getAttribute('srcdoc')).not.toContain('tabcode-preview:/main.js')
    expect(button('Run the page’s scripts')).toBeDefined()
  })

  it('keeps a page that tries to end the srcdoc attribute or the frame inside the frame', async () => {
    const payload = `<!doctype html><p title='" onload="parent.pwned = 1'>"></iframe><img src=x onerror="parent.pwned = 1"><script>/* </iframe> */</script></p>`
    const { container, frame } = mountProject({ '/index.html': payload })
    await vi.waitFor(() => expect(frame()).not.toBeNull())
    expect(container.querySelectorAll('iframe')).toHaveLength(1)
    expect(container.querySelector('img')).toBeNull()
    expect(frame()!.getAttributeNames().sort()).toEqual(['class', 'referrerpolicy', 'sandbox', 'srcdoc', 'title'])
    const inside = new DOMParser().parseFromString(frame()!.getAttribute('srcdoc')!, 'text/html')
    expect(inside.querySelector('p')!.getAttribute('title')).toBe('" onload="parent.pwned = 1')
    // Inert, so its handler is gone too (see inert-page.ts), but the image is still there.
    expect(inside.querySelector('img')!.hasAttribute('onerror')).toBe(false)
  })

  it('lists what it could not load', async () => {
    const { container, frame } = mountProject({ '/index.html': PAGE, '/main.js': `import React from 'react'` })
    await vi.waitFor(() => expect(frame()).not.toBeNull())
    const problems = container.querySelector('details')!
    expect(problems.querySelector('summary')!.textContent).toBe('1 thing the static preview could not load')
    expect(problems.textContent).toContain('main.js: react is an npm package')
  })

  it('says a project with a dev script needs a dev server, with a way to start WebContainer', async () => {
    const onStart = vi.fn()
    // In the document (clicks are delegated there); with no index.html there is no frame to load.
    const { container } = mountProject({ '/package.json': JSON.stringify({ scripts: { dev: 'vite' } }) }, { onStart, detached: false })
    await vi.waitFor(() => expect(container.querySelector('[role="note"]')).not.toBeNull())
    const note = container.querySelector('[role="note"]')!
    expect(note.textContent).toContain('This project needs a dev server (npm run dev): start WebContainer.')
    const start = [...note.querySelectorAll('button')].find((button) => button.textContent === 'Start WebContainer')!
    start.click()
    expect(onStart).toHaveBeenCalledOnce()
  })

  it('says npm imports need a dev server even without a package.json, and says when there is no index.html', async () => {
    const imports = mountProject({ '/index.html': PAGE, '/main.js': `import { h } from 'preact'` })
    await vi.waitFor(() => expect(imports.container.querySelector('[role="note"]')?.textContent).toContain('It imports npm packages (preact). This project needs a dev server (npm run dev)'))
    const empty = mountProject({ '/README.md': 'hi' })
    await vi.waitFor(() => expect(empty.container.textContent).toContain('No index.html at the project’s root'))
    expect(empty.frame()).toBeNull()
  })

  it('is a choice beside the servers WebContainer runs', async () => {
    const { container, frame } = mountProject({ '/index.html': PAGE }, { servers: [{ port: 5173, url: 'http://localhost:5173/' }] })
    expect(frame()!.getAttribute('src')).toBe('http://localhost:5173/')
    const picker = container.querySelector('select')!
    expect([...picker.options].map((option) => option.textContent)).toEqual(['Static preview of index.html', 'Port 5173'])
    picker.value = 'static'
    picker.dispatchEvent(new Event('change', { bubbles: true }))
    await vi.waitFor(() => expect(frame()?.getAttribute('srcdoc')).toContain('<h1>Hello</h1>'))
    expect(container.querySelector('select')!.value).toBe('static')
  })
})
