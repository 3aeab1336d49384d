import { createEffect, createMemo, createSignal } from 'solid-js'
import { log } from '../../core/log'
import type { AgentSummary } from '../../core/protocol'
import type { ModelReference } from '../../core/schema'
import { pickableAgents } from '../settings/agent-settings-draft'
import type { SessionStore } from '../store/create-session-store'

export const DEFAULT_AGENT = 'build'

/**
 * The prompt box's agent: the draft's choice, the agents the worker offers for the session's project, and what
 * choosing one brings along. `onModel` hears the model an agent with its own model brings.
 */
export function createAgentChoice(options: { store: SessionStore; sessionID: string; onModel: (reference: ModelReference) => void }) {
  const { store, sessionID } = options
  const [agent, setAgent] = createSignal(store.drafts.get(sessionID).agent ?? DEFAULT_AGENT)
  // Undefined until the worker answers; the picker then shows only the current agent.
  const [agents, setAgents] = createSignal<AgentSummary[]>()
  const choices = createMemo(() => {
    const list = agents()
    return list ? pickableAgents(list) : undefined
  })
  const names = createMemo(() => {
    const found = choices()?.map((summary) => summary.name)
    return found?.length ? found : [agent()]
  }, undefined, {
    equals: (previous, next) => previous.join('\n') === next.join('\n'),
  })
  const summary = (name: string) => choices()?.find((entry) => entry.name === name)
  // Settings may have changed an agent since; asking again on focus keeps the list and the agents' models fresh.
  // The session's project's agents: its `.opencode/agent` files count too.
  const load = () => {
    const projectID = store.state.sessions[sessionID]?.projectID
    return store.api.listAgents(projectID ? { projectID } : {}).then(setAgents, (error: unknown) => log.warn('tabcode: could not list agents', error))
  }

  function choose(name: string) {
    setAgent(name)
    store.drafts.update(sessionID, { agent: name })
    // Like opencode's picker: an agent with its own model brings it along.
    const own = summary(name)?.model
    if (own) {
      options.onModel(own)
      store.drafts.update(sessionID, { model: own })
    }
  }

  createEffect(() => {
    const list = choices()
    // The draft's agent was disabled (or no longer exists): fall back to the default instead of sending to nothing.
    if (list && agent() !== DEFAULT_AGENT && !list.some((entry) => entry.name === agent())) choose(DEFAULT_AGENT)
  })

  return { agent, agents, names, summary, load, choose }
}
