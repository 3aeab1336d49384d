// @vitest-environment happy-dom
// @vitest-environment-options { "settings": { "navigation": { "disableMainFrameNavigation": true, "disableChildFrameNavigation": true, "disableChildPageNavigation": true, "disableFallbackToSetURL": true } } }
// Navigation is off so a click that reaches a link can never make happy-dom fetch the page.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import { CHUNK_BLOCKS, Markdown, SECTION_CHUNKS } from './markdown'
import { sameItems } from '../same-items'

// Counted, to pin how many chunks a streamed delta looks at; it still compares as before.
vi.mock('../same-items', async (actual) => {
  const real = await actual<typeof import('../same-items')>()
  return { sameItems: vi.fn(real.sameItems) }
})

const cleanups: Array<() => void> = []

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function mount(text: () => string): HTMLElement {
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(() => <Markdown text={text()} />, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  return container
}

function renderMarkdown(text: string): HTMLElement {
  return mount(() => text)
}

function elements(container: HTMLElement): Element[] {
  return Array.from(container.querySelectorAll('*'))
}

/** What must hold for any input, however hostile. */
function expectInert(container: HTMLElement) {
  expect(container.querySelector('script, style, iframe, object, embed, svg, math, form, base, meta, link')).toBeNull()
  for (const element of elements(container)) {
    const names = element.getAttributeNames()
    expect(names.filter((name) => name.toLowerCase().startsWith('on')), element.outerHTML).toEqual([])
    expect(names).not.toContain('style')
    expect(names).not.toContain('srcdoc')
  }
  for (const anchor of Array.from(container.querySelectorAll('a'))) {
    const href = (anchor.getAttribute('href') ?? '').replace(/[\u0000-\u0020]/g, '').toLowerCase()
    expect(href).toMatch(/^(https?:|mailto:|#|\/|\.|[^:]*$)/)
    expect(href.startsWith('javascript')).toBe(false)
  }
  for (const image of Array.from(container.querySelectorAll('img'))) {
    expect(image.getAttribute('src') ?? '').toMatch(/^data:image\/(png|jpeg|gif|webp)[;,]/i)
  }
}

function loadButtons(container: HTMLElement): HTMLButtonElement[] {
  return Array.from(container.querySelectorAll('button')).filter((button) => button.textContent?.startsWith('Load image: '))
}

describe('hostile input', () => {
  test.each([
    ['raw img tag', '<img src=x onerror=alert(1)>'],
    ['inline img tag', 'before <img src=x onerror=alert(1)> after'],
    ['script block', '<script>alert(1)</script>'],
    ['inline script', 'text <script>alert(1)</script> text'],
    ['svg block', '<svg onload=alert(1)>'],
    ['inline svg', 'hi <svg onload=alert(1)> there'],
    ['iframe', '<iframe src="javascript:alert(1)"></iframe>'],
    ['style', '<style>*{display:none}</style>'],
    ['javascript link', '[x](javascript:alert(1))'],
    ['mixed case javascript link', '[x](JaVaScRiPt:alert(1))'],
    ['javascript link with leading space', '[x]( javascript:alert(1))'],
    ['javascript link in angle brackets', '[x](<javascript:alert(1)>)'],
    ['javascript link with a decimal reference', '[x](java&#115;cript:alert(1))'],
    ['javascript link with a named reference', '[x](javascript&colon;alert(1))'],
    ['javascript link with an encoded tab', '[x](jav&#x09;ascript:alert(1))'],
    ['javascript autolink', '<javascript:alert(1)>'],
    ['vbscript link', '[x](vbscript:msgbox(1))'],
    ['data html link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['reference javascript link', '[x][r]\n\n[r]: javascript:alert(1)'],
    ['collapsed reference javascript link', '[r][]\n\n[r]: javascript:alert(1)'],
    ['svg data image', '![s](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
    ['javascript image', '![s](javascript:alert(1))'],
    ['external image', '![a](https://evil.example/p.png)'],
    ['external image in a link', '[![a](https://evil.example/p.png)](https://example.com)'],
    ['reference image', '![a][i]\n\n[i]: https://evil.example/p.png'],
    ['html in a table', '| a |\n|---|\n| <img src=x onerror=alert(1)> |'],
    ['html in a list', '- <a href="javascript:alert(1)">x</a>'],
    ['html attribute in a code block', '```html" onmouseover="alert(1)\n<b>x</b>\n```'],
    ['link title', '[x](https://example.com "\\" onmouseover=\\"alert(1)")'],
  ])('%s renders nothing active', (_name, text) => {
    const container = renderMarkdown(text)
    expectInert(container)
  })

  test('the inertness check itself catches handlers, scripts and script links', () => {
    const withHandler = document.createElement('div')
    withHandler.append(document.createElement('img'))
    withHandler.querySelector('img')?.setAttribute('onerror', 'alert(1)')
    expect(() => expectInert(withHandler)).toThrow()

    const withScript = document.createElement('div')
    withScript.append(document.createElement('script'))
    expect(() => expectInert(withScript)).toThrow()

    const withLink = document.createElement('div')
    const anchor = document.createElement('a')
    anchor.setAttribute('href', ' JavaScript:alert(1)')
    withLink.append(anchor)
    expect(() => expectInert(withLink)).toThrow()

    const withRemoteImage = document.createElement('div')
    const image = document.createElement('img')
    image.setAttribute('src', 'https://evil.example/p.png')
    withRemoteImage.append(image)
    expect(() => expectInert(withRemoteImage)).toThrow()
  })

  test('raw HTML shows as its source text', () => {
    const container = renderMarkdown('<img src=x onerror=alert(1)>\n\nhi <svg onload=alert(1)> <script>alert(1)</script>')
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>')
    expect(container.textContent).toContain('<svg onload=alert(1)>')
    expect(container.textContent).toContain('<script>alert(1)</script>')
  })

  test.each([
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x]( javascript:alert(1))',
    '[x][r]\n\n[r]: javascript:alert(1)',
  ])('refused link %j keeps its label as plain text', (text) => {
    const container = renderMarkdown(text)
    expect(container.querySelector('a')).toBeNull()
    expect(container.querySelector('.md-link-blocked')?.textContent).toBe('x')
  })

  test('svg data image shows only its alt text', () => {
    const container = renderMarkdown('![s](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)')
    expect(container.querySelector('img')).toBeNull()
    expect(loadButtons(container)).toEqual([])
    expect(container.querySelector('.md-image-blocked')?.textContent).toBe('s')
  })
})

describe('images', () => {
  test('an external image loads only after its button is clicked', () => {
    const container = renderMarkdown('![a](https://evil.example/p.png "A title")')
    expect(container.querySelector('img')).toBeNull()
    const [button] = loadButtons(container)
    expect(button?.textContent).toBe('Load image: a')
    expect(button?.getAttribute('type')).toBe('button')
    expect(container.querySelector('.md-image-host')?.textContent).toBe('evil.example')

    button?.click()

    const image = container.querySelector('img')
    expect(image?.getAttribute('src')).toBe('https://evil.example/p.png')
    expect(image?.getAttribute('alt')).toBe('a')
    expect(image?.getAttribute('title')).toBe('A title')
    expect(image?.getAttribute('referrerpolicy')).toBe('no-referrer')
    expect(loadButtons(container)).toEqual([])
  })

  test('the button names the host when there is no alt text', () => {
    const container = renderMarkdown('![](https://cdn.example/p.png)')
    expect(loadButtons(container)[0]?.textContent).toBe('Load image: cdn.example')
  })

  test('alt text is the plain text of the label', () => {
    const container = renderMarkdown('![a &amp; *b*](https://cdn.example/p.png)')
    expect(loadButtons(container)[0]?.textContent).toBe('Load image: a & b')
  })

  test('clicking an image placeholder inside a link does not follow the link', () => {
    const container = renderMarkdown('[![a](https://evil.example/p.png)](https://example.com)')
    expect(container.querySelector('a .md-image-placeholder')).not.toBeNull()
    let cancelledBeforeLink = false
    container.querySelector('a')?.addEventListener('click', (event) => {
      cancelledBeforeLink = event.defaultPrevented
    })
    loadButtons(container)[0]?.click()
    expect(cancelledBeforeLink).toBe(true)
    expect(container.querySelector('a img')?.getAttribute('src')).toBe('https://evil.example/p.png')
  })

  test('a raster data image renders directly', () => {
    const container = renderMarkdown('![dot](data:image/png;base64,iVBORw0KGgo=)')
    const image = container.querySelector('img')
    expect(image?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(image?.getAttribute('alt')).toBe('dot')
    expect(loadButtons(container)).toEqual([])
  })
})

describe('links', () => {
  test('an external link opens in a new tab without referrer or opener', () => {
    const container = renderMarkdown('[site](https://example.com/a?b=1&amp;c=2 "Example &amp; co")')
    const anchor = container.querySelector('a')
    expect(anchor?.getAttribute('href')).toBe('https://example.com/a?b=1&c=2')
    expect(anchor?.getAttribute('rel')).toBe('noopener noreferrer nofollow')
    expect(anchor?.getAttribute('target')).toBe('_blank')
    expect(anchor?.getAttribute('title')).toBe('Example & co')
    expect(anchor?.textContent).toBe('site')
  })

  test.each([
    ['[top](#top)', '#top'],
    ['[doc](./docs/readme.md)', './docs/readme.md'],
    ['[mail](mailto:a@example.com)', 'mailto:a@example.com'],
  ])('%s stays in the tab', (text, href) => {
    const anchor = renderMarkdown(text).querySelector('a')
    expect(anchor?.getAttribute('href')).toBe(href)
    expect(anchor?.hasAttribute('target')).toBe(false)
  })

  test('a reference link resolves through its definition', () => {
    const anchor = renderMarkdown('See [the docs][d].\n\n[d]: https://example.com/docs').querySelector('a')
    expect(anchor?.getAttribute('href')).toBe('https://example.com/docs')
    expect(anchor?.textContent).toBe('the docs')
  })

  test('autolinks keep their text literally', () => {
    const container = renderMarkdown('<https://example.com/?a&amp;b> and www.example.com')
    const anchors = Array.from(container.querySelectorAll('a'))
    expect(anchors.map((anchor) => anchor.getAttribute('href'))).toEqual(['https://example.com/?a&amp;b', 'http://www.example.com'])
    expect(anchors.map((anchor) => anchor.textContent)).toEqual(['https://example.com/?a&amp;b', 'www.example.com'])
  })

  test('link labels keep their formatting', () => {
    const anchor = renderMarkdown('[**bold** `code`](https://example.com)').querySelector('a')
    expect(anchor?.querySelector('strong')?.textContent).toBe('bold')
    expect(anchor?.querySelector('code')?.textContent).toBe('code')
  })
})

describe('markdown features', () => {
  test('headings use their level', () => {
    const container = renderMarkdown('# One\n\n## Two\n\n###### Six\n\nSetext\n---\n')
    expect(Array.from(container.querySelectorAll('h1, h2, h6')).map((heading) => [heading.tagName, heading.textContent])).toEqual([
      ['H1', 'One'],
      ['H2', 'Two'],
      ['H6', 'Six'],
      ['H2', 'Setext'],
    ])
  })

  test('paragraphs, emphasis, strikethrough, inline code and line breaks', () => {
    const container = renderMarkdown('A *b* **c** ~~d~~ `e <f>` &copy; \\*\nline  \nbreak\n\nSecond.')
    const paragraphs = container.querySelectorAll('p')
    expect(paragraphs).toHaveLength(2)
    expect(container.querySelector('em')?.textContent).toBe('b')
    expect(container.querySelector('strong')?.textContent).toBe('c')
    expect(container.querySelector('del')?.textContent).toBe('d')
    expect(container.querySelector('code.md-inline-code')?.textContent).toBe('e <f>')
    expect(container.querySelectorAll('br')).toHaveLength(1)
    expect(paragraphs[0]?.textContent).toContain('\u00a9 *\nline')
  })

  test('a fenced code block shows its language and keeps its text', () => {
    const container = renderMarkdown('```ts title="x.ts"\nconst a = <T>(b: T) => b && "&amp;"\n```')
    const pre = container.querySelector('pre')
    expect(pre?.getAttribute('data-language')).toBe('ts')
    expect(pre?.querySelector('code')?.textContent).toBe('const a = <T>(b: T) => b && "&amp;"')
    expect(container.querySelector('.md-code-language')?.textContent).toBe('ts')
  })

  test('a code block without a language has no label', () => {
    const container = renderMarkdown('    indented\n    code\n')
    expect(container.querySelector('pre')?.hasAttribute('data-language')).toBe(false)
    expect(container.querySelector('pre code')?.textContent).toBe('indented\ncode\n')
    expect(container.querySelector('.md-code-language')).toBeNull()
  })

  test('block quotes hold blocks', () => {
    const container = renderMarkdown('> quoted *text*\n>\n> - item')
    const quote = container.querySelector('blockquote')
    expect(quote?.querySelector('p em')?.textContent).toBe('text')
    expect(quote?.querySelector('ul li')?.textContent).toBe('item')
  })

  test('ordered, unordered, nested and task lists', () => {
    const container = renderMarkdown('3. three\n4. four\n\n- a\n  - nested\n- [x] done\n- [ ] todo\n')
    const ordered = container.querySelector('ol')
    expect(ordered?.getAttribute('start')).toBe('3')
    expect(Array.from(ordered?.children ?? []).map((item) => item.textContent)).toEqual(['three', 'four'])
    expect(container.querySelector('ul ul li')?.textContent).toBe('nested')
    const boxes = Array.from(container.querySelectorAll<HTMLInputElement>('li.md-task input[type="checkbox"]'))
    expect(boxes.map((box) => [box.checked, box.disabled, box.getAttribute('aria-label')])).toEqual([
      [true, true, 'Done'],
      [false, true, 'To do'],
    ])
  })

  test('a list starting at one has no start attribute', () => {
    expect(renderMarkdown('1. a\n2. b').querySelector('ol')?.hasAttribute('start')).toBe(false)
  })

  test('loose lists wrap items in paragraphs', () => {
    const container = renderMarkdown('- [ ] a\n\n- b\n')
    expect(container.querySelectorAll('li > p')).toHaveLength(2)
    expect(container.querySelector('li p input[type="checkbox"]')).not.toBeNull()
  })

  test('tables have a head, a body and alignment', () => {
    const container = renderMarkdown('| a | b | c |\n|---|:-:|--:|\n| 1 | **2** | 3 |\n| 4 | 5 | 6 |\n')
    const table = container.querySelector('table')
    expect(table).not.toBeNull()
    expect(Array.from(table?.querySelectorAll('thead th') ?? []).map((cell) => cell.textContent)).toEqual(['a', 'b', 'c'])
    expect(table?.querySelectorAll('tbody tr')).toHaveLength(2)
    expect(table?.querySelector('tbody td strong')?.textContent).toBe('2')
    expect(table?.querySelector('thead th:nth-child(2)')?.classList.contains('md-align-center')).toBe(true)
    expect(table?.querySelector('thead th:nth-child(3)')?.classList.contains('md-align-right')).toBe(true)
  })

  test('a horizontal rule', () => {
    expect(renderMarkdown('a\n\n---\n\nb').querySelector('hr')).not.toBeNull()
  })

  test('reference definitions render nothing', () => {
    const container = renderMarkdown('[r]: https://example.com')
    expect(container.textContent).toBe('')
  })

  test('the root carries the md class', () => {
    expect(renderMarkdown('x').firstElementChild?.classList.contains('md')).toBe(true)
  })
})

describe('streaming', () => {
  test('finished blocks keep their DOM while text is appended', () => {
    const [text, setText] = createSignal('# Title\n\nFirst paragraph.\n\nSec')
    const container = mount(text)
    const heading = container.querySelector('h1')
    const first = container.querySelector('p')
    expect(first?.textContent).toBe('First paragraph.')

    setText('# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\n```js\nlet a')
    setText('# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\n```js\nlet a = 1\n```\n')

    expect(container.querySelector('h1')).toBe(heading)
    expect(container.querySelector('p')).toBe(first)
    expect(Array.from(container.querySelectorAll('p')).map((paragraph) => paragraph.textContent)).toEqual(['First paragraph.', 'Second paragraph.'])
    expect(container.querySelector('pre code')?.textContent).toBe('let a = 1')
  })

  test('a long reply is split into chunks of blocks, and streaming into it leaves the earlier chunks untouched', () => {
    const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index + 1}.`).join('\n\n')
    const [text, setText] = createSignal(paragraphs(CHUNK_BLOCKS * 2 + 3))
    const container = mount(text)
    const chunks = () => Array.from(container.querySelectorAll('.md .md-chunk'))
    // Blocks count the blank lines between paragraphs too, so a chunk holds half as many paragraphs.
    const sizes = chunks().map((chunk) => chunk.querySelectorAll('p').length)
    expect(sizes.length).toBeGreaterThan(2)
    expect(new Set(sizes.slice(0, -1))).toEqual(new Set([CHUNK_BLOCKS / 2]))
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(CHUNK_BLOCKS * 2 + 3)
    const [first, second] = chunks()
    const firstParagraph = first!.querySelector('p')
    const before = chunks().length
    setText(`${paragraphs(CHUNK_BLOCKS * 3 + 1)} and more`)
    expect(chunks().length).toBeGreaterThan(before)
    expect(chunks()[0]).toBe(first)
    expect(chunks()[1]).toBe(second)
    expect(first!.querySelector('p')).toBe(firstParagraph)
    expect(chunks().at(-1)!.textContent).toBe(`Paragraph ${CHUNK_BLOCKS * 3 + 1}. and more`)
    // The outer margins are trimmed by class (a structural pseudo-class there would restyle the whole reply).
    expect(chunks().map((chunk) => [chunk.classList.contains('md-chunk-first'), chunk.classList.contains('md-chunk-last')])).toEqual(
      chunks().map((_, index, all) => [index === 0, index === all.length - 1]),
    )
    // Reading order is unchanged: every paragraph once, in order.
    expect(Array.from(container.querySelectorAll('p')).map((paragraph) => paragraph.textContent).slice(0, 3)).toEqual(['Paragraph 1.', 'Paragraph 2.', 'Paragraph 3.'])
  })

  test('a delta into a long reply looks at the chunk it grew in, not at every finished one', () => {
    const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index + 1}.`).join('\n\n')
    const long = paragraphs(CHUNK_BLOCKS * 20)
    const [text, setText] = createSignal(long)
    const container = mount(text)
    const chunks = () => container.querySelectorAll('.md .md-chunk').length
    expect(chunks()).toBeGreaterThanOrEqual(20)
    // The first delta settles the finished chunks (see the next test); the ones after it leave them alone.
    setText(`${long} and`)
    const compared = vi.mocked(sameItems)
    compared.mockClear()
    setText(`${long} and more`)
    expect(compared.mock.calls.length).toBeLessThanOrEqual(2)
    expect(container.querySelector('.md-chunk-last')?.textContent?.endsWith(`Paragraph ${CHUNK_BLOCKS * 20}. and more`)).toBe(true)
  })

  test('finished chunks are marked settled (skipped off screen) once the browser has had a frame to render them', () => {
    const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index + 1}.`).join('\n\n')
    const [text, setText] = createSignal(paragraphs(CHUNK_BLOCKS * 2))
    const container = mount(text)
    const settled = () => Array.from(container.querySelectorAll('.md .md-chunk')).map((chunk) => chunk.classList.contains('md-chunk-settled'))
    const firstOf = (count: number, length: number) => Array.from({ length }, (_, index) => index < count)
    // Just mounted: nothing has been rendered yet, so nothing may be skipped (its size would be a guess).
    const mounted = settled().length
    expect(mounted).toBeGreaterThan(2)
    expect(settled()).toEqual(firstOf(0, mounted))
    setText(`${paragraphs(CHUNK_BLOCKS * 2)} more`)
    expect(settled()).toEqual(firstOf(mounted - 1, mounted))
    // The chunks new in an update wait for the next one; the one that was last before is finished now.
    setText(paragraphs(CHUNK_BLOCKS * 4))
    const grown = settled().length
    expect(grown).toBeGreaterThan(mounted)
    expect(settled()).toEqual(firstOf(mounted - 1, grown))
    setText(`${paragraphs(CHUNK_BLOCKS * 4)} more`)
    expect(settled()).toEqual(firstOf(grown - 1, grown))
  })

  test('a section of settled chunks is skipped as a whole, and only once every chunk in it has settled', () => {
    const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index + 1}.`).join('\n\n')
    // Blocks count the blank lines too: two paragraphs a block pair, so a section holds CHUNK_BLOCKS * SECTION_CHUNKS / 2.
    const perSection = (CHUNK_BLOCKS * SECTION_CHUNKS) / 2
    const [text, setText] = createSignal(paragraphs(perSection * 2 + 3))
    const container = mount(text)
    const sections = () => Array.from(container.querySelectorAll('.md > .md-section'))
    const settled = () => sections().map((section) => section.classList.contains('md-section-settled'))
    expect(sections().length).toBe(3)
    expect(sections()[0]!.querySelectorAll(':scope > .md-chunk').length).toBe(SECTION_CHUNKS)
    // Just mounted: nothing rendered yet, nothing skipped.
    expect(settled()).toEqual([false, false, false])
    setText(`${paragraphs(perSection * 2 + 3)} more`)
    expect(settled()).toEqual([true, true, false])
    // Reading order is kept across sections.
    const texts = Array.from(container.querySelectorAll('p')).map((paragraph) => paragraph.textContent)
    expect(texts.slice(perSection - 1, perSection + 1)).toEqual([`Paragraph ${perSection}.`, `Paragraph ${perSection + 1}.`])
    expect(texts.at(-1)).toBe(`Paragraph ${perSection * 2 + 3}. more`)
    // A section the text shrinks back into is live again.
    setText(paragraphs(perSection + 1))
    setText(`${paragraphs(perSection + 1)} more`)
    expect(settled()).toEqual([true, false])
    setText(paragraphs(perSection - 1))
    expect(settled()).toEqual([false])
  })

  test('a text that shrinks drops the chunks past its end', () => {
    const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index + 1}.`).join('\n\n')
    const [text, setText] = createSignal(paragraphs(CHUNK_BLOCKS * 3))
    const container = mount(text)
    setText(paragraphs(CHUNK_BLOCKS / 2 + 1))
    const chunks = Array.from(container.querySelectorAll('.md .md-chunk'))
    expect(chunks.length).toBe(2)
    expect(chunks[1]!.classList.contains('md-chunk-last')).toBe(true)
    expect(container.querySelectorAll('p').length).toBe(CHUNK_BLOCKS / 2 + 1)
    setText(paragraphs(CHUNK_BLOCKS * 2))
    expect(container.querySelectorAll('p').length).toBe(CHUNK_BLOCKS * 2)
  })

  test('a loaded image stays loaded while text streams in after it', () => {
    const [text, setText] = createSignal('![a](https://evil.example/p.png)\n\nMore')
    const container = mount(text)
    loadButtons(container)[0]?.click()
    setText('![a](https://evil.example/p.png)\n\nMore text')
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://evil.example/p.png')
  })

  test('a reference defined later turns earlier text into a link', () => {
    const [text, setText] = createSignal('See [docs][d].\n\n')
    const container = mount(text)
    expect(container.querySelector('a')).toBeNull()
    setText('See [docs][d].\n\n[d]: https://example.com/docs\n')
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com/docs')
  })
})

describe('code blocks', () => {
  const tokenSpans = (container: HTMLElement) => container.querySelectorAll('pre code span[class^="tok-"]')

  test('a finished block is highlighted once the page is idle, its text unchanged', async () => {
    const code = 'const answer: number = 42 // yes'
    const container = renderMarkdown('```ts\n' + code + '\n```\n')
    await vi.waitFor(() => expect(tokenSpans(container).length).toBeGreaterThan(2))
    expect(container.querySelector('pre code')?.textContent).toBe(code)
    expect(container.querySelector('.tok-keyword')?.textContent).toBe('const')
  })

  test('a block still streaming stays plain until its fence closes', async () => {
    // A finished block before it proves the idle highlight has run: the open one must still be plain then.
    const [text, setText] = createSignal('```ts\nconst b = 2\n```\n\nHere:\n\n```ts\nconst a = 1\n')
    const container = mount(text)
    const blocks = () => [...container.querySelectorAll('pre code')]
    const tokensIn = (block: Element | undefined) => block?.querySelectorAll('span[class^="tok-"]').length ?? 0
    await vi.waitFor(() => expect(tokensIn(blocks()[0])).toBeGreaterThan(0))
    expect(blocks()).toHaveLength(2)
    expect(tokensIn(blocks()[1])).toBe(0)
    setText(text() + '```\n')
    await vi.waitFor(() => expect(tokensIn(blocks()[1])).toBeGreaterThan(0))
  })

  test('"Copy code" puts exactly the code on the clipboard and says "Copied"', async () => {
    const writes: string[] = []
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void writes.push(text) } })
    const container = renderMarkdown('```py\nprint("hi")\nx = 1\n```')
    const button = [...container.querySelectorAll('button')].find((candidate) => candidate.textContent === 'Copy code')
    button?.click()
    await vi.waitFor(() => expect(button?.textContent).toBe('Copied'))
    expect(writes).toEqual(['print("hi")\nx = 1'])
  })
})
