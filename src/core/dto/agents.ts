import type { AgentMode } from '../agent'
import type { AgentOverride, ModelReference, PermissionRule } from '../schema'

/** An agent as pickers and the settings screen see it: its effective values, and what the user changed. */
export interface AgentSummary {
  name: string
  description: string
  mode: AgentMode
  hidden: boolean
  /** Switched off by the user: offered nowhere, but listed so settings can switch it back on. */
  disabled: boolean
  /** False for the default agent and the hidden ones. */
  canDisable: boolean
  /** The model it runs with instead of the prompt box's choice; absent when it follows that choice. */
  model?: ModelReference
  steps?: number
  temperature?: number
  /** The prompt in effect (the override, else the built-in one). */
  prompt: string
  defaultPrompt: string
  /** The configured ruleset in precedence order (later rules win). */
  permission: PermissionRule[]
  /** The stored override, as the settings form edits it. */
  override: AgentOverride
}

/** Replaces the override of one agent; an empty override goes back to the built-in agent. */
export interface AgentSettingsInput {
  name: string
  override: AgentOverride
}
