import { createEffect, createSignal, For, on, onCleanup, Show, type JSX } from 'solid-js'
import type { DiffLine } from './diff-lines'
import type { Span } from './diff-spans'
import './patch.css'

/**
 * A unified patch's lines: added and removed lines styled, keeping their `+` and `-` so the meaning never rests on
 * colour, and once the decorator has loaded, syntax colours (when the file's language is known) and the changed
 * words marked inside paired -/+ lines. Text only: nothing in a patch is markup.
 */
export function PatchLines(props: { lines: DiffLine[]; file?: string }): JSX.Element {
  const [decor, setDecor] = createSignal<Span[][]>()
  createEffect(
    on([() => props.lines, () => props.file], ([lines, file]) => {
      setDecor(undefined)
      let current = true
      void import('./patch-decor')
        .then((module) => module.decoratePatch(lines, file))
        .then((spans) => current && setDecor(spans))
        // Colours and word marks are a nicety over the plain patch, which already says everything: keep it plain.
        .catch(() => undefined)
      onCleanup(() => (current = false))
    }),
  )
  return (
    <div class="diff-patch mono" data-decorated={decor() ? 'true' : undefined}>
      <For each={props.lines}>
        {(line, index) => (
          <div class={`diff-line diff-line-${line.type}`}>
            <Show when={decor()?.[index()]?.length ? decor()![index()] : undefined} fallback={line.text || ' '}>
              {(spans) => (
                <>
                  {line.text[0]}
                  <For each={spans()}>{(span) => <SpanView span={span} />}</For>
                </>
              )}
            </Show>
          </div>
        )}
      </For>
    </div>
  )
}

function SpanView(props: { span: Span }): JSX.Element {
  if (props.span.changed) return <mark class={`diff-word ${props.span.classes}`}>{props.span.text}</mark>
  if (props.span.classes) return <span class={props.span.classes}>{props.span.text}</span>
  return <>{props.span.text}</>
}
