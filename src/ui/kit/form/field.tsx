import { createUniqueId, Show, splitProps, type JSX } from 'solid-js'

/** What a field gives its control: the id its label points at, and the hint's id for `aria-describedby`. */
export interface FieldControl {
  id: string
  hintID: string | undefined
}

/** The frame every labelled field shares: a label above, a hint below that the control names as its description. */
export interface FieldFrame {
  label: JSX.Element
  /** A line under the control, read out with it; a string, so it can be asked for more than once. */
  hint?: string
  /** Spans the whole row of a form grid. */
  wide?: boolean
  class?: string
  /** The control's id, where its owner names it; else one is made. */
  id?: string
  hintID?: string
}

/**
 * A labelled form field. The control comes from `children`, which is handed the ids to wire up; the label's `for`
 * and the hint's id are made here, so no form repeats the markup or mismatches an id.
 */
export function Field(
  props: FieldFrame & {
    children: (control: FieldControl) => JSX.Element
    /** What follows the hint inside the field (a button that fills the control, say). */
    below?: JSX.Element
  },
): JSX.Element {
  const id = props.id ?? createUniqueId()
  const hintID = props.hintID ?? createUniqueId()
  const control = props.children({
    id,
    get hintID() {
      return props.hint ? hintID : undefined
    },
  })
  return (
    <div class={fieldClass(props)}>
      <label class="field-label" for={id}>
        {props.label}
      </label>
      {control}
      <Show when={props.hint}>
        <p id={hintID} class="field-hint">
          {props.hint}
        </p>
      </Show>
      {props.below}
    </div>
  )
}

function fieldClass(props: FieldFrame): string {
  return ['field', props.wide ? 'field-wide' : '', props.class ?? ''].filter(Boolean).join(' ')
}

type InputAttributes = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'class' | 'onInput' | 'value'>

/**
 * A labelled text input (also a number, URL or password one: `type` passes through). `onValue` gets the text on
 * every keystroke; `mono` sets code-like values in the monospace face.
 */
export function TextField(
  props: FieldFrame & InputAttributes & { value: string; onValue: (value: string) => void; mono?: boolean; inputClass?: string },
): JSX.Element {
  const [frame, own, input] = splitProps(props, ['label', 'hint', 'wide', 'class', 'id', 'hintID'], ['value', 'onValue', 'mono', 'inputClass'])
  return (
    <Field {...frame}>
      {(control) => (
        <input
          {...input}
          id={control.id}
          class={inputClass('text-input', own)}
          aria-describedby={control.hintID}
          value={own.value}
          onInput={(event) => own.onValue(event.currentTarget.value)}
        />
      )}
    </Field>
  )
}

/** A labelled select; its options are the children. `onValue` gets the chosen option's value. */
export function SelectField(
  props: FieldFrame & {
    value: string
    onValue: (value: string) => void
    selectClass?: string
    ref?: (element: HTMLSelectElement) => void
    children: JSX.Element
  },
): JSX.Element {
  return (
    <Field label={props.label} hint={props.hint} wide={props.wide} class={props.class} id={props.id} hintID={props.hintID}>
      {(control) => (
        <select
          ref={(element) => props.ref?.(element)}
          id={control.id}
          class={props.selectClass}
          aria-describedby={control.hintID}
          value={props.value}
          onChange={(event) => props.onValue(event.currentTarget.value)}
        >
          {props.children}
        </select>
      )}
    </Field>
  )
}

function inputClass(base: string, props: { mono?: boolean; inputClass?: string }): string {
  return [base, props.inputClass ?? '', props.mono ? 'mono' : ''].filter(Boolean).join(' ')
}
