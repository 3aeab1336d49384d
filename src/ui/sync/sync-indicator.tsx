import { Show, type JSX } from 'solid-js'
import type { SyncStatus } from '../../core/sync-state'
import { syncStatusText } from './sync-status-text'
import './sync.css'

/**
 * Sync's state in one line (issue 31): "Synced", "Syncing 12 rows", "Offline", "Paused", "Sync error: …" with a way
 * to the fix, and a progress bar through a device's first sync. Nothing at all while sync is off.
 */
export function SyncIndicator(props: { status: SyncStatus | undefined; onShowSettings: () => void }): JSX.Element {
  const text = () => (props.status ? syncStatusText(props.status) : undefined)
  return (
    <Show when={props.status && text() !== undefined ? props.status : undefined}>
      {(status) => (
        <div class="sync-indicator" classList={{ 'sync-problem': status().state === 'error' }}>
          <p class="sync-indicator-text" role="status" aria-label="Sync">
            {text()}
          </p>
          <Show when={status().state === 'syncing' && status().progress}>
            {(progress) => (
              <div
                class="sync-progress"
                role="progressbar"
                aria-label="First sync"
                aria-valuemin={0}
                aria-valuemax={progress().total}
                aria-valuenow={progress().done}
              >
                <div class="sync-progress-done" style={{ width: `${progress().total ? (100 * progress().done) / progress().total : 0}%` }} />
              </div>
            )}
          </Show>
          <Show when={status().state === 'error'}>
            <button type="button" class="button button-small button-quiet" onClick={() => props.onShowSettings()}>
              Fix in Settings → Sync
            </button>
          </Show>
        </div>
      )}
    </Show>
  )
}
