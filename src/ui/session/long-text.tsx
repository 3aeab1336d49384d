import { createMemo, createSignal, Show, type JSX } from 'solid-js'
import { truncateText } from '../kit/format/truncate'
import { formatNumber } from '../kit/format/number'

export const LONG_TEXT_LINES = 30
export const LONG_TEXT_CHARS = 6_000

/**
 * Monospace text that shows its head and a "Show all" button when long: a 5,000-line build log must not turn the
 * conversation into a scroll marathon, but nothing is hidden for good.
 */
export function LongText(props: { text: string; class?: string; maxLines?: number }): JSX.Element {
  const [expanded, setExpanded] = createSignal(false)
  const cut = createMemo(() =>
    truncateText(props.text, { maxLines: props.maxLines ?? LONG_TEXT_LINES, maxChars: LONG_TEXT_CHARS }),
  )
  return (
    <div class={`long-text ${props.class ?? ''}`}>
      <pre>{expanded() || !cut().truncated ? props.text : cut().text}</pre>
      <Show when={cut().truncated}>
        <button type="button" class="button-link long-text-toggle" aria-expanded={expanded()} onClick={() => setExpanded(!expanded())}>
          {expanded() ? 'Show less' : `Show all ${formatNumber(cut().totalLines)} lines`}
        </button>
      </Show>
    </div>
  )
}
