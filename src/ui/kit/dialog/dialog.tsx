import { createUniqueId, onCleanup, onMount, Show, type JSX } from 'solid-js'
import './dialog.css'

const FOCUSABLE =
  'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), summary, [tabindex]:not([tabindex="-1"])'

/** `showModal()` keeps focus off the page, but Tab still escapes to the browser's own UI; wrap it around instead. */
function trapTab(event: KeyboardEvent, container: HTMLElement): void {
  if (event.key !== 'Tab') return
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((node) => node.getClientRects().length > 0)
  const first = focusable[0]
  const last = focusable[focusable.length - 1]
  if (!first || !last) return
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault()
    first.focus()
  }
}

/**
 * A modal dialog on the native `<dialog>`: `showModal()` makes the rest of the page inert (so focus stays inside)
 * and turns Escape into `cancel`, which we route to `onClose` so the owner's state stays the one truth. Mount it
 * to open it, unmount it to close it; focus goes back to where it was.
 */
export function Dialog(props: {
  title: string
  description?: JSX.Element
  onClose: () => void
  children: JSX.Element
  /** `alertdialog` for confirmations of destructive actions. */
  role?: 'dialog' | 'alertdialog'
  class?: string
}): JSX.Element {
  const titleID = createUniqueId()
  const descriptionID = createUniqueId()
  let element!: HTMLDialogElement
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : undefined

  onMount(() => {
    if (typeof element.showModal === 'function') element.showModal()
    else element.setAttribute('open', '')
    const preferred = element.querySelector<HTMLElement>('[data-autofocus]')
    preferred?.focus()
  })
  onCleanup(() => {
    if (element.open) element.close()
    if (previous?.isConnected) previous.focus()
  })

  return (
    <dialog
      ref={element}
      class={`dialog ${props.class ?? ''}`}
      role={props.role ?? 'dialog'}
      aria-modal="true"
      aria-labelledby={titleID}
      aria-describedby={props.description ? descriptionID : undefined}
      onCancel={(event) => {
        event.preventDefault()
        props.onClose()
      }}
      onKeyDown={(event) => trapTab(event, element)}
    >
      <h2 id={titleID} class="dialog-title">
        {props.title}
      </h2>
      <Show when={props.description}>
        <div id={descriptionID} class="dialog-description">
          {props.description}
        </div>
      </Show>
      {props.children}
    </dialog>
  )
}
