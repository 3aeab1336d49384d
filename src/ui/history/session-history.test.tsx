// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import type { MessageWithParts } from '../../core/dto/messages'
import type { PartOf, SessionInfo } from '../../core/schema'
import type { ForkResult, RevertPreview } from '../../core/protocol'
import { SessionView } from '../session/session-view'
import type { OpenTarget } from './create-history-actions'
import { byRole, makeConversation, makeFakeApi, mountWithStore, nameOf, one, settle } from './testing/history-harness'

async function mountSession(options: { turns?: number; steps?: number; api?: Parameters<typeof makeFakeApi>[2]; edit?: (history: MessageWithParts[], conversation: ReturnType<typeof makeConversation>) => void } = {}) {
  const conversation = makeConversation({ turns: options.turns ?? 2, ...(options.steps ? { steps: options.steps } : {}) })
  options.edit?.(conversation.history, conversation)
  const api = makeFakeApi(conversation.session, conversation.history, options.api)
  const onOpen = vi.fn<(target: OpenTarget) => void>()
  const mounted = await mountWithStore(api, conversation.session.id, () => (
    <SessionView sessionID={conversation.session.id} promptID="prompt" onOpen={onOpen} />
  ))
  const messageElement = (messageID: string) => mounted.root.querySelector<HTMLElement>(`[data-message-id="${messageID}"]`)!
  /** Opens a message's (or part's) menu and picks an item. */
  const choose = async (scope: HTMLElement, item: string, menu = 'Message actions') => {
    one<HTMLButtonElement>(scope, 'button', menu).click()
    one<HTMLButtonElement>(scope, 'menuitem', item).click()
    await settle()
  }
  return { ...conversation, ...mounted, api, onOpen, messageElement, choose }
}

function forkResult(session: SessionInfo, overrides: Partial<SessionInfo> = {}): ForkResult {
  const fork = { ...session, id: 'ses_fork', title: `${session.title} (fork #1)`, fork: { sessionID: session.id }, ...overrides }
  return { session: fork, project: { id: fork.projectID, name: 'p', directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } }, newProject: false }
}

describe('message actions', () => {
  it('offers branch and both reverts on every prompt and reply, by keyboard too', async () => {
    const { root, history } = await mountSession()
    expect(byRole(root, 'button', 'Message actions')).toHaveLength(history.length)
    const button = byRole<HTMLButtonElement>(root, 'button', 'Message actions')[0]!
    expect(button.getAttribute('aria-haspopup')).toBe('menu')
    expect(byRole(root, 'menu')).toHaveLength(0)
    button.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    const menu = one(root, 'menu', 'Message actions')
    expect(byRole(menu, 'menuitem').map(nameOf)).toEqual(['Copy', 'Edit and resend', 'Branch from here', 'Revert conversation', 'Revert conversation and files'])
    expect(document.activeElement?.textContent).toBe('Copy')
    menu.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    expect(document.activeElement?.textContent).toBe('Edit and resend')
    menu.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }))
    menu.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }))
    expect(document.activeElement?.textContent).toBe('Revert conversation and files')
    menu.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(byRole(root, 'menu')).toHaveLength(0)
    expect(document.activeElement).toBe(button)
  })

  it('offers the reverts disabled, with the reason, while a reply is being written', async () => {
    const { root, emit, session, messageElement, history } = await mountSession()
    await emit({ type: 'session.status', sessionID: session.id, status: { type: 'busy' } })
    const scope = messageElement(history[0]!.info.id)
    one<HTMLButtonElement>(scope, 'button', 'Message actions').click()
    const revert = one<HTMLButtonElement>(scope, 'menuitem', 'Revert conversation')
    expect(revert.getAttribute('aria-disabled')).toBe('true')
    const reason = document.getElementById(revert.getAttribute('aria-describedby')!)
    expect(reason?.textContent).toContain('Not while a reply is being written')
    revert.click()
    await settle()
    expect(byRole(root, 'dialog')).toHaveLength(0)
    expect(one(scope, 'menuitem', 'Branch from here').getAttribute('aria-disabled')).toBeNull()
  })

  it('keeps an imported session to branching: reverts and compaction are refused with the reason', async () => {
    const { root, history, messageElement } = await mountSession({
      edit: (_history, conversation) => {
        conversation.session.metadata = { import: { hash: 'h', source: 'link', time: 1 } }
      },
    })
    const scope = messageElement(history[1]!.info.id)
    one<HTMLButtonElement>(scope, 'button', 'Message actions').click()
    // A reply's revert says it takes the whole turn.
    const revert = one<HTMLButtonElement>(scope, 'menuitem', 'Revert this turn and its files')
    expect(revert.getAttribute('aria-disabled')).toBe('true')
    expect(document.getElementById(revert.getAttribute('aria-describedby')!)?.textContent).toContain('imported and is read-only')
    expect(one(scope, 'menuitem', 'Branch from here').getAttribute('aria-disabled')).toBeNull()
    expect(one<HTMLButtonElement>(root, 'button', 'Compact now').disabled).toBe(true)
  })
})

