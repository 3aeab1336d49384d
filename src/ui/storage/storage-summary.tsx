import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import type { StorageStatus as Status } from './create-storage-status'
import { formatBytes, fullness, NEARLY_FULL } from './persistent-storage'
import { persistenceText, StorageStatus } from './storage-status'

/** One quiet line for the sidebar's foot ("Storage · 12.3 MB"), which opens the full status above it. */
export function StorageSummary(props: { status: Status }): JSX.Element {
  const [open, setOpen] = createSignal(false)
  const id = createUniqueId()
  const report = () => props.status.report()
  const warn = () => {
    const current = report()
    if (!current) return false
    return current.persisted === false || (fullness(current) ?? 0) >= NEARLY_FULL
  }
  const label = () => {
    const usage = report()?.usage
    return usage === undefined ? 'Storage' : `Storage · ${formatBytes(usage)}`
  }
  return (
    <div class="storage-summary">
      <Show when={open()}>
        <div id={`storage-${id}`} class="storage-popover">
          <StorageStatus status={props.status} />
        </div>
      </Show>
      <button
        type="button"
        class="button button-quiet button-small storage-toggle"
        aria-expanded={open()}
        aria-controls={open() ? `storage-${id}` : undefined}
        title={persistenceText(report())}
        onClick={() => setOpen(!open())}
      >
        <Show when={warn()}>
          <span class="storage-warning-dot" aria-hidden="true" />
        </Show>
        {label()}
      </button>
    </div>
  )
}
