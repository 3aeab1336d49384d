import { createComponent, createSignal, Show, type Component, type JSX } from 'solid-js'
import { errorMessage } from '../format/error'

/**
 * A component whose code loads with `import()` when first shown, as `lazy` does, but whose failure stays in its own
 * place: a chunk that isn't cached yet while the browser is offline must not take the whole app to the crash screen
 * (Solid's `lazy` throws to the nearest error boundary, and keeps the failed import, so it could never load again).
 * It says what could not load and why, and offers to try again.
 */
export function loadLater<P extends object>(what: string, load: () => Promise<Component<P>>): Component<P> {
  const [loaded, setLoaded] = createSignal<Component<P>>()
  const [failure, setFailure] = createSignal<unknown>()
  let loading: Promise<void> | undefined
  const start = () => {
    loading ??= load().then(
      (component) => void setLoaded(() => component),
      (error: unknown) => {
        loading = undefined
        setFailure(() => error)
      },
    )
  }
  return (props: P): JSX.Element => {
    start()
    return (
      <Show when={loaded()} fallback={<Show when={failure() !== undefined}>{<LoadFailure what={what} error={failure()} onRetry={() => (setFailure(undefined), start())} />}</Show>}>
        {(component) => createComponent(component(), props)}
      </Show>
    )
  }
}

function LoadFailure(props: { what: string; error: unknown; onRetry: () => void }): JSX.Element {
  const why = () =>
    typeof navigator !== 'undefined' && !navigator.onLine
      ? 'The browser is offline and this part of the app has not been downloaded yet; it loads once you are back online.'
      : `It could not be downloaded: ${errorMessage(props.error)}`
  return (
    <div class="workspace-note problem" role="alert">
      <p>
        {props.what} could not load. {why()}
      </p>
      <button type="button" onClick={() => props.onRetry()}>
        Try again
      </button>
    </div>
  )
}
