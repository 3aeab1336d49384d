import type { JSX } from 'solid-js'

/** While the worker and storage open (usually a few frames), so the page is never blank. */
export function Splash(): JSX.Element {
  return (
    <main class="splash" aria-busy="true">
      <p role="status">Opening tabcode…</p>
    </main>
  )
}
