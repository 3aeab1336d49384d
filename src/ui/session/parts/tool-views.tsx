import { createEffect, createMemo, createSignal, For, on, onCleanup, Show, type JSX } from 'solid-js'
import { formatNumber } from '../../kit/format/number'
import { parsePatch } from '../../kit/diff/diff-lines'
import { tokensByLine, type ClassedText } from '../../kit/diff/diff-spans'
import { PatchLines } from '../../kit/diff/patch-lines'
import { describeChange, describeLines, type ReadContent, type ToolChange } from '../../kit/format/tool-summary'

/** A card shows this many patch or file lines; the rest on request, so one big write does not flood the chat. */
export const CARD_LINES = 40

/** The diff an edit or write made, unfolded, with "+N −M" on its summary; the file is already named in the head. */
export function ToolDiff(props: { change: ToolChange }): JSX.Element {
  const [showAll, setShowAll] = createSignal(false)
  // The file headers (`Index:`, `---`, `+++`) repeat the card's subject: from the first hunk on.
  const lines = createMemo(() => {
    const all = parsePatch(props.change.patch)
    const first = all.findIndex((line) => line.type === 'hunk')
    return first < 0 ? all : all.slice(first)
  })
  const visible = createMemo(() => (showAll() ? lines() : lines().slice(0, CARD_LINES)))
  return (
    <details class="tool-section tool-diff" open>
      <summary>
        <span>Diff</span>
        <span class="tool-diff-counts mono" aria-hidden="true">
          {' '}
          <span class="diff-additions">+{formatNumber(props.change.additions)}</span>{' '}
          <span class="diff-deletions">−{formatNumber(props.change.deletions)}</span>
        </span>
        <span class="visually-hidden">, {describeChange(props.change)}</span>
      </summary>
      <Show when={lines().length > 0} fallback={<p class="tool-note">(no changes)</p>}>
        <PatchLines lines={visible()} file={props.change.file} />
      </Show>
      <Show when={lines().length > visible().length}>
        <button type="button" class="button-link tool-show-all" onClick={() => setShowAll(true)}>
          Show all {formatNumber(lines().length)} lines
        </button>
      </Show>
    </details>
  )
}

/**
 * A read call's file content with the line numbers the tool gave, highlighted once the highlighter has loaded.
 * `shown`: whether a reader can see the lines (their section is open). Folded lines stay plain: a turn of read calls
 * then neither loads the highlighter nor parses each file, nor swaps every line's text for coloured runs, for
 * content nobody opened (issue 32: the page's work per step).
 */
export function ReadLines(props: { content: ReadContent; file: string | undefined; shown: boolean }): JSX.Element {
  const [showAll, setShowAll] = createSignal(false)
  const visible = createMemo(() => (showAll() ? props.content.lines : props.content.lines.slice(0, CARD_LINES)))
  const [tokens, setTokens] = createSignal<ClassedText[][]>()
  // Once opened, always wanted: folding again keeps the colours, and opening again does not find them twice.
  const wanted = createMemo((before: boolean) => before || props.shown, false)
  createEffect(
    on([visible, () => props.file, wanted], ([lines, file, want]) => {
      if (!want) return
      setTokens(undefined)
      if (!file) return
      let current = true
      void import('../../kit/code/highlight')
        .then(async (code) => tokensByLine(await code.highlightTokens(lines.map((line) => line.text).join('\n'), { file })))
        .then((byLine) => current && setTokens(byLine))
        // Colours are a nicety over the plain text, which is already all there.
        .catch(() => undefined)
      onCleanup(() => (current = false))
    }),
  )
  return (
    <>
      <div class="read-lines mono" data-highlighted={tokens() ? 'true' : undefined}>
        <For each={visible()}>
          {(line, index) => (
            <div class="read-line">
              <span class="read-number" aria-hidden="true">
                {line.number}
              </span>
              <span class="read-text">
                <Show when={tokens()?.[index()]} fallback={line.text || ' '}>
                  {(runs) => <For each={runs()}>{(run) => (run.classes ? <span class={run.classes}>{run.text}</span> : run.text)}</For>}
                </Show>
              </span>
            </div>
          )}
        </For>
      </div>
      <Show when={props.content.lines.length > visible().length}>
        <button type="button" class="button-link tool-show-all" onClick={() => setShowAll(true)}>
          Show all {formatNumber(props.content.lines.length)} lines
        </button>
      </Show>
      <Show when={props.content.note}>{(note) => <p class="tool-note">{note()}</p>}</Show>
    </>
  )
}

/** The command a bash call ran, and how it ended: its exit code, and a failure line a reader cannot miss. */
export function CommandLine(props: { command: string; exit: number | undefined; interrupted: boolean }): JSX.Element {
  return (
    <div class="tool-command">
      <pre class="mono">
        <span class="tool-prompt" aria-hidden="true">
          ${' '}
        </span>
        {props.command}
      </pre>
      <Show when={props.exit !== undefined && !props.interrupted}>
        <Show when={props.exit !== 0} fallback={<p class="tool-exit">exit 0</p>}>
          <p class="tool-exit tool-exit-failed">✕ Failed with exit code {props.exit}</p>
        </Show>
      </Show>
    </div>
  )
}

/**
 * How a finished command's output ends, shown open under the command: the verdict of a test run comes last. The
 * whole output stays under the card's Output.
 */
export function CommandEnding(props: { ending: { text: string; earlier: number } }): JSX.Element {
  return (
    <figure class="tool-ending" aria-label="End of the output">
      <Show when={props.ending.earlier > 0}>
        <figcaption class="tool-note">
          … {describeLines(props.ending.earlier)} above (all of it under Output)
        </figcaption>
      </Show>
      <pre class="mono tool-output">{props.ending.text}</pre>
    </figure>
  )
}

