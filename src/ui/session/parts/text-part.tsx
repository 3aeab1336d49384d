import { Show, type JSX } from 'solid-js'
import type { TextPart } from '../../../core/schema'
import { Markdown } from '../../kit/markdown/markdown'
import { LongText } from '../long-text'

const SYNTHETIC_LINES = 12

/**
 * What the user typed is shown as typed (markdown would eat their asterisks); what the model wrote is markdown.
 * Text tabcode added on its own is marked as such, and text the model never saw is dimmed and says so.
 */
export function TextPartView(props: { part: TextPart; role: 'user' | 'assistant' }): JSX.Element {
  const note = () =>
    [props.part.synthetic ? 'added by tabcode' : '', props.part.ignored ? 'not sent to the model' : '']
      .filter(Boolean)
      .join(' · ')
  return (
    <div
      class="part part-text"
      classList={{ 'part-synthetic': !!props.part.synthetic, 'part-ignored': !!props.part.ignored }}
    >
      <Show when={note()}>
        <p class="part-note">{note()}</p>
      </Show>
      <Show
        when={props.role === 'assistant' && !props.part.synthetic}
        fallback={
          <Show when={props.part.synthetic} fallback={<p class="user-text">{props.part.text}</p>}>
            <LongText text={props.part.text} maxLines={SYNTHETIC_LINES} class="synthetic-text" />
          </Show>
        }
      >
        <Markdown text={props.part.text} />
      </Show>
    </div>
  )
}
