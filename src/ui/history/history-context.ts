import { createContext, useContext } from 'solid-js'
import { MissingProviderError } from '../store/session-store-context'
import type { HistoryActions } from './create-history-actions'

export const HistoryActionsContext = createContext<HistoryActions>()

export function useHistoryActions(): HistoryActions {
  const actions = useContext(HistoryActionsContext)
  if (!actions) throw new MissingProviderError('useHistoryActions')
  return actions
}
