// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render } from 'solid-js/web'
import { MenuButton } from './menu-button'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function mount(items: Parameters<typeof MenuButton>[0]['items']) {
  const container = document.createElement('div')
  document.body.append(container)
  const outside = document.createElement('p')
  document.body.append(outside)
  const dispose = render(() => <MenuButton label="Thing actions" items={items} />, container)
  cleanups.push(() => {
    dispose()
    container.remove()
    outside.remove()
  })
  const button = container.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]')!
  const menu = () => container.querySelector<HTMLElement>('[role="menu"]')
  const item = (label: string) => [...container.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')].find((element) => element.textContent === label)!
  const key = (target: Element, name: string) => target.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }))
  return { button, menu, item, key, outside }
}

describe('menu button', () => {
  it('builds its items only when opened, and runs the chosen one with focus back on the button', () => {
    const first = vi.fn()
    const items = vi.fn(() => [
      { label: 'First', onSelect: first },
      { label: 'Second', onSelect: () => {} },
    ])
    const { button, menu, item, key } = mount(items)
    expect(button.getAttribute('aria-label')).toBe('Thing actions')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(items).not.toHaveBeenCalled()
    key(button, 'ArrowUp')
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(button.getAttribute('aria-controls')).toBe(menu()!.id)
    expect(document.activeElement).toBe(item('Second'))
    key(menu()!, 'Home')
    expect(document.activeElement).toBe(item('First'))
    key(menu()!, 'End')
    expect(document.activeElement).toBe(item('Second'))
    key(menu()!, 'ArrowDown')
    expect(document.activeElement).toBe(item('First'))
    item('First').click()
    expect(first).toHaveBeenCalledOnce()
    expect(menu()).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('ignores a disabled item, which names its reason, and closes on a press elsewhere', () => {
    const chosen = vi.fn()
    const { button, menu, item, outside } = mount(() => [{ label: 'Only', onSelect: chosen, disabledReason: 'Busy right now.' }])
    button.click()
    const only = item('Only')
    expect(only.getAttribute('aria-disabled')).toBe('true')
    expect(document.getElementById(only.getAttribute('aria-describedby')!)?.textContent).toBe('Busy right now.')
    only.click()
    expect(chosen).not.toHaveBeenCalled()
    expect(menu()).not.toBeNull()
    outside.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
    expect(menu()).toBeNull()
  })
})
