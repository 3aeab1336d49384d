import { createEffect, createMemo, createSignal, on, onCleanup, Show, type Accessor, type JSX } from 'solid-js'
import type { WorkspaceInfo } from '../../core/protocol'
import { afterFirstFrame } from '../kit/load/after-first-frame'
import { errorMessage } from '../kit/format/error'
import { SidebarIcon } from '../kit/icons/icons'
import { useSessionStore } from '../store/session-store-context'
import { isNarrow, WORKSPACE_PANEL_ID, type PanelState } from './create-panel-state'
import { createWorkspaceChanges } from './create-workspace-changes'
import type { PreviewServer } from './preview-pane'
import type { WebContainerControl } from './backend-badge'
import { bashCalls, changeMark, turnChanges, type TurnChanges } from './session-activity'
import type { ToolPart } from '../../core/schema'
import type { EventSource, WorkspaceApi } from './workspace-api'
import { WorkspacePanel, type WorkspaceTab } from './workspace-panel'

const NO_PREVIEWS: PreviewServer[] = []
const NO_CALLS: ToolPart[] = []
const NO_TURNS: TurnChanges[] = []

/**
 * The workspace panel's place in the workbench: a slim rail while it is hidden, the panel while it is shown (a
 * drawer on narrow screens). It feeds the panel from the open session (bash calls, turn diffs) and from the worker.
 */
export function WorkspaceDock(props: {
  connection: { api: WorkspaceApi; listen: EventSource }
  projectID: string
  state: PanelState
  /** Servers open in WebContainer (see createPreviewServers); none without it. */
  previews?: Accessor<PreviewServer[]>
  /** What the page learnt when it started WebContainer (or gave up on it); newer than what was read before. */
  info?: Accessor<WorkspaceInfo | undefined>
  /** Lets the user start WebContainer by hand (it otherwise starts when a command needs it). */
  webContainer?: WebContainerControl
}): JSX.Element {
  const store = useSessionStore()
  const api = props.connection.api
  const changes = createWorkspaceChanges(props.connection.listen, () => props.projectID)
  const [info, setInfo] = createSignal<WorkspaceInfo>()
  const [problem, setProblem] = createSignal<string>()
  // Mounted on first open, then kept (hidden) so the tree and the terminal keep their state across toggles.
  const [mounted, setMounted] = createSignal(false)
  // The panel (its tabs, the file tree and their reads) waits for the first frame, in a task of its own: mounted
  // with the sidebar and the prompt, it made the first screen's task and that frame's layout long tasks (issue 18).
  // Until then an empty panel of the same size holds its place, so nothing moves when it arrives.
  const [settled, setSettled] = createSignal(false)
  onCleanup(afterFirstFrame(() => setSettled(true)))

  // Only the newest answer counts: a slow read must not undo a newer one, or what the page reported since.
  let request = 0
  const readInfo = (projectID: string) => {
    const ticket = ++request
    setProblem(undefined)
    api.workspaceInfo(projectID).then(
      (result) => {
        if (ticket === request && result.projectID === props.projectID) setInfo(result)
      },
      (error: unknown) => {
        if (ticket === request) setProblem(errorMessage(error))
      },
    )
  }
  createEffect(
    on(
      () => [props.state.open(), props.projectID] as const,
      ([open, projectID]) => {
        if (!open) return
        setMounted(true)
        if (info()?.projectID !== projectID) {
          setInfo(undefined)
          readInfo(projectID)
        }
      },
    ),
  )

  createEffect(
    on(
      () => props.info?.(),
      (hint) => {
        if (hint?.projectID !== props.projectID) return
        request++
        setProblem(undefined)
        setInfo(hint)
      },
    ),
  )
  // The root itself changes when another backend takes over: ask again which one serves (once the panel is up).
  onCleanup(
    changes.subscribe((change) => {
      const current = info()
      if (current && change.path === current.root) readInfo(props.projectID)
    }),
  )

  // Each of these walks every loaded message and part, and a memo runs on every change it depends on whether or not
  // anything shows it: in a long session that cost a streamed reply 20–40 ms per frame. Only the tab on screen pays.
  const [tab, setTab] = createSignal<WorkspaceTab>('files')
  const showing = (which: WorkspaceTab) => props.state.open() && tab() === which
  const messages = () => store.current.messages()
  const calls = createMemo(() => (showing('terminal') ? bashCalls(messages(), store.partsOf) : NO_CALLS))
  const turns = createMemo(() => (showing('changes') ? turnChanges(messages(), store.partsOf) : NO_TURNS))
  const mark = createMemo(() => (showing('changes') ? changeMark(messages(), store.partsOf) : ''))

  return (
    <div class="workspace-dock" data-open={props.state.open() ? 'true' : 'false'}>
      <Show when={!props.state.open()}>
        <div class="workspace-rail">
          <button
            type="button"
            class="icon-button workspace-show"
            data-workspace-toggle
            aria-label="Show workspace"
            title="Show workspace"
            aria-expanded="false"
            aria-controls={WORKSPACE_PANEL_ID}
            onClick={() => props.state.show()}
          >
            <SidebarIcon />
          </button>
        </div>
      </Show>
      <Show when={props.state.open()}>
        <div class="workspace-scrim" aria-hidden="true" onClick={() => props.state.hide()} />
      </Show>
      <Show
        when={mounted() && settled()}
        fallback={
          <Show when={props.state.open()}>
            <div class="workspace-frame" aria-hidden="true">
              <div class="workspace-panel" />
            </div>
          </Show>
        }
      >
        <div
          class="workspace-frame"
          hidden={!props.state.open()}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !event.defaultPrevented && isNarrow()) props.state.hide()
          }}
        >
          <WorkspacePanel
            id={WORKSPACE_PANEL_ID}
            api={api}
            projectID={props.projectID}
            info={info()}
            problem={problem()}
            changes={changes}
            sessionID={store.current.id()}
            calls={calls()}
            turns={turns()}
            changeMark={mark()}
            previews={props.previews?.() ?? NO_PREVIEWS}
            {...(props.webContainer ? { webContainer: props.webContainer } : {})}
            onHide={() => props.state.hide()}
            {...(props.webContainer ? { onStartWebContainer: () => props.webContainer!.start() } : {})}
            onTab={setTab}
          />
        </div>
      </Show>
    </div>
  )
}
