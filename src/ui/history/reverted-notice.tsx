import { createSignal, Show, type JSX } from 'solid-js'
import type { SessionInfo } from '../../core/schema'
import { hiddenText } from './revert-cut'
import './history.css'

/**
 * The session is reverted: what is hidden, which files were put back, and the way back. Messages stay stored until
 * the next prompt, so Unrevert loses nothing.
 */
export function RevertedNotice(props: { revert: NonNullable<SessionInfo['revert']>; hidden: number; busy: boolean; onUnrevert: () => Promise<void> }): JSX.Element {
  const [working, setWorking] = createSignal(false)
  const files = () => props.revert.files?.length ?? 0
  const unrevert = async () => {
    setWorking(true)
    try {
      await props.onUnrevert()
    } finally {
      setWorking(false)
    }
  }
  return (
    <div class="reverted-notice" role="region" aria-label="Reverted">
      <p class="reverted-text">
        <span>{hiddenText(props.hidden)}</span>
        <Show when={props.revert.partID}>
          <span> and the end of a reply</span>
        </Show>
        <Show when={files() > 0}>
          <span aria-hidden="true"> · </span>
          <span>Files restored: {files()}</span>
        </Show>
        <span class="faint"> · sending a prompt removes the hidden messages for good</span>
      </p>
      <button type="button" class="button button-small" disabled={working() || props.busy} onClick={() => void unrevert()}>
        Unrevert
      </button>
    </div>
  )
}
