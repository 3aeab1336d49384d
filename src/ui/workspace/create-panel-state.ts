import { createSignal, type Accessor } from 'solid-js'
import { NARROW_QUERY, PANEL_STORAGE_KEY } from './panel-layout'

export const WORKSPACE_PANEL_ID = 'workspace'

export interface PanelState {
  open: Accessor<boolean>
  /** Shows the panel and moves focus to its selected tab. */
  show(): void
  /** Hides the panel and moves focus to the toggle that brings it back. */
  hide(): void
  toggle(): void
}

export const isNarrow = () => typeof matchMedia === 'function' && matchMedia(NARROW_QUERY).matches

function stored(): string | null {
  try {
    return localStorage.getItem(PANEL_STORAGE_KEY)
  } catch {
    return null
  }
}

// Wait a frame: the panel (or the toggle) is rendered by the next paint.
function focusLater(find: () => HTMLElement | undefined): void {
  requestAnimationFrame(() => find()?.focus())
}

/** The selected tab of the panel. */
const selectedTab = () =>
  document.querySelector<HTMLElement>(`#${WORKSPACE_PANEL_ID} [role="tab"][aria-selected="true"]`) ?? undefined

/** The toggle the reader can see: the rail on wide screens, the bar button on narrow ones. */
const visibleToggle = () =>
  [...document.querySelectorAll<HTMLElement>('[data-workspace-toggle]')].find((toggle) => toggle.offsetParent !== null)

/**
 * Whether the workspace panel is shown. Wide screens remember the reader's last choice (open at first); a narrow
 * screen always starts with the conversation, since the panel would cover it.
 */
export function createPanelState(): PanelState {
  const [open, setOpen] = createSignal(!isNarrow() && stored() !== 'closed')
  const set = (next: boolean) => {
    setOpen(next)
    if (isNarrow()) return
    try {
      localStorage.setItem(PANEL_STORAGE_KEY, next ? 'open' : 'closed')
    } catch {
      // Storage may be off (private mode); the choice then lasts as long as the tab.
    }
  }
  const show = () => {
    set(true)
    focusLater(selectedTab)
  }
  const hide = () => {
    set(false)
    focusLater(visibleToggle)
  }
  return { open, show, hide, toggle: () => (open() ? hide() : show()) }
}
