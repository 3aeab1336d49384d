import type { Page } from '@playwright/test'

/**
 * Reads the `tabcode` IndexedDB database straight from the page, around the app: every object store, every row.
 * `digest` is a SHA-256 per store of all its keys and rows serialized (bytes as numbers), so "byte-identical"
 * is one comparison; `counts` is rows per store.
 */
export async function storedRows(page: Page): Promise<{ counts: Record<string, number>; digest: Record<string, string> }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('tabcode')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    const serialize = (value: unknown): unknown => {
      if (value instanceof Uint8Array) return { bytes: Array.from(value) }
      if (value instanceof ArrayBuffer) return { bytes: Array.from(new Uint8Array(value)) }
      if (Array.isArray(value)) return value.map(serialize)
      if (value && typeof value === 'object') {
        return Object.fromEntries(Object.keys(value).sort().map((key) => [key, serialize((value as Record<string, unknown>)[key])]))
      }
      return value
    }
    const counts: Record<string, number> = {}
    const digest: Record<string, string> = {}
    try {
      for (const name of Array.from(db.objectStoreNames)) {
        const store = db.transaction(name, 'readonly').objectStore(name)
        const read = <T>(request: IDBRequest<T>) =>
          new Promise<T>((resolve, reject) => {
            request.onsuccess = () => resolve(request.result)
            request.onerror = () => reject(request.error)
          })
        const [keys, rows] = await Promise.all([read(store.getAllKeys()), read(store.getAll())])
        counts[name] = rows.length
        const text = JSON.stringify(serialize({ keys, rows }))
        const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
        digest[name] = Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join('')
      }
    } finally {
      db.close()
    }
    return { counts, digest }
  })
}