describe('branch from here', () => {
  it('forks before a prompt and hands its text to the fork', async () => {
    let result!: ForkResult
    const forkSession = vi.fn(async () => result)
    const { history, session, messageElement, choose, onOpen } = await mountSession({ api: { forkSession } })
    result = forkResult(session)
    await choose(messageElement(history[2]!.info.id), 'Branch from here')
    expect(forkSession).toHaveBeenCalledWith({ sessionID: session.id, messageID: history[2]!.info.id })
    expect(onOpen).toHaveBeenCalledWith({ session: result.session, notice: 'Branched into “Parser rewrite (fork #1)”', prompt: 'prompt 2' })
  })

  it('keeps a reply by cutting at the next message, and copies everything at the newest reply', async () => {
    const forkSession = vi.fn(async (input: { sessionID: string; messageID?: string }) => forkResult({ id: input.sessionID, title: 'Parser rewrite' } as SessionInfo))
    const { history, session, messageElement, choose, onOpen } = await mountSession({ steps: 2, api: { forkSession } })
    // Turn 1 is prompt, step, step; turn 2 likewise.
    await choose(messageElement(history[1]!.info.id), 'Branch from here')
    await choose(messageElement(history[2]!.info.id), 'Branch from here')
    await choose(messageElement(history[5]!.info.id), 'Branch from here')
    expect(forkSession.mock.calls.map(([input]) => input)).toEqual([
      { sessionID: session.id, messageID: history[2]!.info.id },
      { sessionID: session.id, messageID: history[3]!.info.id },
      { sessionID: session.id },
    ])
    expect(onOpen.mock.calls.every(([target]) => target.prompt === undefined)).toBe(true)
  })

  it('shows a refused branch in the problem banner', async () => {
    const { history, messageElement, choose, store, onOpen } = await mountSession({
      api: { forkSession: async () => Promise.reject(new Error('The session is busy')) },
    })
    await choose(messageElement(history[0]!.info.id), 'Branch from here')
    expect(store.problem()).toBe("Couldn't branch the session: The session is busy")
    expect(onOpen).not.toHaveBeenCalled()
  })
})

