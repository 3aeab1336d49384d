import { createSignal, lazy, Show, useContext, type JSX } from 'solid-js'
import type { SessionInfo } from '../../core/schema'
import { formatDateTime, isoTime, sessionTitle } from '../kit/format/time'
import { SessionHistoryControls } from '../history/session-history-controls'
import { PencilIcon } from '../kit/icons/icons'
import { useSessionStore } from '../store/session-store-context'
import { SessionStatusText } from './session-status'
import { TitleEditor } from './title-editor'
import { UsageLine } from './usage-line'
import { ContextMeter } from './context-meter'
import { ProjectTrustContext } from '../project/create-project-trust'
import { UntrustedBadge } from '../project/untrusted-marker'
import { UnreviewedBadge } from '../project/unreviewed-marker'

// Opened on demand: kept out of the first-paint bundle.
const ShareDialog = lazy(() => import('../share/share-dialog').then((module) => ({ default: module.ShareDialog })))

export const SESSION_HEADING_ID = 'session-heading'

/** Title (renamable in place), when it began, what it has cost so far, its history controls and sharing. */
export function SessionHeader(props: { info: SessionInfo }): JSX.Element {
  const store = useSessionStore()
  const trust = useContext(ProjectTrustContext)
  const [editing, setEditing] = createSignal(false)
  const [sharing, setSharing] = createSignal(false)
  let renameButton: HTMLButtonElement | undefined
  const refocus = (should: boolean) => should && requestAnimationFrame(() => renameButton?.focus())
  return (
    <header class="session-header">
      <div class="session-title-row">
        <Show
          when={!editing()}
          fallback={
            <TitleEditor
              class="session-title-input"
              initial={props.info.title}
              onCommit={(title, focusBack) => {
                setEditing(false)
                refocus(focusBack)
                void store.rename(props.info.id, title)
              }}
              onCancel={(focusBack) => {
                setEditing(false)
                refocus(focusBack)
              }}
            />
          }
        >
          <h1 id={SESSION_HEADING_ID} class="session-heading" title={props.info.title}>
            {sessionTitle(props.info.title)}
          </h1>
          <button
            ref={renameButton}
            type="button"
            class="icon-button"
            aria-label="Rename this session"
            title="Rename"
            onClick={() => setEditing(true)}
          >
            <PencilIcon />
          </button>
        </Show>
        <Show when={props.info.time.archived !== undefined}>
          <span class="badge">archived</span>
        </Show>
        <Show when={trust?.projectID === props.info.projectID && trust}>
          {(shown) => (
            <>
              <UntrustedBadge trust={shown()} />
              <UnreviewedBadge trust={shown()} />
            </>
          )}
        </Show>
        <SessionStatusText status={store.state.status[props.info.id]} />
        <button type="button" class="button button-small session-share" title="Share a link to this session, or export it as a file" onClick={() => setSharing(true)}>
          Share
        </button>
      </div>
      <p class="session-facts">
        <span>
          Created <time datetime={isoTime(props.info.time.created)}>{formatDateTime(props.info.time.created)}</time>
        </span>
        <span class="session-totals" title="Session totals">
          <UsageLine tokens={props.info.tokens} cost={props.info.cost ?? 0} />
        </span>
        <ContextMeter sessionID={props.info.id} />
      </p>
      <SessionHistoryControls info={props.info} />
      <Show when={sharing()}>
        <ShareDialog api={store.api} sessionID={props.info.id} title={sessionTitle(props.info.title)} onClose={() => setSharing(false)} />
      </Show>
    </header>
  )
}
