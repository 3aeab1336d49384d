import { describeFailure } from '../kit/format/storage-full'
import { createEffect, createSignal, createUniqueId, For, on, onMount, Show, useContext, type JSX } from 'solid-js'
import type { ModelReference } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import { keysFor } from '../kit/keyboard/shortcuts'
import { useProviderStore } from '../settings/create-provider-store'
import { ModelPicker } from '../settings/model-picker'
import { textAfterSend } from '../store/draft-store'
import { useSessionStore } from '../store/session-store-context'
import { canSend, deliveryFor, promptKeyAction, type PromptAction } from './prompt-keys'
import { QueuedPrompts } from './queued-prompts'
import { isRunning } from '../kit/format/session-status-text'
import { wholeCommand } from '../../core/composer/trigger'
import { HistoryActionsContext } from '../history/history-context'
import { ComposerPopup } from './composer-popup'
import { isBuiltin, type BuiltinCommand } from './composer-options'
import { createComposer } from './create-composer'
import { INIT_PROMPT } from './init-prompt'
import { createAttachments, pasteAttaches, type PendingAttachment } from './create-attachments'
import { AttachmentChips } from './attachment-chips'
import { commandSwitchOf, type CommandSwitch } from '../../core/project-files/errors'
import { CommandConfirmDialog } from './command-confirm-dialog'
import { createPromptOutbox } from './prompt-outbox'
import { createAgentChoice } from './create-agent-choice'
import { PromptButtons } from './prompt-buttons'
import { Field } from '../kit/form/field'
import './prompt-box.css'
import './composer.css'

/** One prompt as sent: its text, its files, and whether the text came from the box (and leaves it once stored). */
interface Outgoing {
  text: string
  files: readonly PendingAttachment[]
  fromBox: boolean
}

/**
 * The prompt at the bottom of a session. Enter sends, Shift+Enter starts a new line. While a turn runs, Send adds the
 * prompt to that turn (answered at its next step) and Queue (Alt+Enter) runs it after the turn; Stop (Escape) ends
 * the turn. The text is cleared only once the worker stored the prompt; on failure it stays, with the reason. A prompt
 * sent while the one before is still being stored goes after it, never lost.
 */
