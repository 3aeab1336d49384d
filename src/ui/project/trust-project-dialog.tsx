import { createSignal, createUniqueId, For, onMount, Show, type JSX } from 'solid-js'
import { Dialog } from '../kit/dialog/dialog'
import type { ProjectTrustStore } from './create-project-trust'
import { exceptionsText, otherEffects, withheldReason } from './trust-text'
import { createAttempt } from '../kit/dialog/create-attempt'
import { DialogActions } from '../kit/dialog/dialog-actions'
import './trust.css'

/**
 * Trusting a project, taking trust back, or (`review`, in a trusted project) reviewing the allow rules written into
 * its files since the user last saw them. Before trusting, the user reads what the project's own files would
 * change, rule by rule (agent, permission, pattern, action, file, the ask and deny rules after it) and the other
 * effects (built-in agents they change, commands that switch agent or model); the rules shown are the ones that
 * then apply, and a review lists only the rules waiting. Cancel has the first focus, so a stray Enter allows nothing.
 */
export function TrustProjectDialog(props: { trust: ProjectTrustStore; onClose: () => void; review?: boolean }): JSX.Element {
  // What the dialog does is decided when it opens; another tab changing it meanwhile shows in the list after.
  const trusting = !props.trust.trusted()
  const reviewing = !trusting && props.review === true
  const attempt = createAttempt()
  const busy = attempt.busy
  const rulesID = createUniqueId()
  const effectsID = createUniqueId()
  // The files may have changed since the marker last counted them: the review is read again for the decision.
  const [reviewed, setReviewed] = createSignal(false)
  onMount(() => void props.trust.refresh().finally(() => setReviewed(true)))
  const review = () => (reviewed() ? props.trust.report()?.review : undefined)
  // The rules on screen: what Trust or Allow lets apply, and nothing else.
  const rules = () => (reviewing ? props.trust.unreviewed() : (review()?.rules ?? []))

  const act = () =>
    attempt.run(async () => {
      await props.trust.setTrusted(trusting || reviewing, rules())
      props.onClose()
    })

  return (
    <Dialog
      title={reviewing ? `Review new rules in ${props.trust.name}` : trusting ? `Trust ${props.trust.name}?` : `Stop trusting ${props.trust.name}?`}
      class="trust-dialog"
      description={
        reviewing ? (
          <p>
            These rules were written into the project's agent files after you trusted it: by the agent's tools, or outside tabcode.
            Until you allow them, the agents ask as if they were not there. Allow them only if you wrote them or have read these files.
          </p>
        ) : trusting ? (
          <p>
            Once trusted, this project's own files (<code>.opencode/agent</code>, <code>.opencode/command</code>) can let the agents
            act without asking and change the built-in agents. Trust it only if you have read these files or trust whoever made them.
            You can stop trusting it in Settings.
          </p>
        ) : (
          <p>Its files will only be able to make rules stricter (ask or deny) again.</p>
        )
      }
      onClose={() => !busy() && props.onClose()}
    >
      <Show when={review()} fallback={<p class="quiet">Reading the project's files…</p>}>
        {(current) => (
          <>
            <h3 id={rulesID} class="trust-heading">
              {reviewing ? 'Rules waiting for your review' : trusting ? 'Rules its files would add' : 'Rules from its files that stop applying'}
            </h3>
            <Show
              when={rules().length}
              fallback={<p class="quiet">{reviewing ? 'None: every rule in its files has been reviewed.' : 'None: its files have no rule that waits for trust.'}</p>}
            >
              {/* Focusable so the keyboard can scroll a long list. */}
              <div class="trust-rules-scroll" tabindex="0" role="region" aria-labelledby={rulesID}>
                <table class="trust-rules" aria-labelledby={rulesID}>
                  <thead>
                    <tr>
                      <th scope="col">Agent</th>
                      <th scope="col">Permission</th>
                      <th scope="col">Pattern</th>
                      <th scope="col">Action</th>
                      <th scope="col">File</th>
                      <th scope="col">Except</th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={rules()}>
                      {(rule) => (
                        <tr title={withheldReason(rule)}>
                          <td>{rule.agent}</td>
                          <td class="mono">{rule.permission}</td>
                          <td class="mono">{rule.pattern}</td>
                          <td>{rule.action}</td>
                          <td class="mono">{rule.path}</td>
                          <td class="mono">{exceptionsText(rule)}</td>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </div>
            </Show>
            <Show when={!reviewing && otherEffects(current()).length}>
              <h3 id={effectsID} class="trust-heading">
                Other effects
              </h3>
              <ul class="trust-effects" aria-labelledby={effectsID}>
                <For each={otherEffects(current())}>{(effect) => <li>{effect}</li>}</For>
              </ul>
            </Show>
          </>
        )}
      </Show>
      <DialogActions
        attempt={attempt}
        focusCancel
        onCancel={() => props.onClose()}
        action={{
          label: reviewing ? 'Allow them' : trusting ? 'Trust this project' : 'Stop trusting',
          tone: trusting || reviewing ? 'danger' : 'primary',
          disabled: busy() || !review() || (reviewing && !rules().length),
          onClick: () => void act(),
        }}
      />
    </Dialog>
  )
}
