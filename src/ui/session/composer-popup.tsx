import { For, Show, type JSX } from 'solid-js'
import type { ComposerOption } from './composer-options'

export const optionElementID = (listID: string, index: number) => `${listID}-option-${index}`

/**
 * The `@` and `/` popup: a listbox the prompt textarea controls (it keeps the focus; the active entry is its
 * aria-activedescendant). A press, not a click, accepts, so the textarea does not lose the focus first.
 */
export function ComposerPopup(props: {
  listID: string
  label: string
  options: readonly ComposerOption[]
  active: number
  emptyText: string
  onAccept: (option: ComposerOption) => void
  onHover: (index: number) => void
}): JSX.Element {
  return (
    <div class="composer-popup">
      <ul id={props.listID} class="composer-list" role="listbox" aria-label={props.label}>
        <For each={props.options}>
          {(option, index) => (
            <li
              id={optionElementID(props.listID, index())}
              role="option"
              class="composer-option"
              aria-selected={index() === props.active}
              aria-disabled={option.disabledReason ? true : undefined}
              title={option.disabledReason}
              onMouseDown={(event) => {
                event.preventDefault()
                if (!option.disabledReason) props.onAccept(option)
              }}
              onMouseEnter={() => props.onHover(index())}
            >
              <span class="composer-option-label">{option.label}</span>
              <Show when={option.disabledReason ?? option.detail}>
                {(detail) => <span class="composer-option-detail">{detail()}</span>}
              </Show>
            </li>
          )}
        </For>
      </ul>
      <Show when={props.options.length === 0}>
        <p class="composer-empty">{props.emptyText}</p>
      </Show>
    </div>
  )
}
