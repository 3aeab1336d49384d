import { createEffect, createSignal, createUniqueId, For, onCleanup, Show, untrack, type JSX } from 'solid-js'
import { MoreIcon } from '../icons/icons'
import './menu.css'

export interface MenuItem {
  label: string
  onSelect: () => void
  /** Why the item can't be used now; it stays in the menu (reachable, announced) but does nothing. */
  disabledReason?: string | undefined
}

/**
 * A button that opens a menu of actions (the ARIA menu button pattern): Enter, Space or the arrows open it, the arrows
 * move between items, Home and End jump, Escape closes it and focus returns to the button. The items are built only
 * when it opens, so a long conversation pays for one button per message, not one menu.
 */
export function MenuButton(props: { label: string; items: () => MenuItem[]; class?: string }): JSX.Element {
  const [open, setOpen] = createSignal(false)
  const menuID = createUniqueId()
  const reasonID = createUniqueId()
  let button!: HTMLButtonElement
  let root!: HTMLDivElement
  let menu: HTMLDivElement | undefined

  const entries = () => [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
  const focusItem = (index: number) => {
    const list = entries()
    if (list.length) list[(index + list.length) % list.length]!.focus()
  }
  const show = (focus: 'first' | 'last') => {
    setOpen(true)
    focusItem(focus === 'first' ? 0 : -1)
  }
  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) button.focus()
  }

  // A press anywhere else closes the menu; focus leaving it (Tab) does too. Listened to only while open: a long
  // conversation has hundreds of these buttons.
  const onOutside = (event: PointerEvent) => {
    if (!root.contains(event.target as Node)) close(false)
  }
  createEffect(() => {
    if (!open()) return
    document.addEventListener('pointerdown', onOutside)
    onCleanup(() => document.removeEventListener('pointerdown', onOutside))
  })

  const onMenuKey = (event: KeyboardEvent) => {
    const list = entries()
    const index = list.indexOf(document.activeElement as HTMLElement)
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusItem(index + 1),
      ArrowUp: () => focusItem(index - 1),
      Home: () => focusItem(0),
      End: () => focusItem(-1),
      Escape: () => close(true),
    }
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      event.stopPropagation()
      move()
    } else if (event.key === 'Tab') close(false)
  }

  const select = (item: MenuItem) => {
    if (item.disabledReason) return
    close(true)
    item.onSelect()
  }

  return (
    <div class={`menu-root ${props.class ?? ''}`} ref={root}>
      <button
        ref={button}
        type="button"
        class="icon-button menu-button"
        aria-label={props.label}
        title={props.label}
        aria-haspopup="menu"
        aria-expanded={open()}
        aria-controls={open() ? menuID : undefined}
        onClick={() => (open() ? close(false) : show('first'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault()
            show(event.key === 'ArrowDown' ? 'first' : 'last')
          } else if (event.key === 'Escape' && open()) {
            event.preventDefault()
            event.stopPropagation()
            close(true)
          }
        }}
      >
        <MoreIcon />
      </button>
      <Show when={open()}>
        {(() => {
          const items = untrack(props.items)
          const reasons = [...new Set(items.flatMap((item) => (item.disabledReason ? [item.disabledReason] : [])))]
          return (
            <div class="menu-popup">
              <div id={menuID} ref={menu} class="menu" role="menu" aria-label={props.label} onKeyDown={onMenuKey}>
                <For each={items}>
                  {(item) => (
                    <button
                      type="button"
                      role="menuitem"
                      tabindex="-1"
                      class="menu-item"
                      aria-disabled={item.disabledReason ? 'true' : undefined}
                      aria-describedby={item.disabledReason ? reasonID : undefined}
                      title={item.disabledReason}
                      onClick={() => select(item)}
                    >
                      {item.label}
                    </button>
                  )}
                </For>
              </div>
              <Show when={reasons.length}>
                <p id={reasonID} class="menu-reason">
                  {reasons.join(' ')}
                </p>
              </Show>
            </div>
          )
        })()}
      </Show>
    </div>
  )
}