describe('revert', () => {
  const preview = (messageID: string, files: RevertPreview['files']): RevertPreview => ({ messageID, messages: 2, files })

  it('confirms with the files that change, hides the messages, refills the prompt, and unreverts', async () => {
    const calls: unknown[] = []
    let info!: SessionInfo
    const { root, history, messageElement, choose, session } = await mountSession({
      api: {
        revertPreview: async (input: { messageID: string }) => {
          calls.push(['preview', input])
          return preview(input.messageID, [
            { path: '/workspace/src/parser.ts', change: 'restore' },
            { path: '/workspace/src/lexer.ts', change: 'delete' },
          ])
        },
        revertSession: async (input: { messageID: string; files: boolean }) => {
          calls.push(['revert', input])
          info = { ...session, revert: { messageID: input.messageID, files: ['/workspace/src/parser.ts', '/workspace/src/lexer.ts'] } }
          return info
        },
        unrevertSession: async () => {
          calls.push(['unrevert'])
          const { revert: _dropped, ...rest } = info
          return rest
        },
      },
    })
    const target = history[2]!.info.id
    await choose(messageElement(target), 'Revert conversation and files')
    const dialog = one(root, 'dialog', 'Revert conversation and files')
    expect(dialog.textContent).toContain('2 messages will be hidden.')
    const files = one(dialog, 'list', 'Files that will change')
    expect(byRole(files, 'listitem').map((item) => item.textContent)).toEqual(['/workspace/src/parser.ts restored', '/workspace/src/lexer.ts deleted'])
    one<HTMLButtonElement>(dialog, 'button', 'Revert').click()
    await settle()
    await settle()
    expect(calls).toEqual([
      ['preview', { sessionID: session.id, messageID: target }],
      ['revert', { sessionID: session.id, messageID: target, files: true }],
    ])
    expect(byRole(root, 'dialog')).toHaveLength(0)
    expect(root.querySelector(`[data-message-id="${target}"]`)).toBeNull()
    expect(root.querySelector(`[data-message-id="${history[1]!.info.id}"]`)).not.toBeNull()
    const reverted = one(root, 'region', 'Reverted')
    expect(reverted.textContent).toContain('2 messages hidden')
    expect(reverted.textContent).toContain('Files restored: 2')
    const prompt = root.querySelector<HTMLTextAreaElement>('#prompt')!
    expect(prompt.value).toBe('prompt 2')
    expect(prompt.placeholder).toContain('removes the hidden messages')

    one<HTMLButtonElement>(reverted, 'button', 'Unrevert').click()
    await settle()
    expect(calls.at(-1)).toEqual(['unrevert'])
    expect(byRole(root, 'region', 'Reverted')).toHaveLength(0)
    expect(root.querySelector(`[data-message-id="${target}"]`)).not.toBeNull()
  })

  it('says files are left alone for a conversation revert, and reverts a tool call at its part', async () => {
    let tool!: PartOf<'tool'>
    const revertPreview = vi.fn(async (input: { messageID: string }) => preview(input.messageID, []))
    const { root, history, messageElement, choose, session } = await mountSession({
      api: { revertPreview },
      edit: (rows, { part }) => {
        const reply = rows[1]!
        tool = part<PartOf<'tool'>>({
          sessionID: reply.info.sessionID,
          messageID: reply.info.id,
          type: 'tool',
          callID: 'call_1',
          tool: 'bash',
          state: { status: 'completed', input: { command: 'ls' }, output: 'a\nb', title: 'ls', metadata: {}, time: { start: 1, end: 2, compacted: 3 } },
        })
        reply.parts.push(tool)
      },
    })
    const reply = messageElement(history[1]!.info.id)
    expect(reply.textContent).toContain('Cleared for the model')
    const toolCard = one(reply, 'group', 'Tool call: bash')
    await choose(toolCard, 'Revert from this call on', 'Part actions')
    expect(revertPreview).toHaveBeenCalledWith({ sessionID: session.id, messageID: tool.messageID, partID: tool.id })
    const dialog = one(root, 'dialog', 'Revert conversation')
    expect(dialog.textContent).toContain('Files are left as they are.')
    one<HTMLButtonElement>(dialog, 'button', 'Cancel').click()
    await settle()
    expect(byRole(root, 'dialog')).toHaveLength(0)
    // The same per-step revert is in the reply's own menu, named by the call.
    await choose(reply, 'Revert from “ls” on')
    expect(revertPreview).toHaveBeenLastCalledWith({ sessionID: session.id, messageID: tool.messageID, partID: tool.id })
    one<HTMLButtonElement>(one(root, 'dialog', 'Revert conversation'), 'button', 'Cancel').click()
    await settle()

    await choose(messageElement(history[0]!.info.id), 'Revert conversation and files')
    expect(one(root, 'dialog', 'Revert conversation and files').textContent).toContain('No files will change.')
  })

  it('hides the parts from a part revert on, keeping the ones before it', async () => {
    const { root, history, emit, session } = await mountSession({
      edit: (rows, { part }) => {
        const reply = rows[1]!
        reply.parts.push(part<PartOf<'text'>>({ sessionID: reply.info.sessionID, messageID: reply.info.id, type: 'text', text: 'second thoughts' }))
      },
    })
    const reply = history[1]!
    await emit({ type: 'session.updated', info: { ...session, revert: { messageID: reply.info.id, partID: reply.parts[1]!.id } } })
    const shown = root.querySelector(`[data-message-id="${reply.info.id}"]`)!
    expect(shown.textContent).toContain('answer 1.1')
    expect(shown.textContent).not.toContain('second thoughts')
    expect(one(root, 'region', 'Reverted').textContent).toContain('2 messages hidden')
    expect(one(root, 'region', 'Reverted').textContent).not.toContain('Files restored')
  })

  it('keeps the dialog open with the reason when the worker refuses', async () => {
    const { root, history, messageElement, choose } = await mountSession({
      api: {
        revertPreview: async (input: { messageID: string }) => preview(input.messageID, []),
        revertSession: async () => Promise.reject(new Error('Session ses_x is busy')),
      },
    })
    await choose(messageElement(history[0]!.info.id), 'Revert conversation')
    const dialog = one(root, 'dialog', 'Revert conversation')
    one<HTMLButtonElement>(dialog, 'button', 'Revert').click()
    await settle()
    expect(one(dialog, 'alert').textContent).toBe('Session ses_x is busy')
  })
})

