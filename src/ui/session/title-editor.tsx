import { onMount, type JSX } from 'solid-js'

/**
 * Inline rename: Enter saves, Escape cancels, leaving the field saves. `refocus` says whether the keyboard ended
 * the edit (then focus should go back to what was renamed) or a click elsewhere did (then it must stay there).
 */
export function TitleEditor(props: {
  initial: string
  onCommit: (title: string, refocus: boolean) => void
  onCancel: (refocus: boolean) => void
  class?: string
}): JSX.Element {
  let input!: HTMLInputElement
  let finished = false
  const finish = (commit: boolean, refocus: boolean) => {
    if (finished) return
    finished = true
    const title = input.value.trim()
    if (commit && title && title !== props.initial) props.onCommit(title, refocus)
    else props.onCancel(refocus)
  }
  onMount(() => {
    input.focus()
    input.select()
  })
  return (
    <input
      ref={input}
      type="text"
      class={`text-input title-input ${props.class ?? ''}`}
      aria-label="Session title"
      value={props.initial}
      maxLength={200}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault()
          finish(true, true)
        } else if (event.key === 'Escape') {
          event.preventDefault()
          finish(false, true)
        }
      }}
      onBlur={() => finish(true, false)}
    />
  )
}
