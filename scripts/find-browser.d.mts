// Types for scripts/find-browser.mjs (imported by playwright.config.ts, which tsc checks).
export declare const CHROMIUM_ARGS: readonly string[]
/** Absolute path of a usable Chromium executable, or undefined if none is found. */
export declare function findChromium(): string | undefined
/** Chromium path (TABCODE_CHROMIUM first); prints install instructions and exits with code 1 when there is none. */
export declare function requireChromium(): string
