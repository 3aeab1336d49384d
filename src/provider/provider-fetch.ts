import { coalesceEventStreamResponse } from './stream-coalescing'

/**
 * Request bodies at least this long go to `fetch` as a Blob. Chromium copies a string body on the calling thread
 * at ~40 ms per MB (measured in the worker: 170 ms for the 4 MB prompt of a 2,000-message session, against 30 ms to
 * build the Blob and 1 ms to pass it), and a long session's prompt is several megabytes on every step.
 */
export const BLOB_BODY_CHARS = 256 * 1024

export interface ProviderFetchOptions {
  /** Merge the runs of like deltas in each network read of a Chat Completions stream (stream-coalescing.ts). */
  coalesce: boolean
}

/** The `fetch` every provider SDK gets: the caller's (tests) or the browser's, with the two savings above. */
export function providerFetch(base: typeof fetch | undefined, options: ProviderFetchOptions): typeof fetch {
  // Called as a method: an unbound browser `fetch` throws "Illegal invocation".
  const send: typeof fetch = base ?? ((input, init) => globalThis.fetch(input, init))
  return async (input, init) => {
    const body = init?.body
    const request = typeof body === 'string' && body.length >= BLOB_BODY_CHARS ? { ...init, body: new Blob([body]) } : init
    const response = await send(input, request)
    return options.coalesce ? coalesceEventStreamResponse(response) : response
  }
}
