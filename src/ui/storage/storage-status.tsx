import { onMount, Show, type JSX } from 'solid-js'
import type { StorageStatus as Status } from './create-storage-status'
import { formatBytes, fullness, NEARLY_FULL, type StorageReport } from './persistent-storage'
import './storage.css'

export const NOT_PERSISTENT_TEXT = "not granted — the browser may clear tabcode's data when space runs low"

/** "Persistent storage: …" in words, for the details and the compact summary's tooltip. */
export function persistenceText(report: StorageReport | undefined): string {
  if (!report) return 'Persistent storage: checking…'
  if (report.persisted === undefined) return 'Persistent storage: unknown — this browser does not say'
  return `Persistent storage: ${report.persisted ? 'granted' : NOT_PERSISTENT_TEXT}`
}

export function usageText(report: StorageReport | undefined): string | undefined {
  if (report?.usage === undefined) return undefined
  return report.quota ? `Using ${formatBytes(report.usage)} of ${formatBytes(report.quota)}` : `Using ${formatBytes(report.usage)}`
}

/**
 * Whether the browser promised to keep tabcode's data, and how much of the origin's share it uses. Usable anywhere
 * (the sidebar's details, a Settings section); it reads afresh when it appears.
 */
export function StorageStatus(props: { status: Status }): JSX.Element {
  onMount(() => void props.status.refresh())
  const report = () => props.status.report()
  const share = () => {
    const current = report()
    return current ? fullness(current) : undefined
  }
  return (
    <section class="storage-status" aria-label="Storage">
      <p class="storage-line">{persistenceText(report())}</p>
      <Show when={usageText(report())}>
        {(text) => (
          <p class="storage-line">
            {text()}
            <Show when={share() !== undefined}>
              <meter class="storage-meter" min={0} max={1} high={NEARLY_FULL} value={share()} aria-hidden="true" />
            </Show>
          </p>
        )}
      </Show>
      <Show when={(share() ?? 0) >= NEARLY_FULL}>
        <p class="storage-line problem">
          Storage is nearly full: new messages may not be saved. Delete or export old sessions to make room.
        </p>
      </Show>
      <Show when={props.status.canRequest && report()?.persisted === false}>
        <button
          type="button"
          class="button button-small"
          disabled={props.status.requesting()}
          onClick={() => void props.status.request()}
        >
          Request persistent storage
        </button>
        <Show when={props.status.answer() === false}>
          <p class="storage-line quiet" role="status">
            The browser declined for now. Browsers grant it more readily to installed or bookmarked apps, and some ask
            again after more use.
          </p>
        </Show>
      </Show>
    </section>
  )
}