describe('compaction in the conversation', () => {
  it('draws the marker as a divider that can be undone, the summary as a card, the continue message small', async () => {
    const undoCompaction = vi.fn(async () => {})
    let marker!: PartOf<'compaction'>
    const { root, emit, session } = await mountSession({
      api: { undoCompaction },
      edit: (rows, { build, part, session }) => {
        const request = build.user(session.id)
        marker = part<PartOf<'compaction'>>({ sessionID: session.id, messageID: request.id, type: 'compaction', auto: true, overflow: true })
        const summary = build.assistant(session.id, request.id, { summary: true })
        const next = build.user(session.id)
        rows.push(
          { info: request, parts: [marker] },
          { info: summary, parts: [build.text(summary, '## Objective\nRewrite the parser')] },
          { info: next, parts: [{ ...build.text(next, 'Continue if you have next steps'), synthetic: true, metadata: { compaction_continue: true } }] },
        )
      },
    })
    const divider = one(root, 'group', 'Conversation compacted')
    expect(divider.textContent).toContain('Compacted automatically')
    expect(one(root, 'region', 'Summary').textContent).toContain('Rewrite the parser')
    expect(root.textContent).toContain('Continued after compaction')
    expect(root.textContent).not.toContain('Continue if you have next steps')
    // The older turns stay readable above the divider.
    expect(root.textContent).toContain('answer 1.1')

    one<HTMLButtonElement>(divider, 'button', 'Undo compaction').click()
    await settle()
    expect(undoCompaction).toHaveBeenCalledWith({ sessionID: session.id, messageID: marker.messageID })
    await emit({ type: 'part.updated', part: { ...marker, undone: 5 } })
    expect(divider.textContent).toContain('Compaction undone')
    expect(byRole(divider, 'button', 'Undo compaction')).toHaveLength(0)
  })
})

