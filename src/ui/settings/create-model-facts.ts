import { createSignal } from 'solid-js'
import { useModelFacts } from '../../core/provider/catalog'
import { factCount } from '../../core/provider/model-facts'
import type { ClientApi, ModelFactsView } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'

export type ModelFactsApi = Pick<ClientApi, 'modelFacts' | 'updateModelFacts'>

export interface ModelFactsStore {
  view: () => ModelFactsView | undefined
  /** What the last update did: `Updated: 312 models.` or why it was refused. */
  result: () => { tone: 'status' | 'alert'; text: string } | undefined
  busy: () => boolean
  /** Undefined once this thread's catalog holds the facts, else a promise of that (the provider form prefills models from them). */
  ready: () => Promise<void> | undefined
  update: (url: string) => Promise<void>
}

/**
 * The model facts as the settings view sees them: asked of the worker when Settings opens (the UI never reads
 * IndexedDB) and put into this thread's catalog, so the provider form's lookups read the same facts as the worker's.
 */
export function createModelFacts(api: ModelFactsApi): ModelFactsStore {
  const [view, setView] = createSignal<ModelFactsView>()
  const [result, setResult] = createSignal<{ tone: 'status' | 'alert'; text: string }>()
  const [busy, setBusy] = createSignal(false)
  const use = (next: ModelFactsView) => {
    useModelFacts(next.facts)
    setView(next)
  }
  const loaded = api.modelFacts().then(use, (error: unknown) => {
    setResult({ tone: 'alert', text: errorMessage(error) })
  })
  return {
    view,
    result,
    busy,
    ready: () => (view() ? undefined : loaded),
    update: async (url: string) => {
      setBusy(true)
      setResult(undefined)
      try {
        const next = await api.updateModelFacts(url)
        use(next)
        setResult({ tone: 'status', text: `Updated: ${factCount(next.facts)} models.` })
      } catch (error) {
        setResult({ tone: 'alert', text: errorMessage(error) })
      } finally {
        setBusy(false)
      }
    },
  }
}
