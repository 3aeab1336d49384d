import { createEffect, createMemo, createSignal, For, on, Show, type JSX } from 'solid-js'
import type { FileDiff } from '../../core/schema'
import { errorMessage } from '../format/error'
import { formatDateTime } from '../format/time'
import { DiffView } from './diff-view'
import type { TurnChanges } from './session-activity'
import type { WorkspaceApi } from './workspace-api'

const WHOLE_SESSION = 'session'

type Loaded = { status: 'loading' } | { status: 'loaded'; diffs: FileDiff[] } | { status: 'error'; message: string }

/**
 * What the session changed: the net diff of all its turns (asked from the worker, again whenever `mark` moves),
 * or the diff of one turn (carried by the user message that started it).
 */
export function ChangesView(props: { api: Pick<WorkspaceApi, 'sessionDiffs'>; sessionID: string; turns: TurnChanges[]; mark: string }): JSX.Element {
  const [scope, setScope] = createSignal(WHOLE_SESSION)
  const [session, setSession] = createSignal<Loaded>({ status: 'loading' })
  let request = 0

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
        void load(sessionID)
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
          <button type="button" class="button button-small button-quiet" onClick={() => void load(props.sessionID)}>
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
            {(diffs) => <DiffView diffs={diffs()} label="Changes in this session" empty="This session has not changed any files yet." />}
          </Show>
        }
      >
        {(selected) => <DiffView diffs={selected().diffs} label="Changes in this turn" />}
      </Show>
    </div>
  )
}
