/** The package.json version, injected by Vite's `define` (see vite.config.ts). */
declare const __APP_VERSION__: string
/** `PYTHON_WORKER_POLICY` of vite.config.ts, injected by Vite's `define`: the header the Python worker needs. */
declare const __PYTHON_WORKER_POLICY__: string
