import { createContext, useContext } from 'solid-js'
import type { SessionStore } from './create-session-store'
import { defineError } from '../../core/errors'

export const SessionStoreContext = createContext<SessionStore>()

export const MissingProviderError = defineError('MissingProviderError', (hook: string) => ({ message: `${hook} was used outside its provider`, data: { hook } }))

export function useSessionStore(): SessionStore {
  const store = useContext(SessionStoreContext)
  if (!store) throw new MissingProviderError('useSessionStore')
  return store
}
