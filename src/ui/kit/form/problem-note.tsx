import { Show, type JSX } from 'solid-js'

/** Why the last action failed, announced as it appears; nothing while there is none. */
export function ProblemNote(props: { text: string | undefined }): JSX.Element {
  return (
    <Show when={props.text}>
      <p class="problem" role="alert">
        {props.text}
      </p>
    </Show>
  )
}
