import type { AgentMode, AgentSource } from '../agent'
import type { AgentOverride, ModelReference, PermissionRule } from '../schema'

/** An agent as pickers and the settings screen see it: its effective values, and what the user changed. */
export interface AgentSummary {
  name: string
  description: string
  mode: AgentMode
  /** Built in, from a project file (`path`), or added by the user in Settings. */
  source: AgentSource
  /** The project file that defines or changes it, relative to the project root. */
  path?: string
  hidden: boolean
  /** Switched off by the user: offered nowhere, but listed so settings can switch it back on. */
  disabled: boolean
  /** False for the default agent and the hidden ones. */
  canDisable: boolean
  /** The model it runs with instead of the prompt box's choice; absent when it follows that choice. */
  model?: ModelReference
  steps?: number
  temperature?: number
  /** The prompt in effect (the override, else the agent's own). */
  prompt: string
  /** The prompt before the user's override: the built-in one, or the project file's. */
  defaultPrompt: string
  /** The configured ruleset in precedence order (later rules win). */
  permission: PermissionRule[]
  /** The stored override, as the settings form edits it. */
  override: AgentOverride
}

/** Replaces the override of one agent; an empty override goes back to the built-in agent. */
export interface AgentSettingsInput {
  name: string
  /** Whose agent files count (the current project unless named). */
  projectID?: string
  override: AgentOverride
}

/** A project agent file that cannot be used, for Settings: which file, and what is wrong (line included when known). */
export interface AgentFileProblem {
  name: string
  path: string
  problem: string
}
