import { For, Index, Show, createComputed, createMemo, createSignal, onCleanup, onMount, untrack, type JSX, type Signal } from 'solid-js'
import type { MarkedToken, Token, Tokens } from 'marked'
import { lexGrowingText, reuseUnchangedBlocks, type LexedText, type MarkdownBlock, type RelexedMarkdown } from './blocks'
import { sameItems } from '../same-items'
import { decodeCharacterReferences } from './character-references'
import { CopyButton } from './copy-button'
import { isClosedFence } from './fence'
import { highlightWhenIdle } from './highlight-later'
import { classifyImageSource, isExternalHref, safeLinkHref } from './link-safety'
import './markdown.css'

// Model output is untrusted. Every node below is built through Solid's JSX, so text is always a
// text node and attributes are set one by one: there is no HTML string anywhere to inject into.
// Raw HTML in the markdown is shown as its source text.

const LINK_REL = 'noopener noreferrer nofollow'

// The renderer lexes with marked's defaults and no extensions (see blocks.ts), so every token is
// one of marked's own; unknown ones still fall through to plain text.
function known(token: Token): MarkedToken {
  return token as MarkedToken
}

/** The text a reader would see, for image alt text and links that cannot be links. */
function plainText(tokens: readonly Token[]): string {
  return tokens.map((token) => plainTextOf(known(token))).join('')
}

function plainTextOf(token: MarkedToken): string {
  switch (token.type) {
    case 'text':
      return token.tokens ? plainText(token.tokens) : decodeCharacterReferences(token.text)
    case 'link':
      return token.autolink ? token.text : plainText(token.tokens)
    case 'image':
      return plainText(token.tokens)
    case 'strong':
    case 'em':
    case 'del':
      return plainText(token.tokens)
    case 'escape':
    case 'codespan':
      return token.text
    case 'html':
      return token.text
    case 'br':
      return ' '
    case 'checkbox':
      return ''
    default:
      return token.raw
  }
}

function Link(props: { token: Tokens.Link }): JSX.Element {
  const token = props.token
  // Autolinks keep their destination and text literally; other links decode references, as
  // CommonMark asks and as a browser would when reading marked's HTML.
  const href = safeLinkHref(token.autolink ? token.href : decodeCharacterReferences(token.href))
  const label = token.autolink ? token.text : undefined
  if (href === undefined) return <span class="md-link-blocked">{label ?? plainText(token.tokens)}</span>
  return (
    <a
      class="md-link"
      href={href}
      title={token.title ? decodeCharacterReferences(token.title) : undefined}
      rel={LINK_REL}
      target={isExternalHref(href) ? '_blank' : undefined}
    >
      {label ?? renderInline(token.tokens)}
    </a>
  )
}

function ExternalImage(props: { src: string; host: string; alt: string; title: string | undefined }): JSX.Element {
  const [requested, setRequested] = createSignal(false)
  const where = props.host || 'relative path'
  const load = (event: MouseEvent) => {
    // The placeholder may sit inside a link; loading the image must not also follow it. The
    // listener sits on the button itself (`on:click`, not Solid's document-level delegation) so
    // the link sees the cancelled click while the event is still on its way up.
    event.preventDefault()
    setRequested(true)
  }
  return (
    <Show
      when={requested()}
      fallback={
        <span class="md-image-placeholder">
          <button type="button" class="md-image-load" on:click={load}>
            Load image: {props.alt || where}
          </button>
          <span class="md-image-host">{where}</span>
        </span>
      }
    >
      <img class="md-image" src={props.src} alt={props.alt} title={props.title} referrerpolicy="no-referrer" decoding="async" />
    </Show>
  )
}

function Image(props: { token: Tokens.Image }): JSX.Element {
  const token = props.token
  const alt = plainText(token.tokens)
  const title = token.title ? decodeCharacterReferences(token.title) : undefined
  const source = classifyImageSource(decodeCharacterReferences(token.href))
  switch (source.kind) {
    case 'inline':
      return <img class="md-image" src={source.src} alt={alt} title={title} />
    case 'external':
      return <ExternalImage src={source.src} host={source.host} alt={alt} title={title} />
    case 'blocked':
      return <span class="md-image-blocked">{alt || 'image'}</span>
  }
}

/** A task list's box: named by its state, since the item's own words follow it (and a screen reader reads them next). */
function Checkbox(props: { checked: boolean }): JSX.Element {
  return <input class="md-task-checkbox" type="checkbox" checked={props.checked} disabled aria-label={props.checked ? 'Done' : 'To do'} />
}

function renderInline(tokens: readonly Token[]): JSX.Element[] {
  return tokens.map((token) => renderInlineToken(known(token)))
}

