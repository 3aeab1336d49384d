import { createSignal, createUniqueId, For, Show, type Accessor, type JSX } from 'solid-js'
import type { AgentFileProblem, AgentSettingsInput, AgentSummary, ClientApi, ProviderSummary } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { PencilIcon, PlusIcon } from '../kit/icons/icons'
import { createNewestAnswer } from '../kit/load/newest-answer'
import { describeSettings, editableAgents, modeLabel } from './agent-settings-draft'
import { ProblemNote } from '../kit/form/problem-note'
import './agent-settings.css'

export type AgentSettingsApi = Pick<ClientApi, 'listAgents' | 'saveAgentSettings' | 'listAgentFileProblems'>

export interface AgentSettingsStore {
  agents: Accessor<AgentSummary[]>
  /** The project's agent files that cannot be used, with what is wrong. */
  problems: Accessor<AgentFileProblem[]>
  loading: Accessor<boolean>
  /** Why the last load failed, worded for the user. */
  error: Accessor<string | undefined>
  refresh(): Promise<void>
  /** Throws the worker's named errors for the form to show; success replaces the list. */
  save(input: AgentSettingsInput): Promise<AgentSummary[]>
}

/** The agents as the settings screen sees them. Owner-bound; loaded on creation and after each save. */
export function createAgentSettings(api: AgentSettingsApi): AgentSettingsStore {
  const [agents, setAgents] = createSignal<AgentSummary[]>([])
  const [problems, setProblems] = createSignal<AgentFileProblem[]>([])
  const [loading, setLoading] = createSignal(true)
  const [error, setError] = createSignal<string>()
  const newest = createNewestAnswer()

  async function refresh() {
    await newest.load(() => Promise.all([api.listAgents(), api.listAgentFileProblems()]), {
      answer: ([next, broken]) => {
        setAgents(next)
        setProblems(broken)
        setError(undefined)
      },
      failure: (caught) => setError(`Couldn't load agents: ${errorMessage(caught)}`),
      settled: () => setLoading(false),
    })
  }
  void refresh()

  return {
    agents,
    problems,
    loading,
    error,
    refresh,
    async save(input) {
      const next = await api.saveAgentSettings(input)
      newest.supersede()
      setAgents(next)
      setLoading(false)
      return next
    },
  }
}

/** Where an agent comes from, for its row: nothing for a built-in one the user may change. */
function originLabel(agent: AgentSummary): string | undefined {
  if (agent.source === 'settings') return 'added in Settings'
  if (agent.source === 'project') return `project file ${agent.path ?? ''}`.trim()
  if (agent.path) return `changed by project file ${agent.path}`
  return undefined
}

/** The settings overview's list of agents, each with what was changed about it and an edit button. */
export function AgentSection(props: {
  store: AgentSettingsStore
  providers: ProviderSummary[]
  onEdit: (agent: AgentSummary) => void
  onAdd: () => void
}): JSX.Element {
  const headingID = createUniqueId()
  const hintID = createUniqueId()
  const problemsID = createUniqueId()
  const agents = () => editableAgents(props.store.agents())
  return (
    <section class="settings-section" aria-labelledby={headingID} aria-describedby={hintID}>
      <h3 id={headingID} class="settings-heading">
        Agents
      </h3>
      <p id={hintID} class="field-hint agent-section-hint">
        Primary agents are picked in the prompt box; subagents are started by another agent for a part of its task.
      </p>
      <ProblemNote text={props.store.error()} />
      <Show when={agents().length} fallback={<p class="settings-empty">{props.store.loading() ? 'Loading agents…' : 'No agents.'}</p>}>
        <ul class="provider-list">
          <For each={agents()}>
            {(agent) => (
              <li class="provider-row" classList={{ 'agent-row-disabled': agent.disabled }}>
                <div class="provider-summary">
                  <span class="provider-name">
                    {agent.name} <span class="badge">{modeLabel(agent)}</span>
                    <Show when={originLabel(agent)}>{(origin) => <span class="badge agent-origin">{origin()}</span>}</Show>
                  </span>
                  <span class="provider-meta" title={agent.description}>
                    {describeSettings(agent, props.providers)}
                  </span>
                </div>
                <button type="button" class="icon-button" aria-label={`Edit agent ${agent.name}`} title="Edit" onClick={() => props.onEdit(agent)}>
                  <PencilIcon />
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={props.store.problems().length}>
        <h4 id={problemsID} class="settings-subheading">
          Agent files that cannot be used
        </h4>
        <ul class="agent-problems" aria-labelledby={problemsID}>
          <For each={props.store.problems()}>{(entry) => <li class="problem mono">{entry.problem}</li>}</For>
        </ul>
      </Show>
      <button type="button" class="button button-small agent-add" onClick={() => props.onAdd()}>
        <PlusIcon /> Add agent
      </button>
    </section>
  )
}
