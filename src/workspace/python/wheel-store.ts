import type { PackageWheel } from './protocol'
import { normalizeName, WHEEL_INDEX, WheelIndexSchema, type Wheel, type WheelIndex } from './wheels'

export interface WheelStoreOptions {
  /** Where the build serves the offline set, on our own origin (`…/python-wheels/`). */
  baseURL: string
  fetch?: typeof fetch
  /** Whether a URL is already in the service worker's cache (no download to report); unknown counts as not. */
  isCached?: (url: string) => Promise<boolean>
}

export type InstallResult = { type: 'installed'; wheels: Wheel[] } | { type: 'failed'; message: string }

/**
 * The packages installed with `pip` in this tab: the wheels' bytes, fetched from our own origin and checked against
 * their pinned sha256, and which are installed. It lives in the agent's worker, not in an interpreter, so every
 * interpreter (a new one included) is given the same packages; a page load starts with none installed again, and
 * `pytest` installs itself on first use.
 */
export class WheelStore {
  private index: Promise<WheelIndex> | undefined
  private readonly data = new Map<string, Uint8Array>()
  private readonly installed = new Map<string, Wheel>()

  constructor(private readonly options: WheelStoreOptions) {}

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

  remove(name: string): Wheel | undefined {
    const wheel = this.installed.get(normalizeName(name))
    this.installed.delete(normalizeName(name))
    return wheel
  }

  /** Fetches (once) and installs `wheels`; `onProgress` hears of a download that is not cached yet. */
  async install(wheels: readonly Wheel[], onProgress: (text: string) => void): Promise<InstallResult> {
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
