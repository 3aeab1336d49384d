import { createRoot, type JSX } from 'solid-js'
import { render } from 'solid-js/web'
import { afterEach, vi } from 'vitest'
import type { SessionEvent } from '../../../core/event'
import { makeBuilders } from '../../../testing/fixture-builders'
import type { MessageWithParts } from '../../../core/dto/messages'
import type { Part, SessionInfo } from '../../../core/schema'
import type { ClientApi, ProviderSummary } from '../../../core/protocol'
import type { ProviderStore } from '../../settings/create-provider-store'
import { ProviderStoreContext } from '../../settings/create-provider-store'
import { createSessionStore, type SessionStore } from '../../store/create-session-store'
import { frameScheduler } from '../../store/event-queue'
import { SessionStoreContext } from '../../store/session-store-context'
import type { WorkerConnection } from '../../worker-client'

// Helpers for the history views' tests: never imported by the app.

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

export const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A conversation of valid rows: `turns` prompts, each answered by `steps` assistant messages with one text part. */
export function makeConversation(options: { turns: number; steps?: number }) {
  const build = makeBuilders()
  const session = build.session({ title: 'Parser rewrite' })
  const history: MessageWithParts[] = []
  for (let turn = 1; turn <= options.turns; turn++) {
    const user = build.user(session.id)
    history.push({ info: user, parts: [build.text(user, `prompt ${turn}`)] })
    for (let step = 1; step <= (options.steps ?? 1); step++) {
      const assistant = build.assistant(session.id, user.id)
      history.push({ info: assistant, parts: [build.text(assistant, `answer ${turn}.${step}`)] })
    }
  }
  const part = <T extends Part>(row: Omit<T, 'id'>): T => ({ ...row, id: build.ids.ascending('part', build.now()) }) as T
  return { build, session, history, part }
}

const openai: ProviderSummary = {
  id: 'prv_a',
  type: 'openai',
  name: 'OpenAI',
  hasKey: true,
  models: [{ id: 'gpt-test', limit: { context: 128_000, output: 16_384 }, cost: { input: 1, output: 1 } }],
  time: { created: 1, updated: 1 },
}

/**
 * A fake worker for a mounted session: what opening a session and its views ask for, plus `overrides`. Any other
 * method rejects, naming itself, so a test learns at once what it forgot to fake.
 */
export function makeFakeApi(session: SessionInfo, history: MessageWithParts[], overrides: Partial<Record<keyof ClientApi, unknown>> = {}): ClientApi {
  const base: Partial<Record<keyof ClientApi, unknown>> = {
    listSessions: vi.fn(async () => ({ items: [session] })),
    getSession: vi.fn(async () => session),
    openSession: vi.fn(async () => ({ repaired: false })),
    todos: vi.fn(async () => []),
    queuedPrompts: vi.fn(async () => []),
    pendingAsks: vi.fn(async () => []),
    pageMessages: vi.fn(async () => ({ messages: history })),
    listAgents: vi.fn(async () => []),
    listAgentFileProblems: vi.fn(async () => []),
    forks: vi.fn(async () => ({ forks: [] })),
    flush: vi.fn(async () => {}),
    ...overrides,
  }
  return new Proxy(base, {
    get: (target, name: string) => target[name as keyof ClientApi] ?? (async () => Promise.reject(new Error(`not faked: ${name}`))),
  }) as ClientApi
}

/** Mounts `view` inside a real session store over `api` (with the session opened) and a fixed provider list. */
export async function mountWithStore(api: ClientApi, sessionID: string, view: () => JSX.Element) {
  const handlers = new Set<(event: SessionEvent) => void>()
  const connection: WorkerConnection = {
    api,
    listen: (handler) => {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    onForeignProtocol: () => {},
  }
  const providers = {
    providers: () => [openai],
    loading: () => false,
    error: () => undefined,
    defaultModel: () => ({ providerID: 'prv_a', modelID: 'gpt-test' }),
  } as unknown as ProviderStore
  const container = document.createElement('div')
  document.body.append(container)
  let store!: SessionStore
  createRoot((dispose) => {
    // Each delivery applied at the next frame, as the first after a quiet spell is: the harness's events are far apart.
    store = createSessionStore(connection, { schedule: (flush) => frameScheduler(flush) })
    const unmount = render(
      () => (
        <SessionStoreContext.Provider value={store}>
          <ProviderStoreContext.Provider value={providers}>{view()}</ProviderStoreContext.Provider>
        </SessionStoreContext.Provider>
      ),
      container,
    )
    cleanups.push(() => {
      unmount()
      dispose()
      container.remove()
    })
  })
  await store.current.open(sessionID)
  await settle()
  /** Delivers events the way the worker's channel does (applied at the next frame). */
  const emit = async (...events: SessionEvent[]) => {
    for (const event of events) for (const handler of handlers) handler(event)
    await new Promise((resolve) => requestAnimationFrame(resolve))
    await settle()
  }
  return { root: container, store, emit }
}

/** The element's accessible name, roughly: what aria-labelledby points at, aria-label, else its text. */
export function nameOf(element: Element): string {
  const labelledBy = element.getAttribute('aria-labelledby')
  if (labelledBy) return element.ownerDocument.getElementById(labelledBy)?.textContent?.trim() ?? ''
  return element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''
}

export function byRole<T extends HTMLElement = HTMLElement>(root: ParentNode, role: string, name?: string): T[] {
  const implicit: Record<string, string> = { button: 'button:not([role])', article: 'article:not([role])', list: 'ul:not([role]), ol:not([role])', listitem: 'li', link: 'a[href]', dialog: 'dialog:not([role])', checkbox: 'input[type="checkbox"]', region: 'section[aria-label]:not([role])' }
  const selector = [`[role="${role}"]`, implicit[role]].filter(Boolean).join(', ')
  return [...root.querySelectorAll<T>(selector)].filter((element) => name === undefined || nameOf(element) === name)
}

export function one<T extends HTMLElement = HTMLElement>(root: ParentNode, role: string, name?: string): T {
  const found = byRole<T>(root, role, name)
  if (found.length !== 1) throw new Error(`expected one ${role} "${name ?? ''}", found ${found.length}`)
  return found[0]!
}
