import { createMemo, createSignal, Show, type JSX } from 'solid-js'
import { ConfirmDialog } from '../../kit/dialog/confirm-dialog'
import { describeFailure, type BootFailure } from './boot-failure'
import './recovery-screen.css'

/**
 * What the user sees instead of the app when it cannot start: what happened in words, the technical detail for a
 * bug report, and the ways out. Deleting local data is offered only when the storage itself is the problem, and
 * only after a confirmation that says plainly what is lost.
 */
export function RecoveryScreen(props: { failure: BootFailure; onReset?: () => Promise<void> }): JSX.Element {
  const description = createMemo(() => describeFailure(props.failure))
  const [confirming, setConfirming] = createSignal(false)
  const reset = async () => {
    await props.onReset?.()
    window.location.reload()
  }
  return (
    <main class="recovery" aria-labelledby="recovery-heading">
      <div class="recovery-card">
        <p class="recovery-brand">tabcode</p>
        <h1 id="recovery-heading" class="recovery-heading">
          {description().heading}
        </h1>
        <p class="recovery-message">{description().message}</p>
        <Show when={description().detail}>
          <details class="recovery-detail">
            <summary>Technical details</summary>
            <pre>{description().detail}</pre>
          </details>
        </Show>
        <div class="recovery-actions">
          <button type="button" class="button button-primary" onClick={() => window.location.reload()}>
            Try again
          </button>
          <Show when={description().canReset && props.onReset}>
            <button type="button" class="button button-danger" onClick={() => setConfirming(true)}>
              Delete local data and start over
            </button>
          </Show>
        </div>
      </div>
      <Show when={confirming()}>
        <ConfirmDialog
          title="Delete all local data?"
          description={
            <>
              <p>
                This deletes every session, message and setting tabcode has stored in this browser. Nothing is kept
                anywhere else, so it can't be undone.
              </p>
              <p>Close other tabcode tabs first, or the browser may wait for them before deleting.</p>
            </>
          }
          confirmLabel="Delete local data"
          busyLabel="Deleting…"
          onConfirm={reset}
          onClose={() => setConfirming(false)}
        />
      </Show>
    </main>
  )
}
