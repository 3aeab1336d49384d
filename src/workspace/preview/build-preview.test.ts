// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"disableJavaScriptFileLoading": true, "disableCSSFileLoading": true, "handleDisabledFileLoadingAsSuccess": true}}
import { describe, expect, it } from 'vitest'
import { buildPreview, inertPolicy, PREVIEW_POLICY, type PreviewScripts } from './build-preview'
import { devServerNeed } from './dev-server'
import { linkedPage, linkTarget } from './references'

const encoder = new TextEncoder()

function project(files: Record<string, string | Uint8Array>) {
  const reads: string[] = []
  const read = async (path: string) => {
    reads.push(path)
    const file = files[path]
    return typeof file === 'string' ? encoder.encode(file) : file
  }
  return { read, reads }
}

/** The text behind a base64 `data:` URL, and its media type. */
function decode(url: string): { type: string; text: string } {
  const match = /^data:([^;,]+)(?:;charset=utf-8)?;base64,([^#]*)/.exec(url)
  if (!match) throw new Error(`not a base64 data: URL: ${url.slice(0, 60)}`)
  const bytes = Uint8Array.from(atob(match[2]!), (char) => char.charCodeAt(0))
  return { type: match[1]!, text: new TextDecoder().decode(bytes) }
}

async function build(files: Record<string, string | Uint8Array>, entry = '/index.html', scripts: PreviewScripts = 'run') {
  const result = await buildPreview({ entry, read: project(files).read })
  const html = result.documents[scripts]
  const document = new DOMParser().parseFromString(html, 'text/html')
  const map = document.querySelector('script[type="importmap"]')
  const imports: Record<string, string> = map ? JSON.parse(map.textContent!).imports : {}
  const module = (path: string) => {
    const url = imports[`tabcode-preview:${path}`]
    if (!url) throw new Error(`no module ${path} in ${Object.keys(imports).join(', ')}`)
    return decode(url).text
  }
  return { ...result, html, document, imports, module }
}

const page = (head: string, body = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`

describe('a static page made into one document', () => {
  it('puts the policy first (after its own base URL), refusing the network, and keeps the doctype', async () => {
    const { document, html } = await build({ '/index.html': page('<title>Hi</title>', '<h1>Hello</h1>') })
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true)
    const [base, first] = [...document.head.children]
    // A srcdoc document resolves against its parent's address otherwise: `#top` would load the app into the frame.
    expect(base!.outerHTML).toBe('<base href="about:srcdoc">')
    expect(first!.getAttribute('http-equiv')).toBe('Content-Security-Policy')
    expect(first!.getAttribute('content')).toBe(PREVIEW_POLICY)
    expect(PREVIEW_POLICY).toMatch(/default-src 'none'/)
    expect(PREVIEW_POLICY).toMatch(/connect-src data: blob:(;|$)/)
    expect(document.body.textContent).toBe('Hello')
  })

  it('inlines style sheets, with their url() and @import of project files, and leaves data: URLs alone', async () => {
    const { document, problems } = await build({
      '/index.html': page('<link rel="stylesheet" href="css/style.css?v=2"><link rel="icon" href="/favicon.svg">', '<img src="img/logo.png" srcset="img/logo.png 1x, img/big.png 2x">'),
      '/css/style.css': `@import "./base.css";\nbody { background: url(../img/bg.png) } .a { background: url("data:image/gif;base64,R0lG") } /* url(nope.png) */`,
      '/css/base.css': `h1 { font-family: x; src: url('fonts/x.woff2') }`,
      '/css/fonts/x.woff2': new Uint8Array([0, 1, 2]),
      '/img/bg.png': new Uint8Array([137, 80, 78, 71]),
      '/img/logo.png': new Uint8Array([1]),
      '/img/big.png': new Uint8Array([2]),
      '/favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    })
    expect(problems).toEqual([])
    const sheet = decode(document.querySelector('link[rel="stylesheet"]')!.getAttribute('href')!)
    expect(sheet.type).toBe('text/css')
    expect(sheet.text).toContain('url("data:image/png;base64,iVBORw==")')
    expect(sheet.text).toContain('url("data:image/gif;base64,R0lG")')
    expect(sheet.text).toContain('/* url(nope.png) */')
    const imported = /@import url\("([^"]+)"\)/.exec(sheet.text)![1]!
    expect(decode(imported).text).toContain('url("data:font/woff2;base64,AAEC")')
    expect(decode(document.querySelector('link[rel="icon"]')!.getAttribute('href')!).type).toBe('image/svg+xml')
    const image = document.querySelector('img')!
    expect(image.getAttribute('src')).toBe('data:image/png;base64,AQ==')
    expect(image.getAttribute('srcset')).toBe('data:image/png;base64,AQ== 1x, data:image/png;base64,Ag== 2x')
  })

  it('rewrites <style> and style="" too, and names what is missing or remote', async () => {
    const { document, problems } = await build({
      '/index.html': page('<style>body { background: url(bg.png) }</style><link rel="stylesheet" href="https://cdn.example/x.css">', '<div style="background: url(\'gone.png\')"></div>'),
      '/bg.png': new Uint8Array([7]),
    })
    expect(document.querySelector('style')!.textContent).toBe('body { background: url("data:image/png;base64,Bw==") }')
    expect(problems.map(({ type, reference }) => [type, reference])).toEqual(
      expect.arrayContaining([
        ['external', 'https://cdn.example/x.css'],
        ['missing', 'gone.png'],
      ]),
    )
    expect(problems).toHaveLength(2)
  })

  it('inlines a classic script as a data: URL, however its text tries to end the element', async () => {
    const payload = `document.title = "</script><img src=x onerror=alert(1)>"; // </SCRIPT >`
    const { document } = await build({ '/index.html': page('<script src="app.js"></script>'), '/app.js': payload })
    const scripts = [...document.querySelectorAll('script[src]')]
    expect(scripts).toHaveLength(1)
    expect(decode(scripts[0]!.getAttribute('src')!)).toEqual({ type: 'text/javascript', text: payload })
    expect(document.querySelector('img')).toBeNull()
  })
})

