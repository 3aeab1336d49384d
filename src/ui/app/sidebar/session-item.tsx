import { For, onMount, Show, type JSX } from 'solid-js'
import type { SessionInfo } from '../../../core/schema'
import { formatDateTime, formatRelativeTime, isoTime, sessionTitle } from '../../kit/format/time'
import { ArchiveIcon, PencilIcon, TrashIcon, UnarchiveIcon } from '../../kit/icons/icons'
import { isRunning } from '../../kit/format/session-status-text'
import { TitleEditor } from '../../session/title-editor'
import { useSessionStore } from '../../store/session-store-context'
import { hashForSession } from '../../kit/routing/session-location'

/** One row of the sidebar: a link that opens the session, and its actions, each named after the session. */
export function SessionItem(props: {
  info: SessionInfo
  current: boolean
  now: number
  renaming: boolean
  onOpen: () => void
  onStartRename: () => void
  onRename: (title: string, refocus: boolean) => void
  onCancelRename: (refocus: boolean) => void
  onArchive: (archived: boolean) => void
  onDelete: () => void
  /** Opens another session (a subagent session listed under this one). */
  onOpenSession?: (sessionID: string) => void
}): JSX.Element {
  const store = useSessionStore()
  // Subagent sessions are not in the list itself; each row brings its own.
  onMount(() => void store.loadChildren?.(props.info.id).catch(() => {}))
  const title = () => sessionTitle(props.info.title)
  const archived = () => props.info.time.archived !== undefined
  const status = () => store.state.status[props.info.id]
  return (
    <li class="session-item" classList={{ 'session-item-current': props.current }} data-session-id={props.info.id}>
      <Show
        when={!props.renaming}
        fallback={<TitleEditor initial={props.info.title} onCommit={props.onRename} onCancel={props.onCancelRename} />}
      >
        <a
          class="session-link"
          href={hashForSession(props.info.id)}
          aria-current={props.current ? 'page' : undefined}
          onClick={(event) => {
            // Modified clicks keep their browser meaning (a new tab opens the same session from the fragment).
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
            event.preventDefault()
            props.onOpen()
          }}
        >
          <span class="session-title">{title()}</span>
          <span class="session-meta">
            <time datetime={isoTime(props.info.time.updated)} title={formatDateTime(props.info.time.updated)}>
              {formatRelativeTime(props.info.time.updated, props.now)}
            </time>
            <Show when={archived()}>
              <span class="badge">archived</span>
            </Show>
            <Show when={isRunning(status())}>
              <span class="session-busy" classList={{ 'session-busy-retry': status()?.type === 'retry' }}>
                <span class="status-dot" aria-hidden="true" />
                {status()?.type === 'retry' ? 'retrying' : 'working'}
              </span>
            </Show>
          </span>
        </a>
      </Show>
      <Show when={!props.renaming}>
        <div class="session-actions">
          <button
            type="button"
            class="icon-button"
            aria-label={`Rename session "${title()}"`}
            title="Rename"
            onClick={() => props.onStartRename()}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            class="icon-button"
            aria-label={`${archived() ? 'Unarchive' : 'Archive'} session "${title()}"`}
            title={archived() ? 'Unarchive' : 'Archive'}
            onClick={() => props.onArchive(!archived())}
          >
            <Show when={archived()} fallback={<ArchiveIcon />}>
              <UnarchiveIcon />
            </Show>
          </button>
          <button
            type="button"
            class="icon-button"
            aria-label={`Delete session "${title()}"`}
            title="Delete"
            onClick={() => props.onDelete()}
          >
            <TrashIcon />
          </button>
        </div>
      </Show>
      <Show when={(store.state.children[props.info.id] ?? []).length > 0}>
        <ul class="session-children" aria-label={`Subagent sessions of "${title()}"`}>
          <For each={store.state.children[props.info.id]}>
            {(childID) => (
              <Show when={store.state.sessions[childID]}>
                {(child) => (
                  <li class="session-child" classList={{ 'session-item-current': store.current.id() === childID }}>
                    <a
                      class="session-link"
                      aria-label={`Subagent session: ${sessionTitle(child().title)}`}
                      href={hashForSession(childID)}
                      aria-current={store.current.id() === childID ? 'page' : undefined}
                      onClick={(event) => {
                        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
                        event.preventDefault()
                        props.onOpenSession?.(childID)
                      }}
                    >
                      <span class="session-title">{sessionTitle(child().title)}</span>
                    </a>
                  </li>
                )}
              </Show>
            )}
          </For>
        </ul>
      </Show>
    </li>
  )
}
