import type { JSX } from 'solid-js'
import type { SessionSearch } from './create-session-search'

/**
 * The sidebar's search field. ArrowDown moves into the results, Enter opens the first one, Escape clears (and,
 * when already empty, lets the sidebar have the key).
 */
export function SearchBox(props: {
  search: SessionSearch
  /** The results list this box controls, when it is shown. */
  resultsID: string
  onMoveIntoResults: () => boolean
  onOpenFirst: () => void
  ref?: (element: HTMLInputElement) => void
}): JSX.Element {
  return (
    <input
      ref={(element) => props.ref?.(element)}
      type="search"
      class="text-input"
      aria-label="Search sessions"
      placeholder="Search sessions and messages"
      aria-controls={props.search.active() ? props.resultsID : undefined}
      autocomplete="off"
      spellcheck={false}
      value={props.search.query()}
      onInput={(event) => props.search.setQuery(event.currentTarget.value)}
      onKeyDown={(event) => {
        // Modified keys are the app's shortcuts (Alt+ArrowDown moves between sessions); they pass through.
        if (event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return
        if (event.key === 'Escape' && props.search.query() !== '') {
          event.preventDefault()
          props.search.clear()
        } else if (event.key === 'ArrowDown') {
          if (props.onMoveIntoResults()) event.preventDefault()
        } else if (event.key === 'Enter') {
          event.preventDefault()
          props.onOpenFirst()
        }
      }}
    />
  )
}
