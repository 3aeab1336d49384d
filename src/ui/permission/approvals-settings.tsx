import { createResource, For, Show, createSignal, onCleanup, type JSX } from 'solid-js'
import type { Approval } from '../../core/schema'
import type { SessionEvent } from '../../core/event'
import type { ClientApi } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { ProblemNote } from '../kit/form/problem-note'

/**
 * The "always" answers remembered for a project, each with a Revoke button: opencode forgets them on restart, we
 * keep them, so they must be easy to review and take back.
 */
export type ApprovalsApi = Pick<ClientApi, 'listApprovals' | 'revokeApproval'>

export function ApprovalsSettings(props: {
  api: ApprovalsApi
  projectID: string
  /** Live events (another tab answering "always"); returns an unsubscribe. */
  listen?: (handler: (event: SessionEvent) => void) => () => void
}): JSX.Element {
  const [approvals, { mutate, refetch }] = createResource(() => props.projectID, (projectID) => props.api.listApprovals(projectID))
  const [problem, setProblem] = createSignal<string>()
  if (props.listen) {
    onCleanup(
      props.listen((event) => {
        if (event.type === 'approval.updated' && event.projectID === props.projectID) mutate(event.approvals)
      }),
    )
  }

  const revoke = async (approval: Approval) => {
    try {
      await props.api.revokeApproval(approval.id)
      mutate((list) => list?.filter((entry) => entry.id !== approval.id))
      setProblem(undefined)
    } catch (error) {
      setProblem(`Couldn't revoke it: ${errorMessage(error)}`)
      void refetch()
    }
  }

  return (
    <section class="settings-section" aria-labelledby="approvals-heading">
      <h3 id="approvals-heading">Remembered permissions</h3>
      <p class="quiet">What you allowed with "Always allow" in this project. Revoke one and the agent asks again.</p>
      <ProblemNote text={problem()} />
      <Show when={!approvals.loading} fallback={<p class="quiet">Loading…</p>}>
        <Show when={(approvals() ?? []).length > 0} fallback={<p class="quiet">Nothing is remembered yet.</p>}>
          <ul class="approval-list" aria-label="Remembered permissions">
            <For each={approvals()}>
              {(approval) => (
                <li class="approval-row">
                  <span>
                    <strong>{approval.permission}</strong> <code>{approval.pattern}</code>
                  </span>
                  <button
                    type="button"
                    class="button button-small"
                    aria-label={`Revoke ${approval.permission} ${approval.pattern}`}
                    onClick={() => void revoke(approval)}
                  >
                    Revoke
                  </button>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </Show>
    </section>
  )
}