function renderInlineToken(token: MarkedToken): JSX.Element {
  switch (token.type) {
    case 'text':
      return token.tokens ? renderInline(token.tokens) : decodeCharacterReferences(token.text)
    case 'escape':
      return token.text
    case 'strong':
      return <strong>{renderInline(token.tokens)}</strong>
    case 'em':
      return <em>{renderInline(token.tokens)}</em>
    case 'del':
      return <del>{renderInline(token.tokens)}</del>
    case 'codespan':
      return <code class="md-inline-code">{token.text}</code>
    case 'br':
      return <br />
    case 'link':
      return <Link token={token} />
    case 'image':
      return <Image token={token} />
    case 'checkbox':
      return <Checkbox checked={token.checked} />
    case 'html':
      return <span class="md-raw-html">{token.text}</span>
    default:
      return token.raw
  }
}

function Heading(props: { token: Tokens.Heading }): JSX.Element {
  const content = renderInline(props.token.tokens)
  switch (props.token.depth) {
    case 1:
      return <h1 class="md-heading">{content}</h1>
    case 2:
      return <h2 class="md-heading">{content}</h2>
    case 3:
      return <h3 class="md-heading">{content}</h3>
    case 4:
      return <h4 class="md-heading">{content}</h4>
    case 5:
      return <h5 class="md-heading">{content}</h5>
    default:
      return <h6 class="md-heading">{content}</h6>
  }
}

function CodeBlock(props: { token: Tokens.Code }): JSX.Element {
  // The info string may carry more than a language (```ts title="x"); only its first word counts.
  const language = decodeCharacterReferences(props.token.lang ?? '').trim().split(/\s+/)[0] ?? ''
  const code = props.token.text
  let element!: HTMLElement
  onMount(() => {
    // A block is a new token each time its source changes, so an open (streaming) block is never highlighted.
    if (language && isClosedFence(props.token.raw)) onCleanup(highlightWhenIdle(element, code, language))
  })
  return (
    <div class="md-code-block">
      <div class="md-code-head">
        <Show when={language}>
          <span class="md-code-language">{language}</span>
        </Show>
        <CopyButton label="Copy code" class="md-code-copy" text={() => code} />
      </div>
      <pre class="md-code" data-language={language || undefined}>
        <code ref={element}>{code}</code>
      </pre>
    </div>
  )
}

function alignClass(align: Tokens.TableCell['align']): string | undefined {
  return align ? `md-align-${align}` : undefined
}

