/** The part of `navigator.storage` tabcode uses; every method may be missing (older or embedded browsers). */
export interface StorageManagerLike {
  persist?: () => Promise<boolean>
  persisted?: () => Promise<boolean>
  estimate?: () => Promise<{ usage?: number; quota?: number }>
}

/** Where "we already asked" is remembered: localStorage in the app, a map in tests. */
export interface AskedMemory {
  get(): boolean
  set(): void
}

export interface StorageReport {
  /** `undefined` when the browser cannot say (no Storage API). */
  persisted: boolean | undefined
  usage: number | undefined
  quota: number | undefined
}

export const PERSIST_ASKED_KEY = 'tabcode:storage-persist-asked'

/** Reads persistence, usage and quota; a method that fails or is missing leaves its field unknown. */
export async function readStorageReport(manager: StorageManagerLike | undefined): Promise<StorageReport> {
  const [persisted, estimate] = await Promise.all([
    manager?.persisted ? manager.persisted().catch(() => undefined) : Promise.resolve(undefined),
    manager?.estimate ? manager.estimate().catch(() => undefined) : Promise.resolve(undefined),
  ])
  return { persisted, usage: estimate?.usage, quota: estimate?.quota }
}

/** Asks the browser to keep tabcode's data under storage pressure; remembers that it asked, whatever the answer. */
export async function requestPersistence(manager: StorageManagerLike | undefined, memory: AskedMemory): Promise<boolean | undefined> {
  if (!manager?.persist) return undefined
  memory.set()
  return manager.persist().catch(() => false)
}

/**
 * Asks once in the life of the profile, and only once there is history worth keeping: a browser that shows a
 * prompt (Firefox) should not greet a first visit with one. Returns whether it asked.
 */
export async function askOnce(manager: StorageManagerLike | undefined, memory: AskedMemory): Promise<boolean> {
  if (!manager?.persist || memory.get()) return false
  if (manager.persisted && (await manager.persisted().catch(() => false))) {
    memory.set()
    return false
  }
  await requestPersistence(manager, memory)
  return true
}

/** localStorage has its own quota and outlives an IndexedDB eviction, so it is a fine place for the flag. */
export function localAskedMemory(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): AskedMemory {
  return {
    get: () => {
      try {
        return (storage?.getItem(PERSIST_ASKED_KEY) ?? null) !== null
      } catch {
        return false
      }
    },
    set: () => {
      try {
        storage?.setItem(PERSIST_ASKED_KEY, new Date().toISOString())
      } catch {
        // A full or blocked localStorage only means we may ask again next time.
      }
    },
  }
}

const UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB'] as const

/** Decimal units, as browsers and disks report them: "12.3 MB", "1.2 GB", "512 bytes". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown'
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  if (unit === 0) return `${Math.round(value)} ${value === 1 ? 'byte' : 'bytes'}`
  const rounded = value >= 100 ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '')
  return `${rounded} ${UNITS[unit]}`
}

/** How full the origin's share is, 0..1, or undefined when the browser does not say. */
export function fullness(report: Pick<StorageReport, 'usage' | 'quota'>): number | undefined {
  if (report.usage === undefined || !report.quota) return undefined
  return Math.min(1, report.usage / report.quota)
}

/** At this share of the quota the status warns: the next long reply or import may not fit. */
export const NEARLY_FULL = 0.9
