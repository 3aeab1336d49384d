import type { SyncStatus } from '../../core/sync-state'

const rows = (count: number) => `${count} row${count === 1 ? '' : 's'}`

/** The indicator's words; undefined when sync is off (the indicator is not shown at all). */
export function syncStatusText(status: SyncStatus): string | undefined {
  switch (status.state) {
    case 'off':
      return undefined
    case 'synced':
      return 'Synced'
    case 'syncing':
      if (status.progress) return `First sync: ${status.progress.done} of ${rows(status.progress.total)}`
      return status.pending > 0 ? `Syncing ${rows(status.pending)}` : 'Syncing'
    case 'offline':
      return 'Offline'
    case 'paused':
      return 'Paused'
    case 'error':
      return `Sync error: ${status.error?.message ?? 'unknown'}`
  }
}
