import { createEffect, createMemo, createSignal, createUniqueId, on } from 'solid-js'
import { log } from '../../core/log'
import { acceptTrigger, composerTrigger, type ComposerTrigger } from '../../core/composer/trigger'
import type { AgentSummary, ClientApi, ProjectCommandSummary, ProjectFileMatch } from '../../core/protocol'
import { commandOptions, mentionOptions, type BuiltinCommand, type ComposerOption } from './composer-options'
import { optionElementID } from './composer-popup'

const FILE_LIMIT = 30

/**
 * The prompt's `@` and `/` popup state: which trigger the caret is in, its entries, the active one, and the keys
 * that move and accept while it is open. The textarea keeps the focus throughout.
 */
export function createComposer(options: {
  api: ClientApi
  projectID: () => string | undefined
  agents: () => readonly AgentSummary[] | undefined
  text: () => string
  setText: (text: string) => void
  textarea: () => HTMLTextAreaElement | undefined
  runBuiltin: (command: BuiltinCommand) => void
}) {
  const listID = createUniqueId()
  const [caret, setCaret] = createSignal(0)
  const [dismissed, setDismissed] = createSignal<string>()
  const [active, setActive] = createSignal(0)
  const [files, setFiles] = createSignal<ProjectFileMatch[]>([])
  const [commands, setCommands] = createSignal<ProjectCommandSummary[]>([])

  const trigger = createMemo<ComposerTrigger | undefined>(() => composerTrigger(options.text(), caret()), undefined, {
    equals: (a, b) => a?.type === b?.type && a?.query === b?.query && a?.start === b?.start,
  })
  const key = (found: ComposerTrigger) => `${found.type}:${found.start}:${found.query}`
  // Escape closes the popup for this trigger; typing on (a new query) opens it again.
  const open = () => {
    const found = trigger()
    return found && dismissed() !== key(found) ? found : undefined
  }

  let asked = 0
  createEffect(
    on(trigger, (found) => {
      setActive(0)
      const projectID = options.projectID()
      if (!found || !projectID) return
      const ticket = ++asked
      if (found.type === 'mention') {
        options.api.searchProjectFiles({ projectID, query: found.query, limit: FILE_LIMIT }).then(
          (matches) => ticket === asked && setFiles(matches),
          (error: unknown) => log.warn('tabcode: file search failed', error),
        )
      } else if (found.query === '') {
        options.api.listProjectCommands({ projectID }).then(setCommands, (error: unknown) => log.warn('tabcode: could not list commands', error))
      }
    }),
  )

  const entries = createMemo<ComposerOption[]>(() => {
    const found = open()
    if (!found) return []
    return found.type === 'command' ? commandOptions(found.query, commands()) : mentionOptions(found.query, options.agents() ?? [], files())
  })

  function accept(option: ComposerOption): void {
    const found = open()
    if (!found || option.disabledReason) return
    if (option.builtin) {
      options.setText('')
      setCaret(0)
      options.runBuiltin(option.builtin)
      return
    }
    const next = acceptTrigger(options.text(), found, option.insert ?? option.label)
    options.setText(next.text)
    setCaret(next.caret)
    queueMicrotask(() => {
      const element = options.textarea()
      if (element) {
        element.value = next.text
        element.setSelectionRange(next.caret, next.caret)
      }
    })
  }

  /** True when the popup used the key (the prompt must not send or stop for it). */
  function keyDown(event: KeyboardEvent): boolean {
    const found = open()
    if (!found || event.isComposing) return false
    const list = entries()
    if (event.key === 'Escape') {
      setDismissed(key(found))
      return true
    }
    if (!list.length) return false
    if (event.key === 'ArrowDown') setActive((active() + 1) % list.length)
    else if (event.key === 'ArrowUp') setActive((active() - 1 + list.length) % list.length)
    else if ((event.key === 'Enter' && !event.shiftKey && !event.altKey) || event.key === 'Tab') {
      const chosen = list[active()]
      if (!chosen) return false
      accept(chosen)
    } else return false
    return true
  }

  const follow = (element: HTMLTextAreaElement) => setCaret(element.selectionStart)

  return {
    listID,
    open,
    entries,
    active,
    setActive,
    accept,
    keyDown,
    follow,
    activeDescendant: () => (open() && entries().length ? optionElementID(listID, active()) : undefined),
  }
}