describe('session header', () => {
  it('compacts on request, refused while busy', async () => {
    const compactSession = vi.fn(async () => {})
    const { root, session, emit } = await mountSession({ api: { compactSession } })
    const compact = one<HTMLButtonElement>(root, 'button', 'Compact now')
    compact.click()
    await settle()
    expect(compactSession).toHaveBeenCalledWith({ sessionID: session.id })
    await emit({ type: 'session.status', sessionID: session.id, status: { type: 'busy' } })
    expect(compact.disabled).toBe(true)
  })

  it('shows what the model sees: the system prompt, each message, the estimate and the summary start', async () => {
    const { root } = await mountSession({
      api: {
        modelView: async () => ({
          model: { providerID: 'prv_a', modelID: 'gpt-test' },
          system: 'You are tabcode.',
          estimatedTokens: 1234,
          summaryMessageID: 'msg_summary',
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'What did we do so far?' }] },
            { role: 'assistant', content: [{ type: 'text', text: '## Objective' }, { type: 'tool-call', toolCallId: 'c', toolName: 'read', input: { filePath: 'a.ts' } }] },
            { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'read', output: { type: 'text', value: 'file body' } }] },
          ],
        }),
      },
    })
    one<HTMLButtonElement>(root, 'button', 'What the model sees').click()
    // The dialog's code loads on first open.
    await vi.waitFor(() => one(root, 'dialog', 'What the model sees'))
    await settle()
    const dialog = one(root, 'dialog', 'What the model sees')
    expect(dialog.textContent).toContain('≈ 1234 tokens')
    expect(dialog.textContent).toContain('Starts from a summary')
    expect(one(dialog, 'region', 'System prompt').textContent).toContain('You are tabcode.')
    const messages = byRole(one(dialog, 'list', 'Messages sent'), 'listitem')
    expect(messages.map((item) => item.querySelector('h3')?.textContent)).toEqual(['User', 'Assistant', 'Tool'])
    expect(messages[0]!.textContent).toContain('What did we do so far?')
    expect(messages[1]!.textContent).toContain('Tool call: read')
    expect(messages[2]!.textContent).toContain('file body')
    one<HTMLButtonElement>(dialog, 'button', 'Close').click()
    expect(byRole(root, 'dialog')).toHaveLength(0)
  })

  it('links to the origin and lists the forks, opening them through the workbench', async () => {
    const origin = { id: 'ses_origin', title: 'Parser', projectID: 'prj_test' } as SessionInfo
    const forks = [{ id: 'ses_f1', title: 'Parser rewrite (fork #1)', projectID: 'prj_other' } as SessionInfo]
    const { root, onOpen } = await mountSession({ api: { forks: async () => ({ origin, forks }) } })
    one<HTMLAnchorElement>(root, 'link', 'Forked from Parser').click()
    expect(onOpen).toHaveBeenLastCalledWith({ session: origin })
    const toggle = one<HTMLButtonElement>(root, 'button', 'Forks (1)')
    toggle.click()
    one<HTMLAnchorElement>(one(root, 'list', 'Forks'), 'link', 'Parser rewrite (fork #1)').click()
    expect(onOpen).toHaveBeenLastCalledWith({ session: forks[0] })
  })

  it('reads the forks again when one is made, renamed or deleted while the session stays open (here or in another tab)', async () => {
    const forks: SessionInfo[] = []
    const { root, emit, session, api } = await mountSession({ api: { forks: vi.fn(async () => ({ forks: [...forks] })) } })
    expect(root.textContent).not.toContain('Forks (')
    const fork = { ...session, id: 'ses_fork', title: `${session.title} (fork #1)`, fork: { sessionID: session.id } }
    forks.push(fork)
    await emit({ type: 'session.created', info: fork })
    expect(one<HTMLButtonElement>(root, 'button', 'Forks (1)')).toBeTruthy()
    one<HTMLButtonElement>(root, 'button', 'Forks (1)').click()
    forks[0] = { ...fork, title: 'Lexer only' }
    await emit({ type: 'session.updated', info: forks[0] })
    one<HTMLAnchorElement>(one(root, 'list', 'Forks'), 'link', 'Lexer only')
    // Other sessions changing do not read the list again.
    const reads = vi.mocked(api.forks).mock.calls.length
    await emit({ type: 'session.updated', info: { ...session, title: 'Parser, renamed' } })
    expect(vi.mocked(api.forks).mock.calls.length).toBe(reads)
    forks.pop()
    await emit({ type: 'session.deleted', info: forks[0] ?? fork })
    expect(root.textContent).not.toContain('Forks (')
  })
})