export function PromptBox(props: {
  id: string
  sessionID: string
  onShowSettings?: (() => void) | undefined
  /** Called once a prompt is stored (the list then follows the end again). */
  onSent?: () => void
  /** Why this session takes no prompts (an imported session); the box is disabled and says so. */
  readOnly?: string | undefined
  /** `/new` in the prompt. */
  onNewSession?: (() => void) | undefined
}): JSX.Element {
  const store = useSessionStore()
  const providers = useProviderStore()
  const sessionID = props.sessionID
  const draft = store.drafts.get(sessionID)
  const [text, setText] = createSignal(draft.text)
  const [chosenModel, setChosenModel] = createSignal<ModelReference | undefined>(draft.model)
  const [sending, setSending] = createSignal(false)
  const [problem, setProblem] = createSignal<string>()
  const hintID = createUniqueId()
  const attachments = createAttachments((message) => setProblem(message))
  const agentID = createUniqueId()
  const choice = createAgentChoice({ store, sessionID, onModel: setChosenModel })
  const agent = choice.agent
  onMount(() => void choice.load())

  const running = () => isRunning(store.state.status[sessionID])
  // Present in a session view; a bare prompt box (its unit tests) has no history, and those commands say so.
  const history = useContext(HistoryActionsContext)
  let textarea: HTMLTextAreaElement | undefined
  let form: HTMLFormElement | undefined
  const composer = createComposer({
    api: store.api,
    projectID: () => store.state.sessions[sessionID]?.projectID,
    agents: choice.agents,
    text,
    setText: (value) => edit(value),
    textarea: () => textarea,
    runBuiltin: (command) => void runBuiltin(command),
  })

  async function runBuiltin(command: BuiltinCommand): Promise<void> {
    setProblem(undefined)
    if (!history && ['compact', 'undo', 'redo'].includes(command)) return void setProblem(`/${command} is not available here.`)
    const reason = history?.lockedReason()
    try {
      switch (command) {
        case 'new':
          props.onNewSession?.()
          return
        case 'compact':
          if (reason) return void setProblem(reason)
          return await history!.compact()
        case 'undo': {
          if (reason) return void setProblem(reason)
          const last = [...history!.visibleMessages()].reverse().find((message) => message.role === 'user')
          if (!last) return void setProblem('Nothing to undo yet.')
          return history!.requestRevert({ messageID: last.id, files: true })
        }
        case 'redo':
          if (!reverted()) return void setProblem('Nothing to redo: no revert is in effect.')
          return await history!.unrevert()
        case 'share':
        case 'export':
          // Share and export are one dialog, opened from the session header's Share button.
          form?.closest('.session-view')?.querySelector<HTMLButtonElement>('.session-share')?.click()
          return
        case 'models':
          form?.querySelector<HTMLElement>('.prompt-choices button, .prompt-choices select, .prompt-choices input')?.focus()
          return
        case 'agents':
          document.getElementById(agentID)?.focus()
          return
        case 'init':
          return await submit('send', INIT_PROMPT)
      }
    } catch (error) {
      setProblem(describeFailure(`run /${command}`, error))
    }
  }
  const sessionModel = (): ModelReference | undefined => {
    const model = store.state.sessions[sessionID]?.model
    return model ? { providerID: model.providerID, modelID: model.modelID } : undefined
  }
  const model = () => chosenModel() ?? choice.summary(agent())?.model ?? sessionModel() ?? providers.defaultModel()
  const noProviders = () => !providers.loading() && !providers.error() && providers.providers().length === 0

  const edit = (value: string) => {
    setText(value)
    store.drafts.update(sessionID, { text: value })
  }
  // Text the app hands back (a reverted prompt) replaces what is in the box; the draft already holds it.
  createEffect(
    on(
      store.drafts.filled,
      (fill) => {
        if (fill?.sessionID === sessionID) setText(fill.text)
      },
      { defer: true },
    ),
  )
  // Messages hidden by a revert are removed for good by the next prompt; the box says so before it happens.
  const reverted = () => store.state.sessions[sessionID]?.revert !== undefined

  // A project command that runs under another agent or model, waiting for the user to confirm it: exactly the prompt
  // that was refused goes once confirmed, whatever else the box holds by then (prompts sent behind it stay there).
  const [confirming, setConfirming] = createSignal<{ change: CommandSwitch; action: PromptAction; outgoing: Outgoing }>()

  const outbox = createPromptOutbox<PendingAttachment>(() => setSending(false))

  async function submit(action: PromptAction, instead?: string): Promise<void> {
    // What the box holds beyond the prompts already on their way.
    const typed = outbox.beyond(text())
    // The whole prompt naming a built-in (`/compact` + Enter) runs it; it is never sent to the model as text.
    const named = instead === undefined ? wholeCommand(typed) : undefined
    if (named && isBuiltin(named)) {
      // The prompts on their way keep their text until they are stored; the command's goes now.
      const box = text()
      edit(box.endsWith(typed) ? box.slice(0, box.length - typed.length) : '')
      return runBuiltin(named)
    }
    const sent = instead ?? typed
    // The palette's own prompts (/init) go alone; a typed prompt takes the files attached to it, but not those an
    // earlier prompt on its way took.
    const taken = outbox.taken()
    const files = instead === undefined ? attachments.list().filter((file) => !taken.has(file)) : []
    if (!(canSend(sent) || files.length > 0) || props.readOnly) return
    await deliver(action, { text: sent, files, fromBox: instead === undefined })
  }

  /** Stores one prompt, after those on their way; `command` is the switch the user confirmed for it. */
  async function deliver(action: PromptAction, outgoing: Outgoing, command?: CommandSwitch): Promise<void> {
    const { text: sent, files } = outgoing
    const delivery = deliveryFor(action, running())
    const reference = model()
    const input = {
      sessionID,
      parts: [...(canSend(sent) ? [{ type: 'text' as const, text: sent }] : []), ...attachments.parts(files)],
      agent: agent(),
      ...(reference ? { model: reference } : {}),
      ...(delivery ? { delivery } : {}),
      ...(command ? { command } : {}),
    }
    setSending(true)
    setProblem(undefined)
    await outbox.send({ text: outgoing.fromBox ? sent : undefined, files }, async () => {
      try {
        await store.api.prompt(input)
        // The user may have typed on while it was being stored; only what was sent leaves the box.
        if (outgoing.fromBox) edit(textAfterSend(store.drafts.get(sessionID).text, sent))
        attachments.sent(files)
        keepFocusInPrompt()
        props.onSent?.()
        return true
      } catch (error) {
        // Nothing was stored: the box keeps the text while the user decides.
        const change = commandSwitchOf(error)
        if (change) setConfirming({ change, action, outgoing })
        else setProblem(describeFailure('send the prompt', error))
        return false
      }
    })
  }

  /**
   * A Queue or Send button pressed with the mouse is disabled once the box is empty, and a disabled button drops
   * focus to the page, where Escape no longer reaches the turn: focus goes back to the prompt instead.
   */
  function keepFocusInPrompt(): void {
    const active = document.activeElement
    if (active === textarea) return
    if (!active || active === document.body || (form?.contains(active) && active instanceof HTMLButtonElement)) textarea?.focus()
  }

  // Set from the press until the turn has ended: the worker's cleanup (tools answering their abort) takes a moment,
  // and the button must say at once that it was heard.
  const [stopping, setStopping] = createSignal(false)
  createEffect(() => {
    if (!running()) setStopping(false)
  })
  async function stop(): Promise<void> {
    setStopping(true)
    try {
      await store.api.cancel(sessionID)
    } catch (error) {
      setStopping(false)
      setProblem(`Couldn't stop: ${errorMessage(error)}`)
    }
  }

  return (
    <form
      ref={form}
      class="prompt"
      aria-busy={sending()}
      data-read-only={props.readOnly ? '' : undefined}
      onSubmit={(event) => {
        event.preventDefault()
        void submit('send')
      }}
      onDragOver={(event) => {
        if (!props.readOnly && event.dataTransfer?.types.includes('Files')) event.preventDefault()
      }}
      onDrop={(event) => {
        const files = [...(event.dataTransfer?.files ?? [])]
        if (props.readOnly || files.length === 0) return
        event.preventDefault()
        void attachments.add(files)
      }}
    >
      <Show when={noProviders() && !props.readOnly}>
        <div class="prompt-setup">
          <span>Add a provider in Settings to start</span>
          <Show when={props.onShowSettings}>
            <button type="button" class="button button-small button-primary" onClick={() => props.onShowSettings?.()}>
              Open Settings
            </button>
          </Show>
        </div>
      </Show>
      <label class="visually-hidden" for={props.id}>
        Prompt
      </label>
      <Show when={composer.open()}>
        {(found) => (
          <ComposerPopup
            listID={composer.listID}
            label={found().type === 'command' ? 'Commands' : 'Files and agents'}
            options={composer.entries()}
            active={composer.active()}
            emptyText={found().type === 'command' ? 'No command matches' : 'No file or agent matches'}
            onAccept={composer.accept}
            onHover={composer.setActive}
          />
        )}
      </Show>
      <textarea
        ref={textarea}
        id={props.id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={composer.open() !== undefined}
        aria-controls={composer.open() ? composer.listID : undefined}
        aria-activedescendant={composer.activeDescendant()}
        class="prompt-input"
        rows={3}
        disabled={!!props.readOnly}
        placeholder={
          props.readOnly
            ? 'Read-only: continue in a fork to reply'
            : reverted()
              ? 'Sending a prompt removes the hidden messages…'
              : 'Ask tabcode to change, explain or explore the code…'
        }
        aria-keyshortcuts={keysFor('focus-prompt')}
        aria-describedby={hintID}
        value={text()}
        onInput={(event) => {
          edit(event.currentTarget.value)
          composer.follow(event.currentTarget)
        }}
        onKeyUp={(event) => {
          if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End') composer.follow(event.currentTarget)
        }}
        onClick={(event) => composer.follow(event.currentTarget)}
        onPaste={(event) => {
          const data = event.clipboardData
          const files = [...(data?.files ?? [])]
          if (!data || props.readOnly || !pasteAttaches({ types: [...data.types], files: files.length, text: data.getData('text/plain') })) return
          event.preventDefault()
          void attachments.add(files)
        }}
        onKeyDown={(event) => {
          if (composer.keyDown(event)) {
            // Escape here closes the popup only: preventing it keeps the session view from stopping the turn.
            event.preventDefault()
            return
          }
          const action = promptKeyAction(event, running())
          if (!action) return
          event.preventDefault()
          void submit(action)
        }}
      />
      <AttachmentChips items={attachments.list()} disabled={sending()} onRemove={attachments.remove} />
      <Show when={problem()}>
        <p class="prompt-problem problem" role="alert">
          <span>{problem()}</span>
          <button type="button" class="button-link" onClick={() => setProblem(undefined)}>
            Dismiss
          </button>
        </p>
      </Show>
      <div class="prompt-bar">
        <div class="prompt-choices">
          <ModelPicker
            value={model()}
            providers={providers.providers()}
            onChange={(reference) => {
              setChosenModel(reference)
              store.drafts.update(sessionID, { model: reference })
            }}
          />
          <Field label="Agent" class="prompt-agent" id={agentID}>
            {(control) => (
              <select
                id={control.id}
                class="select"
                value={agent()}
                onFocus={() => void choice.load()}
                onChange={(event) => choice.choose(event.currentTarget.value)}
              >
                <For each={choice.names()}>
                  {(name) => (
                    <option value={name} title={choice.summary(name)?.description} selected={name === agent()}>
                      {name}
                    </option>
                  )}
                </For>
              </select>
            )}
          </Field>
        </div>
        <PromptButtons
          readOnly={!!props.readOnly}
          running={running()}
          stopping={stopping()}
          canSend={canSend(text()) || attachments.list().length > 0}
          onAttach={(files) => void attachments.add(files)}
          onStop={() => void stop()}
          onQueue={() => void submit('queue')}
        />
      </div>
      <Show when={confirming()}>
        {(pending) => (
          <CommandConfirmDialog
            change={pending().change}
            agent={agent()}
            modelID={model()?.modelID}
            onConfirm={async () => {
              const { change, action, outgoing } = pending()
              setConfirming(undefined)
              await deliver(action, outgoing, change)
            }}
            onClose={() => setConfirming(undefined)}
          />
        )}
      </Show>
      <QueuedPrompts sessionID={sessionID} />
      <Show
        when={!props.readOnly}
        fallback={
          <p id={hintID} class="prompt-note">
            {props.readOnly}
          </p>
        }
      >
        <p id={hintID} class="prompt-note" classList={{ 'prompt-note-busy': running() }}>
          {running() ? 'Busy: Send adds to this turn · Queue runs after it' : 'Enter to send · Shift+Enter for a new line'}
          <Show when={reverted()}> · Sending removes the hidden messages for good (Unrevert brings them back)</Show>
        </p>
      </Show>
    </form>
  )
}
