import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { write } from './transaction'
import { useModelFacts } from '../core/provider/catalog'
import { builtInFacts } from '../core/provider/built-in-facts'
import { MODEL_FACTS_URL, type ModelFacts } from '../core/provider/model-facts'
import { ModelFactsSchema } from '../core/provider/model-facts-schema'
import { log } from '../core/log'

export const MODEL_FACTS_KEY = 'model.facts'
const URL_KEY = 'model.factsURL'

// One load per database: the facts then live in the catalog's table until an update replaces them.
const loaded = new WeakMap<TabcodeDatabase, Promise<ModelFacts>>()

/**
 * Puts the facts in use into the catalog (core/provider/catalog.ts) and returns them: the ones the user fetched, if
 * stored and still valid, else the snapshot built into the app. Loaded on first need, never at boot.
 */
export function loadModelFacts(context: StoreContext): Promise<ModelFacts> {
  const { db } = context
  let facts = loaded.get(db)
  if (!facts) {
    facts = (async () => {
      const row = await db.settings.get(MODEL_FACTS_KEY)
      const parsed = ModelFactsSchema.safeParse(row?.value)
      if (row && !parsed.success) log.warn('tabcode: the stored model facts are unreadable; using the built-in ones')
      const chosen = parsed.success ? parsed.data : await builtInFacts()
      useModelFacts(chosen)
      return chosen
    })()
    facts.catch(() => loaded.delete(db))
    loaded.set(db, facts)
  }
  return facts.then((chosen) => {
    // Another database in this thread (tests) may have put its own facts in since.
    useModelFacts(chosen)
    return chosen
  })
}

/** Keeps fetched facts (already checked) and uses them from now on. */
export async function saveModelFacts(context: StoreContext, facts: ModelFacts): Promise<ModelFacts> {
  const value = ModelFactsSchema.parse(facts)
  const { db } = context
  await write(context, [db.settings], async () => {
    await db.settings.put({ key: MODEL_FACTS_KEY, value })
  })
  loaded.set(db, Promise.resolve(value))
  useModelFacts(value)
  return value
}

/** Where "Update model facts" fetches from. */
export async function modelFactsURL(context: StoreContext): Promise<string> {
  const row = await context.db.settings.get(URL_KEY)
  return row?.key === URL_KEY ? row.value : MODEL_FACTS_URL
}

export async function saveModelFactsURL(context: StoreContext, url: string): Promise<void> {
  const { db } = context
  await write(context, [db.settings], async () => {
    if (url === MODEL_FACTS_URL) await db.settings.delete(URL_KEY)
    else await db.settings.put({ key: URL_KEY, value: url })
  })
}
