import { createSignal, createUniqueId, For, Match, onMount, Show, Switch, type JSX } from 'solid-js'
import { providerTypeInfo } from '../../core/provider/presets'
import type { ModelReference } from '../../core/schema'
import type { AgentSummary, ProviderSummary } from '../../core/protocol'
import { ConfirmDialog } from '../kit/dialog/confirm-dialog'
import { Dialog } from '../kit/dialog/dialog'
import { errorMessage } from '../kit/format/error'
import { PencilIcon, PlusIcon, TrashIcon } from '../kit/icons/icons'
import type { SessionEvent } from '../../core/event'
import { ApprovalsSettings, type ApprovalsApi } from '../permission/approvals-settings'
import { BackupSection, type BackupActions } from '../share/backup-section'
import { createStorageStatus } from '../storage/create-storage-status'
import { StorageStatus } from '../storage/storage-status'
import { AgentForm } from './agent-form'
import { AgentSection, createAgentSettings, type AgentSettingsApi, type AgentSettingsStore } from './agent-settings'
import type { ProviderStore } from './create-provider-store'
import { CompactionSettings } from './compaction-settings'
import { NotificationSettingsSection } from './notification-settings'
import { isOwnAgent, newAgent } from './agent-settings-draft'
import { ModelSelect } from './model-picker'
import { McpSection, type McpSettingsApi } from './mcp-settings'
import { GitSettings, type GitSettingsApi } from './git-settings'
import { SyncSettings, type SyncSettingsProps } from './sync-settings'
import { ProviderForm, type ProviderFormApi } from './provider-form'
import { createModelFacts, type ModelFactsApi, type ModelFactsStore } from './create-model-facts'
import { ModelFactsSection } from './model-facts-section'
import type { ProjectTrustStore } from '../project/create-project-trust'
import { ProjectTrustSection } from '../project/project-trust-section'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { SelectField, TextField } from '../kit/form/field'
import { ProblemNote } from '../kit/form/problem-note'
import './settings.css'

type View =
  | { type: 'overview' }
  | { type: 'add' }
  | { type: 'edit'; provider: ProviderSummary }
  | { type: 'agent'; agent: AgentSummary; isNew?: boolean }
type Notice = { tone: 'status' | 'alert'; text: string }

/**
 * Settings: providers (add, edit, remove), the default and small model, the retry limit, compaction, notifications,
 * and per-agent settings.
 * Model settings apply at once; a provider or an agent is saved with its form's Save. Escape in a form goes back to
 * the overview instead of losing it.
 */
export default function SettingsDialog(props: {
  store: ProviderStore
  api: ProviderFormApi & AgentSettingsApi & ApprovalsApi & McpSettingsApi & GitSettingsApi & ModelFactsApi
  onClose: () => void
  /** The open project, for its remembered permissions; absent, that section is left out. */
  projectID?: string
  /** The open project's trust; absent, that section is left out. */
  trust?: ProjectTrustStore
  listen?: (handler: (event: SessionEvent) => void) => () => void
  /** Export everything and import a file; absent, the Backup section is left out. */
  backup?: BackupActions
  /** Settings → Sync; absent, the section is left out. With `focus`, the dialog opens at it (the sync indicator's fix). */
  sync?: SyncSettingsProps
}): JSX.Element {
  const [view, setView] = createSignal<View>({ type: 'overview' })
  const [removing, setRemoving] = createSignal<ProviderSummary>()
  const [notice, setNotice] = createSignal<Notice>()
  // Loads on creation: settings rows have no live events, so each opening reads them afresh.
  const agents = createAgentSettings(props.api)
  // Provider rows have no live events: another tab (or a test seeding through the worker) may have changed them.
  onMount(() => void props.store.refresh())
  // Asked of the worker on each opening: another tab may have updated them.
  const facts = createModelFacts(props.api)

  const back = (message?: string) => {
    setView({ type: 'overview' })
    setNotice(message ? { tone: 'status', text: message } : undefined)
  }

  return (
    <Dialog
      title="Settings"
      class="settings-dialog"
      onClose={() => (view().type === 'overview' ? props.onClose() : back())}
    >
      <Switch>
        <Match when={view().type === 'overview'}>
          <Overview
            store={props.store}
            agents={agents}
            facts={facts}
            notice={notice()}
            setNotice={setNotice}
            onAdd={() => setView({ type: 'add' })}
            onEdit={(provider) => setView({ type: 'edit', provider })}
            onEditAgent={(agent) => setView({ type: 'agent', agent })}
            onAddAgent={() => setView({ type: 'agent', agent: newAgent(), isNew: true })}
            onRemove={setRemoving}
            onClose={props.onClose}
            mcp={props.api}
            git={props.api}
            trust={props.trust}
            approvals={props.projectID ? { api: props.api, projectID: props.projectID, ...(props.listen ? { listen: props.listen } : {}) } : undefined}
            backup={props.backup}
            sync={props.sync}
          />
        </Match>
        <Match when={(() => {
          const current = view()
          return current.type === 'agent' ? current.agent : undefined
        })()}>
          {(agent) => (
            <AgentForm
              agent={agent()}
              isNew={(() => {
                const current = view()
                return current.type === 'agent' && !!current.isNew
              })()}
              providers={props.store.providers()}
              onCancel={() => back()}
              onSave={async (override, name) => {
                await agents.save({ name, override })
                const removed = isOwnAgent(agent()) ? `Removed the ${name} agent.` : `Restored the built-in ${name} agent.`
                back(Object.keys(override).length ? `Saved the ${name} agent.` : removed)
              }}
            />
          )}
        </Match>
        <Match when={view().type === 'add' || view().type === 'edit'}>
          <ProviderForm
            api={props.api}
            factsReady={facts.ready}
            provider={(() => {
              const current = view()
              return current.type === 'edit' ? current.provider : undefined
            })()}
            onCancel={() => back()}
            onSave={async (input) => {
              const saved = await props.store.save(input)
              back(`Saved ${saved.name}.`)
            }}
          />
        </Match>
      </Switch>
      <Show when={removing()}>
        {(provider) => (
          <ConfirmDialog
            title={`Remove ${provider().name}?`}
            description={
              <p>
                {`Its key and its ${provider().models.length} model${provider().models.length === 1 ? '' : 's'} are removed from this browser. ` +
                  'Sessions keep their history; a default or small model from it is unset.'}
              </p>
            }
            confirmLabel="Remove provider"
            busyLabel="Removing…"
            onConfirm={async () => {
              await props.store.remove(provider().id)
              setRemoving(undefined)
              setNotice({ tone: 'status', text: `Removed ${provider().name}.` })
            }}
            onClose={() => setRemoving(undefined)}
          />
        )}
      </Show>
    </Dialog>
  )
}

