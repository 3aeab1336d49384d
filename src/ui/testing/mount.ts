import type { JSX } from 'solid-js'
import { render } from 'solid-js/web'
import { afterEach } from 'vitest'

// Tests only: never imported by the app.

const cleanups: Array<() => void> = []

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/**
 * Renders a view into a fresh container; it is unmounted after the test. A `detached` container is kept out of the
 * document, so frames in it never try to load (happy-dom logs every frame it declines to load).
 */
export function mount(view: () => JSX.Element, options: { detached?: boolean } = {}): HTMLElement {
  const container = document.createElement('div')
  if (!options.detached) document.body.append(container)
  const dispose = render(view, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  return container
}