function Table(props: { token: Tokens.Table }): JSX.Element {
  return (
    <div class="md-table-scroll">
      <table class="md-table">
        <thead>
          <tr>
            {props.token.header.map((cell) => (
              <th class={alignClass(cell.align)}>{renderInline(cell.tokens)}</th>
            ))}
          </tr>
        </thead>
        <Show when={props.token.rows.length > 0}>
          <tbody>
            {props.token.rows.map((row) => (
              <tr>
                {row.map((cell) => (
                  <td class={alignClass(cell.align)}>{renderInline(cell.tokens)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Show>
      </table>
    </div>
  )
}

function List(props: { token: Tokens.List }): JSX.Element {
  const items = props.token.items.map((item) => (
    <li class={item.task ? 'md-task' : undefined}>{renderBlocks(item.tokens, 'inline')}</li>
  ))
  if (!props.token.ordered) return <ul class="md-list">{items}</ul>
  const start = props.token.start
  return (
    <ol class="md-list" start={start === '' || start === 1 ? undefined : start}>
      {items}
    </ol>
  )
}

// A tight list item holds bare `text` blocks that marked renders without a paragraph around them.
type LooseText = 'paragraph' | 'inline'

function renderBlocks(tokens: readonly Token[], looseText: LooseText): JSX.Element[] {
  return tokens.map((token) => renderBlock(known(token), looseText))
}

function renderBlock(token: MarkedToken, looseText: LooseText): JSX.Element {
  switch (token.type) {
    case 'space':
    case 'def':
      return null
    case 'heading':
      return <Heading token={token} />
    case 'paragraph':
      return <p>{renderInline(token.tokens)}</p>
    case 'text': {
      const content = renderInlineToken(token)
      return looseText === 'inline' ? content : <p>{content}</p>
    }
    case 'code':
      return <CodeBlock token={token} />
    case 'blockquote':
      return <blockquote class="md-quote">{renderBlocks(token.tokens, 'paragraph')}</blockquote>
    case 'list':
      return <List token={token} />
    case 'table':
      return <Table token={token} />
    case 'hr':
      return <hr class="md-rule" />
    case 'html':
      return <p class="md-raw-html md-raw-html-block">{token.text}</p>
    case 'checkbox':
      return <Checkbox checked={token.checked} />
    default:
      return <p>{token.raw}</p>
  }
}

/** Top-level blocks per chunk: a chunk is painted as a unit, so a frame re-records only the chunks that changed. */
export const CHUNK_BLOCKS = 16
/**
 * Chunks per section. A section whose chunks have all settled is skipped off screen as one element (its chunks are
 * not skipped one by one any more): the browser then tracks one element per SECTION_CHUNKS settled chunks instead
 * of each (its visibility check, style and layout walk every frame), so a long reply costs an update about what a
 * short one does.
 */
export const SECTION_CHUNKS = 8

const sameLength = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, index) => from + index)

/**
 * Renders untrusted markdown (model output) as DOM without ever parsing HTML. Each top-level
 * block keeps its DOM while its source is unchanged, so appending streamed text only re-renders
 * the block that grew; and only the open end of a growing text is lexed again (lexGrowingText).
 * Blocks are grouped in chunks of CHUNK_BLOCKS, each its own signal: a frame updates only the chunks from the first
 * block it lexed again, so the finished part of a long reply costs nothing per streamed delta.
 */
export function Markdown(props: { text: string }): JSX.Element {
  let last: LexedText | undefined
  const lexed = createMemo((previous: RelexedMarkdown | undefined) => {
    const text = props.text
    const grown = lexGrowingText(last, text)
    const next = reuseUnchangedBlocks(previous, grown, grown.kept)
    last = { text, lexed: next }
    return next
  })
  // Per chunk, its blocks and its classes, each a signal a frame sets only for the chunks it changed: a chunk that
  // read the chunk count to know whether it is the last would make every chunk of a long reply re-run per update.
  const chunks: { blocks: Signal<MarkdownBlock[]>; classes: Signal<string> }[] = []
  /** Per section, whether all its chunks have settled. */
  const sections: Signal<boolean>[] = []
  const [count, setCount] = createSignal(0)
  // Chunks below this were finished already at the update before this one, so the browser has rendered them with
  // their final content and knows their size (contain-intrinsic-size: auto): `.md-chunk-settled` lets it skip them
  // off screen. Settling them with the next update, not in a frame of its own, costs no extra style and layout pass.
  let settledBelow = 0
  let finishedBefore = 0
  const classesOf = (index: number, total: number) =>
    ['md-chunk', index === 0 ? 'md-chunk-first' : '', index === total - 1 ? 'md-chunk-last' : '', index < settledBelow ? 'md-chunk-settled' : '']
      .filter(Boolean)
      .join(' ')
  createComputed(() => {
    const { blocks, kept } = lexed()
    const total = Math.ceil(blocks.length / CHUNK_BLOCKS)
    untrack(() => {
      const previousTotal = chunks.length
      const previousSettled = settledBelow
      settledBelow = Math.max(0, Math.min(finishedBefore, total - 1))
      finishedBefore = total - 1
      chunks.length = Math.min(chunks.length, total)
      // The chunks whose blocks or classes may differ: from the first block lexed again, the last chunk before and
      // now, and those settling now.
      const from = Math.max(0, Math.min(Math.floor(kept / CHUNK_BLOCKS), previousTotal - 1, total - 1, previousSettled))
      for (let index = from; index < total; index += 1) {
        const slice = blocks.slice(index * CHUNK_BLOCKS, (index + 1) * CHUNK_BLOCKS)
        const classes = classesOf(index, total)
        const chunk = chunks[index]
        if (chunk) {
          chunk.blocks[1](slice)
          chunk.classes[1](classes)
        } else {
          chunks[index] = { blocks: createSignal(slice, { equals: sameItems }), classes: createSignal(classes) }
        }
      }
      const sectionCount = Math.ceil(total / SECTION_CHUNKS)
      sections.length = Math.min(sections.length, sectionCount)
      for (let index = Math.floor(from / SECTION_CHUNKS); index < sectionCount; index += 1) {
        const settled = (index + 1) * SECTION_CHUNKS <= settledBelow
        if (sections[index]) sections[index]![1](settled)
        else sections[index] = createSignal(settled)
      }
      setCount(total)
    })
  })
  const sectionIndices = createMemo(() => range(0, Math.ceil(count() / SECTION_CHUNKS)), [], { equals: sameLength })
  return (
    <div class="md">
      <Index each={sectionIndices()}>
        {(section) => {
          const first = section() * SECTION_CHUNKS
          const indices = createMemo(() => range(first, Math.min(count(), first + SECTION_CHUNKS)), [], { equals: sameLength })
          const settled = sections[section()]![0]
          return (
            <div class={settled() ? 'md-section md-section-settled' : 'md-section'}>
              <Index each={indices()}>
                {(index) => {
                  const chunk = chunks[index()]!
                  return (
                    <div class={chunk.classes[0]()}>
                      <For each={chunk.blocks[0]()}>{(block) => renderBlocks(block.tokens, 'paragraph')}</For>
                    </div>
                  )
                }}
              </Index>
            </div>
          )
        }}
      </Index>
    </div>
  )
}
