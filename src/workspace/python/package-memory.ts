/**
 * Where the names of the packages installed with `pip` are remembered between page loads, so a package installed
 * once stays installed as it does on a developer's machine. The agent's worker sets it at start (the app keeps the
 * names as a setting in IndexedDB); this module is small on purpose, so setting it loads none of Python.
 */
export interface PackageMemory {
  load(): Promise<readonly string[]>
  save(names: readonly string[]): Promise<void>
}

let memory: PackageMemory | undefined

export function rememberPackagesIn(place: PackageMemory): void {
  memory = place
}

/** The memory the worker set, or undefined (tests, a build without storage): then nothing outlives the page. */
export function packageMemory(): PackageMemory | undefined {
  return memory
}
