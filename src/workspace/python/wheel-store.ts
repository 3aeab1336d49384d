import type { PackageMemory } from './package-memory'
import type { PackageWheel } from './protocol'
import { findWheel, normalizeName, WHEEL_INDEX, WheelIndexSchema, type Wheel, type WheelIndex } from './wheels'

export interface WheelStoreOptions {
  /** Where the build serves the offline set, on our own origin (`…/python-wheels/`). */
  baseURL: string
  fetch?: typeof fetch
  /** Whether a URL is already in the service worker's cache (no download to report); unknown counts as not. */
  isCached?: (url: string) => Promise<boolean>
  /** Where the installed names outlive the page; without it, a page load starts with nothing installed. */
  memory?: () => PackageMemory | undefined
  /** The offline set remembered names are found in (the build's, by default). */
  offline?: readonly Wheel[]
}

export type InstallResult = { type: 'installed'; wheels: Wheel[] } | { type: 'failed'; message: string }

/**
 * The packages installed with `pip` in this tab: the wheels' bytes, fetched from our own origin and checked against
 * their pinned sha256, and which are installed. It lives in the agent's worker, not in an interpreter, so every
 * interpreter (a new one included) is given the same packages. The installed names are remembered (`memory`), and
 * a new page installs them again before its first pip or Python command, from the service worker's cache.
 */
export class WheelStore {
  private index: Promise<WheelIndex> | undefined
  private readonly data = new Map<string, Uint8Array>()
  private readonly installed = new Map<string, Wheel>()
  private restored: Promise<void> | undefined

  constructor(private readonly options: WheelStoreOptions) {}

  /**
   * Installs what an earlier page installed, once per page; `onNotice` hears of a download or of a package that could
   * not be put back (which stays remembered, for a later page that may be online).
   */
  restore(onNotice: (text: string) => void): Promise<void> {
    this.restored ??= (async () => {
      const memory = this.options.memory?.()
      if (!memory) return
      let names: readonly string[]
      try {
        names = await memory.load()
      } catch (error) {
        onNotice(`pip: the packages installed before could not be read (${reason(error)})\n`)
        return
      }
      const wheels = names.map((name) => findWheel(name, this.options.offline)).filter((wheel): wheel is Wheel => wheel !== undefined && !this.has(wheel.name))
      if (wheels.length === 0) return
      const result = await this.fetchAndMark(wheels, onNotice)
      if (result.type === 'failed') onNotice(`pip: ${wheels.map((wheel) => wheel.name).join(', ')}, installed before, could not be installed again: ${result.message}\n`)
    })()
    return this.restored
  }

  /** Installed wheels, in the order they were installed (dependencies first). */
  list(): Wheel[] {
    return [...this.installed.values()]
  }

  has(name: string): boolean {
    return this.installed.has(normalizeName(name))
  }

  /** What the interpreter is given before each run. */
  packages(): PackageWheel[] {
    return this.list().map((wheel) => ({ name: wheel.name, file: wheel.file, data: this.data.get(wheel.file)! }))
  }

  async remove(name: string): Promise<Wheel | undefined> {
    const wheel = this.installed.get(normalizeName(name))
    this.installed.delete(normalizeName(name))
    if (wheel) await this.remember()
    return wheel
  }

  /** Fetches (once) and installs `wheels`, and remembers them; `onProgress` hears of a download not cached yet. */
  async install(wheels: readonly Wheel[], onProgress: (text: string) => void): Promise<InstallResult> {
    const result = await this.fetchAndMark(wheels, onProgress)
    if (result.type === 'installed') await this.remember()
    return result
  }

  /** A failure to remember loses nothing of this page's install: the package is installed, only not for the next. */
  private async remember(): Promise<void> {
    await this.options
      .memory?.()
      ?.save(this.list().map((wheel) => wheel.name))
      .catch(() => undefined)
  }

  private async fetchAndMark(wheels: readonly Wheel[], onProgress: (text: string) => void): Promise<InstallResult> {
    const index = await this.readIndex()
    if (index.type === 'failed') return index
    if (index.index.type === 'unavailable') return { type: 'failed', message: `this build of tabcode has no offline Python packages (${index.index.reason})` }
    const served = new Set(index.index.files)
    const absent = wheels.filter((wheel) => !served.has(wheel.file))
    if (absent.length > 0) return { type: 'failed', message: `this build of tabcode does not serve ${absent.map((wheel) => wheel.file).join(', ')}` }

    const needed = wheels.filter((wheel) => !this.data.has(wheel.file))
    const uncached: Wheel[] = []
    for (const wheel of needed) if (!(await this.options.isCached?.(this.url(wheel.file)))) uncached.push(wheel)
    if (uncached.length > 0) {
      const megabytes = (uncached.reduce((sum, wheel) => sum + wheel.size, 0) / 1_000_000).toFixed(1)
      onProgress(`Downloading ${uncached.map((wheel) => `${wheel.name}-${wheel.version}`).join(', ')} (tabcode's offline set, ${megabytes} MB)…`)
    }
    try {
      for (const wheel of needed) this.data.set(wheel.file, await this.fetchWheel(wheel))
    } catch (error) {
      if (uncached.length > 0) onProgress(' failed\n')
      return { type: 'failed', message: error instanceof Error ? error.message : String(error) }
    }
    if (uncached.length > 0) onProgress(' done\n')
    for (const wheel of wheels) this.installed.set(normalizeName(wheel.name), wheel)
    return { type: 'installed', wheels: [...wheels] }
  }

  private url(file: string): string {
    return new URL(file, this.options.baseURL).href
  }

  private async readIndex(): Promise<{ type: 'read'; index: WheelIndex } | { type: 'failed'; message: string }> {
    this.index ??= (async () => {
      const response = await this.fetch(this.url(WHEEL_INDEX))
      if (!response.ok) throw new Error(`the app answered ${response.status} for ${WHEEL_INDEX}`)
      return WheelIndexSchema.parse(await response.json())
    })()
    try {
      return { type: 'read', index: await this.index }
    } catch (error) {
      // Not kept: offline before the index was ever cached, the next try may be online.
      this.index = undefined
      return { type: 'failed', message: `the offline set could not be loaded from the app (${reason(error)})` }
    }
  }

  private async fetchWheel(wheel: Wheel): Promise<Uint8Array> {
    let response: Response
    try {
      response = await this.fetch(this.url(wheel.file))
    } catch (error) {
      throw new Error(`${wheel.file} could not be loaded from the app (${reason(error)})`)
    }
    if (!response.ok) throw new Error(`the app answered ${response.status} for ${wheel.file}`)
    const data = new Uint8Array(await response.arrayBuffer())
    const digest = await sha256(data)
    if (digest !== wheel.sha256) throw new Error(`${wheel.file} has sha256 ${digest}, not the pinned ${wheel.sha256}`)
    return data
  }

  private fetch(url: string): Promise<Response> {
    return (this.options.fetch ?? globalThis.fetch)(url)
  }
}

async function sha256(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>))
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return typeof navigator !== 'undefined' && navigator.onLine === false ? `offline, and not cached yet: ${text}` : text
}
