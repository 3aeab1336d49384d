import { createMemo, createSignal, lazy, Show, type JSX } from 'solid-js'
import type { SessionInfo } from '../../core/schema'
import { useSessionStore } from '../store/session-store-context'
import { ForkLinks, forkRevision } from './fork-links'
import { useHistoryActions } from './history-context'
import './history.css'

// Opened on demand: kept out of the first-paint bundle.
const ModelViewDialog = lazy(() => import('./model-view-dialog').then((module) => ({ default: module.ModelViewDialog })))

/** The session header's history controls: its branch family, "Compact now" and "What the model sees". */
export function SessionHistoryControls(props: { info: SessionInfo }): JSX.Element {
  const store = useSessionStore()
  const history = useHistoryActions()
  const [viewing, setViewing] = createSignal(false)
  const [compacting, setCompacting] = createSignal(false)
  const revision = createMemo(() => forkRevision(store.state.sessions, props.info.id))
  const compact = async () => {
    setCompacting(true)
    try {
      await history.compact()
    } finally {
      setCompacting(false)
    }
  }
  return (
    <div class="session-history">
      <ForkLinks
        info={props.info}
        load={() => store.api.forks(props.info.id)}
        revision={revision}
        known={(sessionID) => store.state.sessions[sessionID]}
        onOpen={(session) => history.open({ session })}
      />
      <span class="session-history-actions">
        <button
          type="button"
          class="button button-small button-quiet"
          disabled={history.lockedReason() !== undefined || compacting()}
          title={history.lockedReason() ?? 'Summarise the conversation so far; the turns stay readable here and it can be undone'}
          onClick={() => void compact()}
        >
          Compact now
        </button>
        <button type="button" class="button button-small button-quiet" aria-haspopup="dialog" onClick={() => setViewing(true)}>
          What the model sees
        </button>
      </span>
      <Show when={viewing()}>
        <ModelViewDialog load={() => store.api.modelView(props.info.id)} onClose={() => setViewing(false)} />
      </Show>
    </div>
  )
}
