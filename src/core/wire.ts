import { redactStrings } from './log'
import { deserializeError, serializeError } from './errors'
import type { ClientApi, Result, WireApi, WorkerHandlers } from './protocol'

/** Worker side: every handler answers with a Result, so errors cross postMessage with their name and data. */
export function toWire(handlers: WorkerHandlers): WireApi {
  const wire: Record<string, (...args: unknown[]) => Promise<Result<unknown>>> = {}
  for (const [name, handler] of Object.entries(handlers) as [string, (...args: unknown[]) => unknown][]) {
    wire[name] = async (...args) => {
      try {
        return { ok: true, value: await handler(...args) }
      } catch (error) {
        // The page may log or show it: a provider's error that echoes the key loses it here.
        return { ok: false, error: redactStrings(serializeError(error)) }
      }
    }
  }
  return wire as WireApi
}

/** UI side: unwraps Results into values or rejected AppErrors. */
export function fromWire(remote: { [K in keyof WireApi]: (...args: never[]) => Promise<unknown> }): ClientApi {
  return new Proxy({} as ClientApi, {
    get(_target, name: string) {
      return async (...args: unknown[]) => {
        const method = (remote as unknown as Record<string, (...args: unknown[]) => Promise<Result<unknown>>>)[name]
        if (!method) throw new Error(`Unknown worker method ${name}`)
        const result = await method(...args)
        if (!result.ok) throw deserializeError(result.error)
        return result.value
      }
    },
  })
}
