import { createUniqueId, For, Show, type JSX } from 'solid-js'
import type { PermissionRule } from '../../core/schema'
import type { AgentSummary } from '../../core/protocol'
import { PlusIcon, TrashIcon } from '../kit/icons/icons'
import { inheritedRules } from './agent-settings-draft'
import './agent-settings.css'

type PermissionAction = PermissionRule['action']

const ACTIONS: readonly PermissionAction[] = ['allow', 'ask', 'deny']

/**
 * The agent's permission rules in the order they are checked (the last rule whose permission and pattern match
 * decides): its own, read-only, then the user's, which can be added, changed and removed, and are saved with the form.
 */
export function PermissionRules(props: {
  id: string
  agent: AgentSummary
  rules: readonly { permission: string; pattern: string; action: PermissionAction }[]
  invalid: boolean
  onAdd: () => void
  onChange: (index: number, rule: Partial<{ permission: string; pattern: string; action: PermissionAction }>) => void
  onRemove: (index: number) => void
  fieldRef: (element: HTMLElement) => void
}): JSX.Element {
  const captionID = createUniqueId()
  const ownID = createUniqueId()
  let addButton!: HTMLButtonElement
  return (
    <section class="agent-rules" aria-labelledby={props.id}>
      <h4 id={props.id} class="settings-subheading">
        Permission rules
      </h4>
      <p id={captionID} class="field-hint">
        For each tool call the last rule whose permission and pattern match decides: allow, ask or deny. Your rules
        come after the agent's, so they win.
      </p>
      <Show when={inheritedRules(props.agent).length}>
        {/* Focusable so the keyboard can scroll a long list. */}
        <div class="agent-rules-scroll" tabindex="0" role="region" aria-label="The agent's rules" aria-describedby={captionID}>
          <table class="agent-rules-table">
            <thead>
              <tr>
                <th scope="col">Permission</th>
                <th scope="col">Pattern</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              <For each={inheritedRules(props.agent)}>
                {(rule) => (
                  <tr>
                    <td class="mono">{rule.permission}</td>
                    <td class="mono">{rule.pattern}</td>
                    <td>
                      <span class={`badge agent-action-${rule.action}`}>{rule.action}</span>
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </div>
      </Show>
      <h5 id={ownID} class="settings-subheading agent-own-rules">
        Your rules
      </h5>
      <Show when={props.rules.length} fallback={<p class="field-hint">None yet.</p>}>
        <ul class="agent-rule-editor" aria-labelledby={ownID}>
          <For each={props.rules}>
            {(rule, index) => (
              <li class="agent-rule-row">
                <input
                  ref={(element) => index() === 0 && props.fieldRef(element)}
                  class="text-input mono"
                  aria-label={`Rule ${index() + 1} permission`}
                  placeholder="edit, bash, * …"
                  spellcheck={false}
                  aria-invalid={props.invalid && !rule.permission.trim() ? 'true' : undefined}
                  value={rule.permission}
                  onInput={(event) => props.onChange(index(), { permission: event.currentTarget.value })}
                />
                <input
                  class="text-input mono"
                  aria-label={`Rule ${index() + 1} pattern`}
                  spellcheck={false}
                  aria-invalid={props.invalid && !rule.pattern.trim() ? 'true' : undefined}
                  value={rule.pattern}
                  onInput={(event) => props.onChange(index(), { pattern: event.currentTarget.value })}
                />
                <select
                  class="text-input"
                  aria-label={`Rule ${index() + 1} action`}
                  value={rule.action}
                  onChange={(event) => props.onChange(index(), { action: event.currentTarget.value as PermissionAction })}
                >
                  <For each={ACTIONS}>{(action) => <option value={action}>{action}</option>}</For>
                </select>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Remove rule ${index() + 1}`}
                  title="Remove"
                  onClick={() => {
                    props.onRemove(index())
                    addButton.focus()
                  }}
                >
                  <TrashIcon />
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <button type="button" ref={addButton} class="button button-small agent-add-rule" onClick={() => props.onAdd()}>
        <PlusIcon /> Add rule
      </button>
    </section>
  )
}
