import { z } from 'zod'
import { ModelReferenceSchema, SettingSchema, type ModelReference } from './schema'

/** Unlike opencode, which retries for as long as the error stays retryable, a turn gives up after this many. */
export const DEFAULT_RETRY_LIMIT = 8

/**
 * The app-wide settings as the worker hands them out: the stored rows (`SettingSchema`, one per key) folded into one
 * object, defaults filled in. Agent overrides and the current project are rows too, but have their own views.
 */
export const SettingsSchema = z.object({
  defaultModel: ModelReferenceSchema.optional(),
  smallModel: ModelReferenceSchema.optional(),
  retryLimit: z.number().int().min(0).max(100),
  /** `auto`: WebContainer when a command needs Node.js or npm (booted on demand); `local`: always the offline workspace. */
  workspaceBackend: z.enum(['auto', 'local']),
  /** Compact automatically when a session nears its model's context limit (default on). */
  compactionAuto: z.boolean(),
  /** Clear old tool outputs from what the model sees, keeping them stored and visible (default on). */
  compactionPrune: z.boolean(),
})
export type Settings = z.infer<typeof SettingsSchema>

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  retryLimit: DEFAULT_RETRY_LIMIT,
  workspaceBackend: 'auto',
  compactionAuto: true,
  compactionPrune: true,
})

/** Folds stored setting rows over the defaults. A row this build can't read (written by a newer one) is skipped. */
export function settingsFromRows(rows: readonly unknown[]): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS }
  for (const row of rows) {
    const parsed = SettingSchema.safeParse(row)
    if (!parsed.success) continue
    const setting = parsed.data
    if (setting.key === 'model.default') settings.defaultModel = setting.value
    else if (setting.key === 'model.small') settings.smallModel = setting.value
    else if (setting.key === 'retry.limit') settings.retryLimit = setting.value
    else if (setting.key === 'workspace.backend') settings.workspaceBackend = setting.value
    else if (setting.key === 'compaction.auto') settings.compactionAuto = setting.value
    else if (setting.key === 'compaction.prune') settings.compactionPrune = setting.value
  }
  return settings
}

export interface ModelChoice {
  /** The model chosen for this prompt (the prompt box's picker, a queued prompt's, an agent's own). */
  explicit?: ModelReference | undefined
  /** The newest prompt of the conversation: the model the user last ran it with. */
  lastUser?: { model?: ModelReference | undefined } | undefined
  /** The session's own model, set by its last prompt. */
  session?: { model?: ModelReference | undefined } | undefined
  settings?: Pick<Settings, 'defaultModel'> | undefined
}

/**
 * Which model runs a prompt, the one rule for every caller: the one chosen for it, else the newest prompt's, else the
 * session's, else the default model; undefined when none is set. A caller passes only what applies to it.
 */
export function modelForPrompt({ explicit, lastUser, session, settings }: ModelChoice): ModelReference | undefined {
  if (explicit) return explicit
  if (lastUser?.model) return lastUser.model
  // Only the reference: an imported session's model may carry its row id and an opencode variant.
  if (session?.model) return { providerID: session.model.providerID, modelID: session.model.modelID }
  return settings?.defaultModel
}