describe('turn actions', () => {
  const key = (target: Element, key: string, init: KeyboardEventInit = {}) =>
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))

  /** Revert and prompt calls, recorded in order; a revert hides from its message on. */
  const recording = (calls: unknown[], session: () => SessionInfo) => ({
    revertSession: async (input: { messageID: string; files: boolean }) => {
      calls.push(['revert', input])
      return { ...session(), revert: { messageID: input.messageID } }
    },
    prompt: async (input: unknown) => {
      // What postMessage would do: a store proxy in the input cannot cross to the worker.
      calls.push(['prompt', structuredClone(input)])
      return { status: 'stored', messageID: 'msg_new' }
    },
  })
  const textbox = (root: HTMLElement, name: string) => [...root.querySelectorAll<HTMLTextAreaElement>('textarea')].filter((element) => nameOf(element) === name)

  it('Edit and resend opens the prompt in place; Enter reverts to before it and sends the edited text', async () => {
    const calls: unknown[] = []
    const { root, history, messageElement, choose, session } = await mountSession({ api: recording(calls, () => session) })
    const target = history[2]!.info
    await choose(messageElement(target.id), 'Edit and resend')
    const editor = textbox(root, 'Edit prompt')[0]!
    expect(editor.value).toBe('prompt 2')
    expect(document.activeElement).toBe(editor)
    editor.value = 'prompt 2, but better'
    editor.dispatchEvent(new InputEvent('input', { bubbles: true }))
    key(editor, 'Enter')
    await settle()
    await settle()
    const user = target.role === 'user' ? target : undefined
    expect(calls).toEqual([
      ['revert', { sessionID: session.id, messageID: target.id, files: false }],
      ['prompt', { sessionID: session.id, parts: [{ type: 'text', text: 'prompt 2, but better' }], agent: user!.agent, model: user!.model }],
    ])
    expect(textbox(root, 'Edit prompt')).toHaveLength(0)
  })

  it('Escape cancels the edit: nothing is reverted or sent and the prompt shows as before', async () => {
    const { root, history, messageElement, choose } = await mountSession()
    const target = history[0]!.info.id
    await choose(messageElement(target), 'Edit and resend')
    const editor = textbox(root, 'Edit prompt')[0]!
    key(editor, 'Escape')
    await settle()
    expect(textbox(root, 'Edit prompt')).toHaveLength(0)
    expect(messageElement(target).textContent).toContain('prompt 1')
  })

  it('offers Regenerate on the last reply only, and it runs the same prompt again from before it', async () => {
    const calls: unknown[] = []
    const { history, messageElement, choose, session } = await mountSession({ api: recording(calls, () => session) })
    const first = messageElement(history[1]!.info.id)
    one<HTMLButtonElement>(first, 'button', 'Message actions').click()
    expect(byRole(first, 'menuitem').map(nameOf)).not.toContain('Regenerate')
    await choose(messageElement(history[3]!.info.id), 'Regenerate')
    await settle()
    expect(calls).toEqual([
      ['revert', { sessionID: session.id, messageID: history[2]!.info.id, files: false }],
      ['prompt', expect.objectContaining({ parts: [{ type: 'text', text: 'prompt 2' }] })],
    ])
  })

  it('offers Continue on a stopped last reply, which asks the model to go on', async () => {
    const prompt = vi.fn(async () => ({ status: 'stored', messageID: 'msg_new' }))
    const { root, history } = await mountSession({
      api: { prompt },
      edit: (history) => {
        const last = history.at(-1)!.info
        if (last.role === 'assistant') last.error = { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } }
      },
    })
    const buttons = byRole<HTMLButtonElement>(root, 'button', 'Continue')
    expect(buttons).toHaveLength(1)
    expect(buttons[0]!.closest('[data-message-id]')?.getAttribute('data-message-id')).toBe(history.at(-1)!.info.id)
    buttons[0]!.click()
    await settle()
    expect(prompt).toHaveBeenCalledWith(expect.objectContaining({ parts: [{ type: 'text', text: expect.stringMatching(/^Continue/) }] }))
  })
})