function Overview(props: {
  store: ProviderStore
  agents: AgentSettingsStore
  facts: ModelFactsStore
  notice: Notice | undefined
  setNotice: (notice: Notice | undefined) => void
  onAdd: () => void
  onEdit: (provider: ProviderSummary) => void
  onEditAgent: (agent: AgentSummary) => void
  onAddAgent: () => void
  onRemove: (provider: ProviderSummary) => void
  onClose: () => void
  approvals?: Parameters<typeof ApprovalsSettings>[0] | undefined
  trust?: ProjectTrustStore | undefined
  backup?: BackupActions | undefined
  sync?: SyncSettingsProps | undefined
  mcp: McpSettingsApi
  git: GitSettingsApi
}): JSX.Element {
  const ids = {
    providers: createUniqueId(),
    models: createUniqueId(),
  }
  const store = props.store
  const [retryText, setRetryText] = createSignal<string>()
  let addButton!: HTMLButtonElement
  // Coming back from the form, focus lands on the list's first action rather than on the page.
  onMount(() => addButton.focus())

  const apply = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action()
      props.setNotice({ tone: 'status', text: `${what} saved.` })
    } catch (error) {
      props.setNotice({ tone: 'alert', text: errorMessage(error) })
    }
  }

  const choose = (key: 'model.default' | 'model.small', what: string) => (reference: ModelReference) =>
    void apply(what, () => store.setSetting({ key, value: reference }))

  const commitRetry = (text: string) => {
    const value = Number(text)
    if (!text.trim() || !Number.isInteger(value) || value < 0 || value > 100) {
      props.setNotice({ tone: 'alert', text: 'The retry limit must be a whole number from 0 to 100.' })
      return
    }
    if (value === store.settings().retryLimit) return
    void apply('Retry limit', async () => {
      await store.setSetting({ key: 'retry.limit', value })
      setRetryText(undefined)
    })
  }

  const automaticDefault = () => {
    const fallback = store.defaultModel()
    const provider = store.providers().find((candidate) => candidate.id === fallback?.providerID)
    return fallback && provider ? `Automatic: ${provider.name} / ${fallback.modelID}` : 'Automatic'
  }

  return (
    <div class="settings-overview">
      <section class="settings-section" aria-labelledby={ids.providers}>
        <div class="settings-section-head">
          <h3 id={ids.providers} class="settings-heading">
            Providers
          </h3>
          <button ref={addButton} type="button" class="button button-small" data-autofocus onClick={() => props.onAdd()}>
            <PlusIcon />
            Add provider
          </button>
        </div>
        <ProblemNote text={store.error()} />
        <Show
          when={store.providers().length}
          fallback={
            <p class="settings-empty">
              {store.loading()
                ? 'Loading providers…'
                : 'No providers yet. Add a hosted API with your own key (OpenAI, Anthropic, Google Gemini), or a model served on this machine (Ollama, LM Studio, llama.cpp).'}
            </p>
          }
        >
          <ul class="provider-list">
            <For each={store.providers()}>
              {(provider) => (
                <li class="provider-row">
                  <div class="provider-summary">
                    <span class="provider-name">{provider.name}</span>
                    <span class="provider-meta">
                      {providerTypeInfo(provider.type).label}
                      {' · '}
                      {`${provider.models.length} model${provider.models.length === 1 ? '' : 's'}`}
                      {' · '}
                      {provider.hasKey ? 'key stored' : 'no key'}
                      <Show when={provider.baseURL}>
                        {' · '}
                        <span class="mono">{provider.baseURL}</span>
                      </Show>
                    </span>
                  </div>
                  <button type="button" class="icon-button" aria-label={`Edit ${provider.name}`} title="Edit" onClick={() => props.onEdit(provider)}>
                    <PencilIcon />
                  </button>
                  <button type="button" class="icon-button" aria-label={`Remove ${provider.name}`} title="Remove" onClick={() => props.onRemove(provider)}>
                    <TrashIcon />
                  </button>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <section class="settings-section" aria-labelledby={ids.models}>
        <h3 id={ids.models} class="settings-heading">
          Models
        </h3>
        <div class="settings-grid">
          <ModelSelect
            label="Default model"
            value={store.settings().defaultModel}
            providers={store.providers()}
            emptyLabel={automaticDefault()}
            description="Used by new prompts unless you pick another in the prompt box."
            onChange={choose('model.default', 'Default model')}
          />
          <ModelSelect
            label="Small model"
            value={store.settings().smallModel}
            providers={store.providers()}
            emptyLabel="Automatic"
            description="Writes session titles. Automatic picks a cheap configured model (Gemini Flash, GPT nano or mini, Claude Haiku), else the default model."
            onChange={choose('model.small', 'Small model')}
          />
          <TextField
            label="Retry limit"
            hint="How often a failed request (rate limit, overloaded or failing server) is retried before the turn stops with the error. Default 8."
            inputClass="retry-input"
            type="number"
            min="0"
            max="100"
            step="1"
            value={retryText() ?? String(store.settings().retryLimit)}
            onValue={setRetryText}
            onChange={(event) => commitRetry(event.currentTarget.value)}
          />
          <SelectField
            label="Workspace"
            hint="WebContainer runs Node.js and npm in this tab and loads its runtime from StackBlitz, so it starts only when a command needs it (or you start it from the Workspace panel). The offline workspace needs nothing from the network."
            value={store.settings().workspaceBackend}
            onValue={(chosen) => {
              const value = chosen === 'local' ? 'local' : 'auto'
              void store
                .setSetting({ key: 'workspace.backend', value })
                .then(
                  () => props.setNotice({ tone: 'status', text: 'Workspace setting saved; it applies from the next reload.' }),
                  (error: unknown) => props.setNotice({ tone: 'alert', text: errorMessage(error) }),
                )
            }}
          >
            <option value="auto">WebContainer when a command needs it</option>
            <option value="local">Offline workspace only</option>
          </SelectField>
        </div>
      </section>

      <ModelFactsSection facts={props.facts} />

      <CompactionSettings store={store} onNotice={props.setNotice} />

      <NotificationSettingsSection store={store} onNotice={props.setNotice} />

      <Show when={props.trust}>{(trust) => <ProjectTrustSection trust={trust()} />}</Show>

      <AgentSection
        store={props.agents}
        providers={store.providers()}
        onEdit={(agent) => props.onEditAgent(agent)}
        onAdd={() => props.onAddAgent()}
      />

      <McpSection api={props.mcp} agents={props.agents.agents()} />

      <GitSettings api={props.git} store={store} onNotice={props.setNotice} />

      <Show when={props.sync}>{(sync) => <SyncSettings {...sync()} />}</Show>

      <Show when={props.approvals}>{(approvals) => <ApprovalsSettings {...approvals()} />}</Show>

      <Show when={props.backup}>{(backup) => <BackupSection {...backup()} />}</Show>
      <div class="settings-section">
        <h3 class="settings-heading">Storage</h3>
        <StorageStatus status={createStorageStatus()} />
      </div>

      <Show when={props.notice}>
        {(current) => (
          <p class={`connection-notice connection-${current().tone}`} role={current().tone}>
            {current().text}
          </p>
        )}
      </Show>
      <DialogActions cancelLabel="Close" onCancel={() => props.onClose()} />
    </div>
  )
}

