import { createEffect, createMemo, createSignal, For, on, onCleanup, Show, type JSX } from 'solid-js'
import type { FileDiff } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import { formatDateTime } from '../kit/format/time'
import { DiffView } from '../kit/diff/diff-view'
import type { WorkspaceChanges } from './create-workspace-changes'
import type { TurnChanges } from './session-activity'
import type { WorkspaceApi } from './workspace-api'

const WHOLE_SESSION = 'session'

type Loaded = { status: 'loading' } | { status: 'loaded'; diffs: FileDiff[] } | { status: 'error'; message: string }

/**
 * What the session changed: the net diff of all its turns (asked from the worker, again whenever `mark` moves),
 * or the diff of one turn (carried by the user message that started it). The files the user saved in the editor
 * show apart, above, as the user's. The session's net spans its first turn to its last, so it holds the user's
 * edits made between turns; a turn's own diff starts from the user's version, so it is the agent's alone. The
 * user's edits are asked again after every write to the project (`changes`), since a save is no turn.
 */
export function ChangesView(props: {
  api: Pick<WorkspaceApi, 'sessionDiffs' | 'userEdits' | 'outsideEdits'>
  sessionID: string
  turns: TurnChanges[]
  mark: string
  changes?: WorkspaceChanges
}): JSX.Element {
  const [scope, setScope] = createSignal(WHOLE_SESSION)
  const [session, setSession] = createSignal<Loaded>({ status: 'loading' })
  const [userEdits, setUserEdits] = createSignal<FileDiff[]>([])
  const [outsideEdits, setOutsideEdits] = createSignal<FileDiff[]>([])
  let request = 0
  let userRequest = 0

  async function loadUserEdits(sessionID: string): Promise<void> {
    const ticket = ++userRequest
    try {
      // Another program's changes to a folder project's files (the worker has none for a stored project).
      const [diffs, outside] = await Promise.all([props.api.userEdits(sessionID), props.api.outsideEdits(sessionID)])
      if (ticket !== userRequest) return
      setUserEdits(diffs)
      setOutsideEdits(outside)
    } catch {
      // The agent's changes still show; the user's come back with the next refresh.
    }
  }
  if (props.changes) onCleanup(props.changes.subscribe((change) => change.type !== 'mkdir' && void loadUserEdits(props.sessionID)))

  async function load(sessionID: string): Promise<void> {
    const ticket = ++request
    try {
      const diffs = await props.api.sessionDiffs(sessionID)
      if (ticket === request) setSession({ status: 'loaded', diffs })
    } catch (error) {
      if (ticket === request) setSession({ status: 'error', message: errorMessage(error) })
    }
  }

  createEffect(
    on(
      () => props.sessionID,
      (sessionID) => {
        setScope(WHOLE_SESSION)
        setSession({ status: 'loading' })
        setUserEdits([])
        setOutsideEdits([])
        void load(sessionID)
        void loadUserEdits(sessionID)
      },
    ),
  )
  createEffect(on(() => props.mark, () => void load(props.sessionID), { defer: true }))

  const turn = createMemo(() => props.turns.find((candidate) => candidate.messageID === scope()))
  const sessionDiffs = () => {
    const current = session()
    return current.status === 'loaded' ? current.diffs : undefined
  }
  const problem = () => {
    const current = session()
    return current.status === 'error' ? current.message : undefined
  }

  return (
    <div class="changes-view">
      <div class="changes-toolbar">
        <label class="changes-scope">
          <span class="visually-hidden">Show changes of</span>
          <select class="text-input" value={turn() ? scope() : WHOLE_SESSION} onChange={(event) => setScope(event.currentTarget.value)}>
            <option value={WHOLE_SESSION}>Whole session</option>
            <For each={props.turns}>
              {(candidate) => (
                <option value={candidate.messageID}>
                  Turn {formatDateTime(candidate.created)}
                  {candidate.prompt ? ` · ${candidate.prompt}` : ''}
                </option>
              )}
            </For>
          </select>
        </label>
        <Show when={!turn()}>
          <button
            type="button"
            class="button button-small button-quiet"
            onClick={() => {
              void load(props.sessionID)
              void loadUserEdits(props.sessionID)
            }}
          >
            Refresh changes
          </button>
        </Show>
      </div>
      <Show
        when={turn()}
        fallback={
          <Show
            when={sessionDiffs()}
            fallback={
              <p class="workspace-note" classList={{ problem: !!problem(), quiet: !problem() }}>
                {problem() ? `Couldn't read the changes: ${problem()}` : 'Reading changes…'}
              </p>
            }
          >
            {(diffs) => (
              <>
                <Show when={outsideEdits().length > 0}>
                  <h3 class="changes-heading">Changed outside</h3>
                  <DiffView diffs={outsideEdits()} label="Files changed outside tabcode" />
                </Show>
                <Show
                  when={userEdits().length > 0}
                  fallback={<DiffView diffs={diffs()} label="Changes in this session" empty="This session has not changed any files yet." />}
                >
                  <h3 class="changes-heading">Your edits</h3>
                  <DiffView diffs={userEdits()} label="Your edits in this session" />
                  <h3 class="changes-heading">All changes in this session</h3>
                  <DiffView diffs={diffs()} label="Changes in this session" empty="The agent has not changed any files yet." />
                </Show>
              </>
            )}
          </Show>
        }
      >
        {(selected) => <DiffView diffs={selected().diffs} label="Changes in this turn" />}
      </Show>
    </div>
  )
}
