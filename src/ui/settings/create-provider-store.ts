import { createContext, createMemo, createSignal, onCleanup, useContext, type Accessor } from 'solid-js'
import type { ModelReference, Setting } from '../../core/schema'
import type { ClientApi, ProviderInput, ProviderSummary, Settings } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { createNewestAnswer } from '../kit/load/newest-answer'

export type ProviderApi = Pick<ClientApi, 'listProviders' | 'getSettings' | 'saveProvider' | 'removeProvider' | 'setSetting'>

export interface ProviderStore {
  providers: Accessor<ProviderSummary[]>
  settings: Accessor<Settings>
  /** True until the first answer arrives. */
  loading: Accessor<boolean>
  /** Why the last refresh failed, worded for the user. */
  error: Accessor<string | undefined>
  /** The model a prompt without an explicit choice uses: the chosen default, else the first configured model. */
  defaultModel: Accessor<ModelReference | undefined>
  refresh(): Promise<void>
  /** These throw the worker's named errors (InputError and friends) for the caller to show; success refreshes. */
  save(input: ProviderInput): Promise<ProviderSummary>
  remove(providerID: string): Promise<void>
  setSetting(setting: Setting): Promise<Settings>
}

const DEFAULT_SETTINGS: Settings = {
  retryLimit: 8,
  workspaceBackend: 'auto',
  compactionAuto: true,
  compactionPrune: true,
  compactionTailTurns: 2,
  notifications: { enabled: false, turnEnded: true, waiting: true, error: true },
}

/**
 * Providers and settings for the UI. Owner-bound. The worker sends no events for these rows, so the store refetches
 * after its own writes and when the tab comes back into view (another tab may have changed them meanwhile).
 */
export function createProviderStore(api: ProviderApi): ProviderStore {
  const [providers, setProviders] = createSignal<ProviderSummary[]>([])
  const [settings, setSettings] = createSignal<Settings>(DEFAULT_SETTINGS)
  const [loading, setLoading] = createSignal(true)
  const [error, setError] = createSignal<string>()
  const newest = createNewestAnswer()

  async function refresh() {
    await newest.load(() => Promise.all([api.listProviders(), api.getSettings()]), {
      answer: ([nextProviders, nextSettings]) => {
        setProviders(nextProviders)
        setSettings(nextSettings)
        setError(undefined)
      },
      failure: (caught) => setError(`Couldn't load providers: ${errorMessage(caught)}`),
      settled: () => setLoading(false),
    })
  }

  if (typeof window !== 'undefined') {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh()
    }
    const onFocus = () => void refresh()
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('focus', onFocus)
    onCleanup(() => {
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('focus', onFocus)
    })
  }
  void refresh()

  const defaultModel = createMemo<ModelReference | undefined>(() => {
    const chosen = settings().defaultModel
    const list = providers()
    if (chosen && list.some((provider) => provider.id === chosen.providerID && provider.models.some((model) => model.id === chosen.modelID))) {
      return chosen
    }
    const first = list.find((provider) => provider.models.length > 0)
    return first ? { providerID: first.id, modelID: first.models[0]!.id } : undefined
  })

  return {
    providers,
    settings,
    loading,
    error,
    defaultModel,
    refresh,
    async save(input) {
      const saved = await api.saveProvider(input)
      await refresh()
      return saved
    },
    async remove(providerID) {
      await api.removeProvider(providerID)
      await refresh()
    },
    async setSetting(setting) {
      const next = await api.setSetting(setting)
      setSettings(next)
      return next
    },
  }
}

export const ProviderStoreContext = createContext<ProviderStore>()

/** The workbench's provider store (for the prompt box's model picker); throws outside the workbench. */
export function useProviderStore(): ProviderStore {
  const store = useContext(ProviderStoreContext)
  if (!store) throw new Error('useProviderStore must be used inside the workbench (ProviderStoreContext)')
  return store
}
