import type { StoreContext } from './context'
import { write } from './transaction'

const KEY = 'python.packages'

/** The names of the packages installed with `pip`, in install order (none before the first install). */
export async function loadPythonPackages(context: StoreContext): Promise<string[]> {
  const row = await context.db.settings.get(KEY)
  return row?.key === KEY ? row.value : []
}

/** Remembers the installed set whole: what `pip uninstall` removed is gone from it too. */
export async function savePythonPackages(context: StoreContext, names: readonly string[]): Promise<void> {
  await write(context, [context.db.settings], async () => {
    await context.db.settings.put({ key: KEY, value: [...names] })
  })
}
