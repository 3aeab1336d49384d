import { Show, type JSX } from 'solid-js'

/**
 * While the worker and storage open (usually a few frames), so the page is never blank. When storage is slow to open
 * (the browser recovers IndexedDB after a crash, which can take seconds), it says so: one status, whose words change.
 */
export function Splash(props: { slowStorage?: boolean }): JSX.Element {
  return (
    <main class="splash" aria-busy="true">
      <div role="status" class="splash-status">
        <Show when={props.slowStorage} fallback={<p>Opening tabcode…</p>}>
          <p>Opening your data…</p>
          <p class="faint">
            The browser is still reading tabcode's storage. After it was closed unexpectedly this can take a while;
            nothing is lost.
          </p>
        </Show>
      </div>
    </main>
  )
}
