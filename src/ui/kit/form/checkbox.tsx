import type { JSX } from 'solid-js'

/** A checkbox inside its own label, so a click on the words toggles it too. */
export function Checkbox(props: {
  label: JSX.Element
  checked: boolean
  onChange: (checked: boolean) => void
  class?: string
  id?: string
  describedBy?: string
}): JSX.Element {
  return (
    <label class={props.class ?? 'checkbox'}>
      <input
        id={props.id}
        type="checkbox"
        aria-describedby={props.describedBy}
        checked={props.checked}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      {props.label}
    </label>
  )
}
