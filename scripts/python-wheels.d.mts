// Types for scripts/python-wheels.mjs (imported by vite.config.ts, which tsc checks).
export type PreparedWheels = { available: true; wheels: { file: string; path: string }[] } | { available: false; reason: string }
export declare const MANIFEST_PATH: string
export declare function prepareWheels(options?: { log?: (line: string) => void }): Promise<PreparedWheels>