describe('ES modules in an import map', () => {
  const files = {
    '/index.html': page('<script type="module" src="src/main.js"></script>', '<p id="out"></p>'),
    '/src/main.js': `import { greet } from './util.js'\nimport * as shared from '../lib/shared.js'\nexport * from '/lib/root.js'\nconst later = () => import('./later.js')\nimport data from './data.json' with { type: 'json' }\n`,
    '/src/util.js': `import { name } from '/lib/shared.js'\nexport const greet = () => 'hi ' + name`,
    '/lib/shared.js': `export const name = 'you'`,
    '/lib/root.js': `export const root = 1`,
    '/src/later.js': `export default 2`,
    '/src/data.json': `{"a": 1}`,
  }

  it('maps every module, reached statically or by import(), and rewrites relative, parent and root specifiers', async () => {
    const { document, imports, module, problems } = await build(files)
    expect(problems).toEqual([])
    expect(Object.keys(imports).sort()).toEqual(
      ['/lib/root.js', '/lib/shared.js', '/src/data.json', '/src/later.js', '/src/main.js', '/src/util.js'].map((path) => `tabcode-preview:${path}`),
    )
    const entry = document.querySelector<HTMLScriptElement>('script[type="module"]')!
    expect(entry.hasAttribute('src')).toBe(false)
    expect(entry.textContent).toBe(`import "tabcode-preview:/src/main.js"`)
    const main = module('/src/main.js')
    expect(main).toContain(`from 'tabcode-preview:/src/util.js'`)
    expect(main).toContain(`from 'tabcode-preview:/lib/shared.js'`)
    expect(main).toContain(`from 'tabcode-preview:/lib/root.js'`)
    expect(main).toContain(`import("tabcode-preview:/src/later.js")`)
    expect(main).toContain(`from 'tabcode-preview:/src/data.json' with { type: 'json' }`)
    expect(module('/src/util.js')).toContain(`from 'tabcode-preview:/lib/shared.js'`)
    expect(decode(imports['tabcode-preview:/src/data.json']!).type).toBe('application/json')
    // The import map comes before the page's first module.
    const scripts = [...document.querySelectorAll('script')]
    expect(scripts.findIndex((script) => script.type === 'importmap')).toBeLessThan(scripts.indexOf(entry))
  })

  it('rewrites an inline module, and follows the page’s own import map to project files', async () => {
    const { document, module, problems } = await build({
      '/index.html': page(`<script type="importmap">{"imports": {"lib": "./lib/index.js", "lib/": "./lib/"}}</script><script type="module">import lib from 'lib'; import more from 'lib/more.js'</script>`),
      '/lib/index.js': `export default 1`,
      '/lib/more.js': `export default 2`,
    })
    expect(problems).toEqual([])
    const maps = document.querySelectorAll('script[type="importmap"]')
    expect(maps).toHaveLength(1)
    expect(document.querySelector('script[type="module"]')!.textContent).toBe(`import lib from 'tabcode-preview:/lib/index.js'; import more from 'tabcode-preview:/lib/more.js'`)
    expect(module('/lib/more.js')).toContain('export default 2')
  })

  it('names npm packages, non-JavaScript imports, computed imports and missing modules as problems', async () => {
    const { problems, module } = await build({
      '/index.html': page('<script type="module" src="./main.js"></script>'),
      '/main.js': "import React from 'react'\nimport './style.css'\nimport './gone.js'\nimport(`./pages/${name}.js`)\nimport { x } from './ok.js'",
      '/style.css': 'body {}',
      '/ok.js': 'export const x = 1',
    })
    expect(problems.map(({ type, reference }) => [type, reference])).toEqual(
      expect.arrayContaining([
        ['bare-import', 'react'],
        ['not-a-module', './style.css'],
        ['missing', './gone.js'],
        ['computed-import', '`./pages/${name}.js`'],
      ]),
    )
    expect(problems).toHaveLength(4)
    // What could be carried over still is.
    expect(module('/main.js')).toContain(`from 'tabcode-preview:/ok.js'`)
  })

  it('keeps module keys inside their quotes and element, whatever a file is named', async () => {
    const name = `x'"</script><img src=q onerror=alert(1)>.js`
    const { document, imports, module } = await build({
      '/index.html': page(`<script type="module" src="main.js"></script>`),
      '/main.js': `import ${JSON.stringify('./' + name)}`,
      [`/${name}`]: 'export {}',
    })
    expect(document.querySelectorAll('script')).toHaveLength(3)
    expect(document.querySelector('img')).toBeNull()
    const key = Object.keys(imports).find((key) => key !== 'tabcode-preview:/main.js')
    expect(key).not.toMatch(/[<>'"]/)
    expect(decode(imports[key!]!).text).toContain('export {}')
    expect(module('/main.js')).toBe(`import "${key}"\n//# sourceURL=tabcode-preview:/main.js\n`)
  })

  it('keeps two modules with the same text two modules', async () => {
    const { imports } = await build({
      '/index.html': page(`<script type="module">import './a.js'; import './b.js'</script>`),
      '/a.js': 'export let n = 0',
      '/b.js': 'export let n = 0',
    })
    expect(imports['tabcode-preview:/a.js']).not.toBe(imports['tabcode-preview:/b.js'])
  })
})

describe('the digest a grant to run the page is for', () => {
  const files = {
    '/index.html': page('<script src="classic.js"></script><script type="module" src="main.js"></script>'),
    '/classic.js': 'document.title = 1',
    '/main.js': `import './lazy.js'\nconst later = () => import('./later.js')`,
    '/lazy.js': 'export const a = 1',
    '/later.js': 'export default 1',
  }

  it('is the same for the same files, and changes with the page or any script it runs, however it is loaded', async () => {
    const digest = async (changed: Record<string, string> = {}) => (await buildPreview({ entry: '/index.html', read: project({ ...files, ...changed }).read })).digest
    const first = await digest()
    expect(await digest()).toBe(first)
    const edits: Record<string, string>[] = [
      { '/index.html': files['/index.html'].replace('<head>', '<head><title>x</title>') },
      { '/classic.js': 'location.href = "https://elsewhere.example/"' },
      { '/main.js': files['/main.js'] + '\n' },
      { '/lazy.js': 'export const a = 2' },
      { '/later.js': 'export default 2' },
    ]
    const digests = await Promise.all(edits.map((edit) => digest(edit)))
    expect(new Set([first, ...digests]).size).toBe(edits.length + 1)
  })

  it('does not depend on the order in which the files were read', async () => {
    const paths = Object.keys(files)
    const slowly = (order: string[]) => async (path: string) => {
      await new Promise((resolve) => setTimeout(resolve, order.indexOf(path) * 5))
      return project(files).read(path)
    }
    const [forward, backward] = await Promise.all([paths, [...paths].reverse()].map(async (order) => (await buildPreview({ entry: '/index.html', read: slowly(order) })).digest))
    expect(backward).toBe(forward)
  })
})

describe('when a project needs a dev server', () => {
  it('says so for dev, start or build scripts, or npm imports, and not for a plain package.json', () => {
    expect(devServerNeed(JSON.stringify({ scripts: { build: 'vite build', dev: 'vite' } }))).toEqual({ type: 'script', script: 'dev', command: 'npm run dev' })
    expect(devServerNeed(JSON.stringify({ scripts: { start: 'node server.js' } }))).toMatchObject({ command: 'npm start' })
    expect(devServerNeed(JSON.stringify({ name: 'x', scripts: { test: 'vitest' } }))).toBeUndefined()
    expect(devServerNeed('{not json')).toBeUndefined()
    expect(devServerNeed(undefined, ['react', 'react'])).toEqual({ type: 'packages', names: ['react'] })
  })
})

describe('links between the project’s pages', () => {
  it('lead to HTML pages of the project, a folder to its index.html, and nowhere else', () => {
    expect(linkedPage('/index.html', 'about.html')).toBe('/about.html')
    expect(linkedPage('/docs/guide.html', '../index.html?x=1#top')).toBe('/index.html')
    expect(linkedPage('/docs/guide.html', './')).toBe('/docs/index.html')
    expect(linkedPage('/docs/guide.html', '/')).toBe('/index.html')
    expect(linkedPage('/index.html', 'logo.png')).toBeUndefined()
    expect(linkedPage('/index.html', 'https://example.com/a.html')).toBeUndefined()
    expect(linkedPage('/index.html', 'javascript:alert(1)')).toBeUndefined()
  })
})

describe('a module entry it cannot carry over', () => {
  it('is left out, its problem named, so nothing is asked of the app’s origin', async () => {
    const { document, problems } = await build({
      '/index.html': page('<script type="module" src="/src/main.ts"></script><script type="module" src="gone.js"></script>'),
      '/src/main.ts': 'const x: number = 1',
    })
    expect(document.querySelectorAll('script[src]')).toHaveLength(0)
    expect(problems.map(({ type, reference }) => [type, reference])).toEqual([
      ['not-a-module', '/src/main.ts'],
      ['missing', '/gone.js'],
    ])
  })
})

describe('a page whose scripts have not run (inert)', () => {
  const hostile = page(
    [
      '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/?s=secret">',
      '<meta http-equiv="Content-Security-Policy" content="default-src *">',
      '<base href="http://127.0.0.1:9/">',
      '<link rel="preconnect" href="http://127.0.0.1:9/">',
      '<link rel="dns-prefetch" href="//secret.example/">',
      '<link rel="stylesheet" href="style.css">',
      '<script>location.href = "http://127.0.0.1:9/?s=secret"</script>',
      '<script type="module" src="main.js"></script>',
    ].join(''),
    [
      '<h1 id="top" onclick="leak()">Deploy notes</h1>',
      '<a href="http://127.0.0.1:9/?s=secret" ping="http://127.0.0.1:9/ping">Docs</a>',
      '<a href="htt\tp://127.0.0.1:9/">Tabbed</a>',
      '<a href="javascript:leak()">Run</a>',
      '<a href="about.html">About</a>',
      '<a href="#top">Back to top</a>',
      '<map><area href="//127.0.0.1:9/" alt="Area"></map>',
      '<svg><a href="http://127.0.0.1:9/"><text>Svg</text></a><a><set attributeName="href" to="http://127.0.0.1:9/"/><text>Animated</text></a></svg>',
      '<iframe srcdoc="<script>leak()</script>"></iframe>',
      '<noscript><p title="</noscript><meta http-equiv=refresh content=0;url=http://127.0.0.1:9/>">Enable JavaScript</p></noscript>',
      '<template shadowrootmode="open"><a href="http://127.0.0.1:9/">Shadow</a><script>leak()</script></template>',
    ].join(''),
  )
  const files = { '/index.html': hostile, '/style.css': 'h1 { color: red }', '/main.js': "import 'left-pad'" }

  it('runs nothing of the page and keeps no way to another host, but still shows it', async () => {
    const { document, inert, problems } = await build(files, '/index.html', 'inert')
    const scripts = [...document.querySelectorAll('script')]
    expect(scripts).toHaveLength(1)
    expect(scripts[0]!.textContent).toContain('addEventListener')
    expect([...document.querySelectorAll('meta[http-equiv]')].map((meta) => meta.getAttribute('content'))).toEqual([await inertPolicy()])
    expect([...document.querySelectorAll('base')].map((base) => base.getAttribute('href'))).toEqual(['about:srcdoc'])
    expect(document.querySelectorAll('link')).toHaveLength(1)
    expect(decode(document.querySelector('link')!.getAttribute('href')!).text).toBe('h1 { color: red }')
    expect(document.querySelectorAll('iframe, noscript, set')).toHaveLength(0)
    expect(document.querySelector('[onclick], [ping]')).toBeNull()
    const links = Object.fromEntries([...document.querySelectorAll('a, area')].map((link) => [link.textContent || link.getAttribute('alt'), link.getAttribute('href')]))
    expect(links).toEqual({ Docs: null, Tabbed: null, Run: null, About: 'about.html', 'Back to top': '#top', Area: null, Svg: null, Animated: null })
    expect(document.querySelector('a[title]')!.getAttribute('title')).toBe('Not followed in the preview: http://127.0.0.1:9/?s=secret')
    // A template's content (a declarative shadow root in the frame) is made inert too.
    const shadow = (document.querySelector('template') as HTMLTemplateElement).content
    expect(shadow.querySelector('a')!.getAttribute('href')).toBeNull()
    expect(shadow.querySelector('script')).toBeNull()
    expect(document.body.textContent).toContain('Deploy notes')
    // Two scripts, a handler, a javascript: link and the shadow root’s script did not run; four links and the shadow
    // root’s are not followed.
    expect(inert).toEqual({ scripts: 5, links: 5 })
    // The modules were still read: what they need says whether the project wants a dev server.
    expect(problems.map(({ type, reference }) => [type, reference])).toEqual([['bare-import', 'left-pad']])
  })

  it('allows no script but its own link handling, no frame, no form and no connection', async () => {
    const { document } = await build(files, '/index.html', 'inert')
    const policy = await inertPolicy()
    const own = document.querySelector('script')!.textContent!
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(own)))
    expect(policy).toContain(`script-src 'sha256-${btoa(String.fromCharCode(...digest))}';`)
    expect(policy).not.toMatch(/unsafe-inline'[^;]*;[^;]*script|script-src[^;]*unsafe/)
    expect(policy).toMatch(/default-src 'none'/)
    expect(policy).toMatch(/form-action 'none'/)
    expect(policy).not.toMatch(/connect-src|frame-src|worker-src/)
    // The base comes before the policy, whose base-uri refuses any other.
    expect([...document.head.children].slice(0, 3).map((element) => element.localName)).toEqual(['base', 'meta', 'script'])
  })

  it('is written out so that it parses the same again', async () => {
    const { html } = await build(files, '/index.html', 'inert')
    const again = new DOMParser().parseFromString(html, 'text/html')
    expect(`<!DOCTYPE html>${again.documentElement.outerHTML}`).toBe(html)
  })
})

describe('where a link leads', () => {
  it.each([
    ['#top', 'fragment'],
    ['about.html', 'page'],
    ['../docs/?x=1#y', 'page'],
    ['/index.html', 'page'],
    ['', 'elsewhere'],
    ['http://example.com/', 'elsewhere'],
    ['//example.com/', 'elsewhere'],
    ['/\\example.com/', 'elsewhere'],
    ['\\\\example.com/', 'elsewhere'],
    [' htt\tp://example.com/', 'elsewhere'],
    ['java\nscript:alert(1)', 'elsewhere'],
    ['data:text/html,x', 'elsewhere'],
    ['mailto:a@example.com', 'elsewhere'],
  ])('%j is %s', (href, target) => {
    expect(linkTarget(href)).toBe(target)
  })
})
