import { createSignal, type Accessor } from 'solid-js'
import { log } from '../../../core/log'
import { callback, type WorkerConnection } from '../../worker-client'

export interface WorkerNotices {
  /** Why this tab must reload (its worker let go of the database for a newer version). */
  reloadRequired: Accessor<string | undefined>
  /** Another tab speaks a different protocol version. */
  foreignTab: Accessor<boolean>
  dismissForeignTab(): void
}

export function createWorkerNotices(connection: WorkerConnection): WorkerNotices {
  const [reloadRequired, setReloadRequired] = createSignal<string>()
  const [foreignTab, setForeignTab] = createSignal(false)
  // Once dismissed, stay quiet: the other tab keeps sending events until someone reloads it.
  let dismissed = false
  void connection.api
    .onNotice(
      callback((notice) => {
        if (notice.type === 'reload-required') setReloadRequired(notice.reason)
      }),
    )
    .catch((error: unknown) => log.warn('tabcode: could not subscribe to worker notices', error))
  connection.onForeignProtocol(() => {
    if (!dismissed) setForeignTab(true)
  })
  return {
    reloadRequired,
    foreignTab,
    dismissForeignTab() {
      dismissed = true
      setForeignTab(false)
    },
  }
}
