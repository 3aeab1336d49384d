/**
 * Whether the Python worker may start. Its script must be served with its own Content Security Policy
 * (`PYTHON_WORKER_POLICY` in vite.config.ts, which `vite preview` and the dev server send): scripts and requests from
 * the app's origin only. `import()` is syntax, so no global can take it from Python's reach, and the network APIs are
 * switched off only after Pyodide has used them (close-ways-out.ts): the policy is what keeps a program off other
 * hosts, and a static host serving `dist/` may not send it. So the worker tries, before Pyodide loads, what the
 * policy must refuse, reaching nothing: a `data:` module (`script-src 'self'` refuses it, and with it another host's
 * module) and a fetch of a `data:` URL (`connect-src 'self'` refuses it, and with it any request to another host).
 */
export interface PolicyProbes {
  scripts: 'refused' | 'loaded'
  connections: 'refused' | 'made'
}

/** The files the policy must be sent with: `assets/python.worker-<hash>.js` when built. */
export const PYTHON_WORKER_FILES = 'assets/python.worker-*.js'

/** Why Python cannot start under what the probes found, naming the header (`policy`) to send; undefined when it can. */
export function policyProblem(probes: PolicyProbes, policy: string): string | undefined {
  const open = [probes.scripts === 'loaded' ? 'load scripts' : undefined, probes.connections === 'made' ? 'connect' : undefined].filter(Boolean)
  if (open.length === 0) return undefined
  return (
    `Python is switched off: its worker may ${open.join(' and ')} beyond this site, so a program could send your files to another host. ` +
    `The server must send the Python worker's script (${PYTHON_WORKER_FILES}) with the header ` +
    `Content-Security-Policy: ${policy} (see the README's deployment notes).`
  )
}
