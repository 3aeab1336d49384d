import { createContext, useContext } from 'solid-js'
import type { SessionStore } from './create-session-store'

export const SessionStoreContext = createContext<SessionStore>()

export class MissingProviderError extends Error {
  constructor(name: string) {
    super(`${name} was used outside its provider`)
    this.name = 'MissingProviderError'
  }
}

export function useSessionStore(): SessionStore {
  const store = useContext(SessionStoreContext)
  if (!store) throw new MissingProviderError('useSessionStore')
  return store
}
