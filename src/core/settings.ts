import { z } from 'zod'
// From schema/common directly: schema/index re-exports this file's row schemas.
import { idSchema, ModelReferenceSchema, PermissionRulesetSchema, type ModelReference } from './schema/common'
import { SyncSetupSchema } from './sync-state'
import { DEFAULT_TAIL_TURNS, PRESERVE_RECENT_TOKENS_MAX, TAIL_TURNS_MAX } from './compaction/tail-settings'

/** Unlike opencode, which retries for as long as the error stays retryable, a turn gives up after this many. */
export const DEFAULT_RETRY_LIMIT = 8

/**
 * The user's changes to one agent; an absent field keeps the agent's value. For a name no agent has, a prompt and
 * a mode make it an agent of the user's own (added in Settings, as opencode's `agent.<name>` config adds one).
 */
export const AgentOverrideSchema = z.object({
  description: z.string().max(2_000).optional(),
  mode: z.enum(['primary', 'subagent', 'all']).optional(),
  model: ModelReferenceSchema.optional(),
  /** Replaces the agent's built-in prompt. */
  prompt: z.string().max(100_000).optional(),
  /** Most model calls per turn. */
  steps: z.number().int().min(1).max(10_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** Go after the agent's built-in rules, so they win. */
  permission: PermissionRulesetSchema.optional(),
  /** Removes the agent from pickers and the task tool (not possible for build or the hidden agents). */
  disabled: z.boolean().optional(),
})
export type AgentOverride = z.infer<typeof AgentOverrideSchema>

/** Agent name → override. */
export const AgentOverridesSchema = z.record(z.string().min(1), AgentOverrideSchema)
export type AgentOverrides = z.infer<typeof AgentOverridesSchema>

/**
 * When the app tells a user who is in another tab or window (Settings → Notifications): off until the user turns it
 * on, which is also when the browser is asked for its permission. Each field has its default, so a row written before
 * a field existed still reads. It stays on this device (like `workspace.backend`): the browser's permission is too.
 */
export const NotificationSettingsSchema = z.object({
  /** The master switch. */
  enabled: z.boolean().default(false),
  /** A turn finished or was stopped. */
  turnEnded: z.boolean().default(true),
  /** A question or a permission ask waits for the user. */
  waiting: z.boolean().default(true),
  /** An error ended a turn. */
  error: z.boolean().default(true),
})
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>

/** App-wide settings, one row per key, so each can change without rewriting the others. */
export const SettingSchema = z.discriminatedUnion('key', [
  z.object({ key: z.literal('model.default'), value: ModelReferenceSchema }),
  z.object({ key: z.literal('model.small'), value: ModelReferenceSchema }),
  /** How many times a retryable provider error is retried before the turn ends with it. */
  z.object({ key: z.literal('retry.limit'), value: z.number().int().min(0).max(100) }),
  /** Per-agent overrides (model, prompt, steps, temperature, extra permission rules, disabled). */
  z.object({ key: z.literal('agents'), value: AgentOverridesSchema }),
  /**
   * Where tools run: WebContainer, booted when a command needs Node.js or npm (`auto`), or always the offline workspace (`local`), for those who
   * would rather not load StackBlitz's runtime or do not need Node.js.
   */
  z.object({ key: z.literal('workspace.backend'), value: z.enum(['auto', 'local']) }),
  /** Compact automatically when a session nears its model's context limit. */
  z.object({ key: z.literal('compaction.auto'), value: z.boolean() }),
  /** Clear old tool outputs from what the model sees (they stay stored and visible). */
  z.object({ key: z.literal('compaction.prune'), value: z.boolean() }),
  /** opencode's `compaction.tail_turns`: how many recent turns a compaction leaves verbatim after its summary (0: none). */
  z.object({ key: z.literal('compaction.tailTurns'), value: z.number().int().min(0).max(TAIL_TURNS_MAX) }),
  /**
   * opencode's `compaction.preserve_recent_tokens`: how many tokens those turns may take at most; `auto` is opencode's
   * default when unset (a quarter of the model's usable context, between 2,000 and 8,000).
   */
  z.object({ key: z.literal('compaction.preserveRecentTokens'), value: z.union([z.literal('auto'), z.number().int().min(0).max(PRESERVE_RECENT_TOKENS_MAX)]) }),
  /** The packages installed with `pip` from the offline set, by name: installed again in a new page. */
  z.object({ key: z.literal('python.packages'), value: z.array(z.string().min(1).max(200)).max(500) }),
  /** The project the app opens with: the one the user last switched to. */
  z.object({ key: z.literal('project.current'), value: idSchema('project') }),
  /**
   * The model facts the user last fetched ("Update model facts"), checked against `ModelFactsSchema` where the store
   * reads and writes it (core/provider/model-facts-schema.ts); absent, the snapshot built into the app is used.
   */
  z.object({ key: z.literal('model.facts'), value: z.unknown() }),
  /** Where "Update model facts" fetches from: models.dev's api.json unless the user named a mirror. */
  z.object({ key: z.literal('model.factsURL'), value: z.string().url().max(2_000) }),
  /**
   * Remote MCP servers (core/mcp.ts), header values included: like provider keys they stay in this database, never
   * in exports, and only through `saveMcpServer` (which keeps stored values); readers get `McpServerSummary`s.
   */
  z.object({ key: z.literal('mcp.servers'), value: z.array(z.unknown()) }),
  /** MCP servers' OAuth credentials by server name (core/mcp-oauth.ts): secrets, written by the engine only. */
  z.object({ key: z.literal('mcp.oauth'), value: z.record(z.string(), z.unknown()) }),
  /** The CORS proxy git's clone, fetch, pull and push go through (none by default: git then asks the server itself). */
  z.object({ key: z.literal('git.corsProxy'), value: z.string().max(2_000) }),
  /**
   * Git tokens by host (`github.com`, `127.0.0.1:8821`): secrets like provider keys, written by the worker only when a
   * server accepted one, never handed to the page, never in exports (store/git-token-store.ts).
   */
  z.object({ key: z.literal('git.tokens'), value: z.record(z.string(), z.string()) }),
  /** The sync server and database the user set up (issue 31); absent: sync is off and nothing contacts a server. */
  z.object({ key: z.literal('sync.setup'), value: SyncSetupSchema }),
  /**
   * The sync server's password: a secret like provider keys, read by the worker only, never handed to the page, never
   * in exports (store/sync-setup-store.ts).
   */
  z.object({ key: z.literal('sync.password'), value: z.string() }),
  /**
   * The key derived from the sync passphrase, as a CryptoKey that cannot be exported (IndexedDB stores it by structured
   * clone), so a reload syncs again without asking the passphrase; the passphrase itself is never stored.
   */
  z.object({ key: z.literal('sync.key'), value: z.custom<CryptoKey>((value) => typeof CryptoKey !== 'undefined' && value instanceof CryptoKey, 'a CryptoKey') }),
  /** The id key derived beside it (HMAC, names documents and revisions; src/sync/crypto.ts `deriveKeys`), kept the same way. */
  z.object({ key: z.literal('sync.ids'), value: z.custom<CryptoKey>((value) => typeof CryptoKey !== 'undefined' && value instanceof CryptoKey, 'a CryptoKey') }),
  /** This device's id for sync, stable across reloads: it names the device's checkpoint on the server. */
  z.object({ key: z.literal('sync.device'), value: z.string().min(1) }),
  /** The server and database this device's record of exchanged revisions (`syncDocs`) refers to. */
  z.object({ key: z.literal('sync.exchanged'), value: z.string().min(1) }),
  /** Which notifications a hidden tab shows (`NotificationSettingsSchema`). */
  z.object({ key: z.literal('notifications'), value: NotificationSettingsSchema }),
])
export type Setting = z.infer<typeof SettingSchema>
export type SettingKey = Setting['key']
export type SettingValue<K extends SettingKey> = Extract<Setting, { key: K }>['value']

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
  /** Recent turns a compaction keeps verbatim after its summary (default 2, as opencode's `tail_turns`). */
  compactionTailTurns: z.number().int().min(0).max(TAIL_TURNS_MAX).default(DEFAULT_TAIL_TURNS),
  /** The most tokens those turns may take; absent (the default), a quarter of the usable context, 2,000 to 8,000. */
  compactionPreserveRecentTokens: z.number().int().min(0).max(PRESERVE_RECENT_TOKENS_MAX).optional(),
  /** The CORS proxy for git's remotes; absent (the default), git contacts nobody but the server the user named. */
  gitCorsProxy: z.string().optional(),
  /** Which notifications a hidden tab shows; all off until the user turns them on. */
  notifications: NotificationSettingsSchema,
})
export type Settings = z.infer<typeof SettingsSchema>

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  retryLimit: DEFAULT_RETRY_LIMIT,
  workspaceBackend: 'auto',
  compactionAuto: true,
  compactionPrune: true,
  compactionTailTurns: DEFAULT_TAIL_TURNS,
  notifications: Object.freeze(NotificationSettingsSchema.parse({})),
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
    else if (setting.key === 'compaction.tailTurns') settings.compactionTailTurns = setting.value
    else if (setting.key === 'compaction.preserveRecentTokens') {
      if (setting.value === 'auto') delete settings.compactionPreserveRecentTokens
      else settings.compactionPreserveRecentTokens = setting.value
    }
    else if (setting.key === 'git.corsProxy' && setting.value !== '') settings.gitCorsProxy = setting.value
    else if (setting.key === 'notifications') settings.notifications = setting.value
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
