import { createSignal, createUniqueId, onMount, Show, type JSX } from 'solid-js'
import type { ClientApi, SyncConnectionReport, SyncServerInput } from '../../core/protocol'
import type { SyncStatus } from '../../core/sync-state'
import { ConfirmDialog } from '../kit/dialog/confirm-dialog'
import { errorMessage } from '../kit/format/error'
import { Checkbox } from '../kit/form/checkbox'
import { TextField } from '../kit/form/field'
import { ProblemNote } from '../kit/form/problem-note'
import { syncStatusText } from '../sync/sync-status-text'

export type SyncSettingsApi = Pick<
  ClientApi,
  'testSyncConnection' | 'createSyncDatabase' | 'enableSync' | 'disableSync' | 'pauseSync' | 'resumeSync' | 'syncNow'
>

/** What Settings → Sync needs: the worker's sync calls, the status as the indicator sees it, and a way to update it. */
export interface SyncSettingsProps {
  api: SyncSettingsApi
  status: () => SyncStatus | undefined
  onStatus: (status: SyncStatus) => void
  /** Opened from the sync indicator: the section takes the focus. */
  focus?: boolean
}

type Messages = 'all' | 'on-demand'

/**
 * Settings → Sync (issue 31, docs/sync.md). Nothing here contacts a server until the user presses Test connection or
 * Turn on sync. The password and the passphrase are write-only: they go to the worker and are never read back.
 */
export function SyncSettings(props: SyncSettingsProps): JSX.Element {
  const ids = { heading: createUniqueId(), intro: createUniqueId(), messages: createUniqueId(), secrets: createUniqueId() }
  const setup = () => props.status()?.setup
  const on = () => (props.status()?.state ?? 'off') !== 'off'
  // A field the user has not touched shows what is set up (the status may arrive after the dialog opened).
  const [url, setUrl] = createSignal<string>()
  const [database, setDatabase] = createSignal<string>()
  const [username, setUsername] = createSignal<string>()
  const [password, setPassword] = createSignal('')
  const [passphrase, setPassphrase] = createSignal('')
  const [secrets, setSecrets] = createSignal<boolean>()
  const [messages, setMessages] = createSignal<Messages>()
  const [report, setReport] = createSignal<{ report: SyncConnectionReport; database: string }>()
  const [busy, setBusy] = createSignal<string>()
  const [problem, setProblem] = createSignal<string>()
  const [notice, setNotice] = createSignal<string>()
  const [confirmingOff, setConfirmingOff] = createSignal(false)
  let heading!: HTMLHeadingElement

  const shown = {
    url: () => url() ?? setup()?.url ?? '',
    database: () => database() ?? setup()?.database ?? 'tabcode',
    username: () => username() ?? setup()?.username ?? '',
    secrets: () => secrets() ?? setup()?.secrets ?? false,
    messages: (): Messages => messages() ?? setup()?.messages ?? 'all',
  }
  /** The server keeps a password only while sync is set up with a username. */
  const passwordKept = () => setup()?.username !== undefined && setup()?.username === shown.username().trim()

  onMount(() => {
    if (!props.focus) return
    heading.scrollIntoView({ block: 'start' })
    heading.focus()
  })

  const server = (): SyncServerInput | undefined => {
    const address = shown.url().trim()
    const name = shown.database().trim()
    if (!address || !name) {
      setProblem('Enter the server URL and the database name.')
      return undefined
    }
    const user = shown.username().trim()
    return { url: address, database: name, ...(user ? { username: user } : {}), ...(password() ? { password: password() } : {}) }
  }

  /** Runs one call at a time; its failure is the section's alert, and nothing else changes. */
  const run = async (label: string, action: () => Promise<void>) => {
    if (busy()) return
    setBusy(label)
    setProblem(undefined)
    setNotice(undefined)
    try {
      await action()
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setBusy(undefined)
    }
  }

  const test = () => {
    const input = server()
    if (!input) return
    void run('Testing…', async () => {
      setReport(undefined)
      setReport({ report: await props.api.testSyncConnection(input), database: input.database })
    })
  }

  const create = () => {
    const input = server()
    if (!input) return
    void run('Creating…', async () => {
      setReport({ report: await props.api.createSyncDatabase(input), database: input.database })
    })
  }

  const enable = (event: SubmitEvent) => {
    event.preventDefault()
    const input = server()
    if (!input) return
    if (!passphrase()) {
      setProblem('Enter the sync passphrase.')
      return
    }
    void run('Turning on…', async () => {
      const status = await props.api.enableSync({ ...input, passphrase: passphrase(), secrets: shown.secrets(), messages: shown.messages() })
      props.onStatus(status)
      setPassword('')
      setPassphrase('')
      setReport(undefined)
      setNotice('Sync is on.')
    })
  }

  const act = (label: string, call: () => Promise<SyncStatus>, done: string) =>
    void run(label, async () => {
      props.onStatus(await call())
      setNotice(done)
    })

  const reportView = (current: { report: SyncConnectionReport; database: string }) => {
    const { report: outcome, database: name } = current
    switch (outcome.type) {
      case 'ready':
        return <p role="status">{`The server answers and the database ${name} is there.${on() ? '' : ' Turn on sync to start.'}`}</p>
      case 'missing':
        return outcome.mayCreate ? (
          <div class="sync-report">
            <p role="status">{`The database ${name} does not exist yet. These credentials may create it.`}</p>
            <button type="button" class="button button-small" disabled={!!busy()} onClick={create}>
              Create database
            </button>
          </div>
        ) : (
          <p role="alert">
            {`The database ${name} does not exist, and these credentials may not create it. Ask the server's admin to create it and to make ${shown.username().trim() || 'your user'} a member of it.`}
          </p>
        )
      case 'unreachable':
        return <p role="alert">{`The server could not be reached (${outcome.detail}). ${outcome.fix}`}</p>
      case 'unauthorised':
        return <p role="alert">{`The server refused these credentials (${outcome.detail}). Check the username and password.`}</p>
      case 'refused':
        return <p role="alert">{`The server refused the request: ${outcome.detail}`}</p>
    }
  }

  return (
    <section class="settings-section sync-settings" aria-labelledby={ids.heading} aria-describedby={ids.intro}>
      <h3 id={ids.heading} ref={heading} class="settings-heading" tabindex="-1">
        Sync
      </h3>
      <p id={ids.intro} class="field-hint">
        Keeps your sessions, projects and files on every device you use, through an Apache CouchDB database you run or
        rent (or any server that speaks its replication protocol). Everything is encrypted on this device before it is
        sent; the server stores only ciphertext.
      </p>
      <Show when={on() && props.status()}>
        {(status) => (
          <div class="sync-state">
            <p>{`Sync is on: ${syncStatusText(status()) ?? ''}`}</p>
            <Show when={status().state === 'error' && status().error}>{(error) => <p class="problem">{error().fix}</p>}</Show>
            <div class="sync-controls">
              <Show
                when={status().state === 'paused'}
                fallback={
                  <button type="button" class="button button-small" disabled={!!busy()} onClick={() => act('Pausing…', () => props.api.pauseSync(), 'Sync is paused.')}>
                    Pause
                  </button>
                }
              >
                <button type="button" class="button button-small" disabled={!!busy()} onClick={() => act('Resuming…', () => props.api.resumeSync(), 'Sync resumed.')}>
                  Resume
                </button>
              </Show>
              <button type="button" class="button button-small" disabled={!!busy()} onClick={() => act('Syncing…', () => props.api.syncNow(), 'Syncing now.')}>
                Sync now
              </button>
              <button type="button" class="button button-small" disabled={!!busy()} onClick={() => setConfirmingOff(true)}>
                Turn off sync
              </button>
            </div>
          </div>
        )}
      </Show>
      <form class="sync-form" aria-label="Sync server" onSubmit={enable}>
        <div class="settings-grid">
          <TextField
            label="Server URL"
            type="url"
            mono
            placeholder="https://couch.example.org"
            hint="The CouchDB server, without the database name."
            value={shown.url()}
            onValue={setUrl}
            autocomplete="off"
          />
          <TextField label="Database name" mono value={shown.database()} onValue={setDatabase} autocomplete="off" />
          <TextField label="Username" value={shown.username()} onValue={setUsername} autocomplete="username" />
          <TextField
            label="Password"
            type="password"
            placeholder={passwordKept() ? 'kept' : ''}
            hint={passwordKept() ? 'A password is kept for this server: leave the field empty to keep it.' : 'Kept in this browser like an API key.'}
            value={password()}
            onValue={setPassword}
            autocomplete="current-password"
          />
          <TextField
            label="Sync passphrase"
            type="password"
            wide
            hint={
              'Encrypts everything before it leaves this device; the server never sees it. Lose it and the synced copy ' +
              'cannot be read. Use the same passphrase on every device.' +
              (on() ? ' Needed again only to change the server.' : '')
            }
            value={passphrase()}
            onValue={setPassphrase}
            autocomplete="new-password"
          />
        </div>
        <div class="settings-check">
          <Checkbox
            label="Also sync provider keys and MCP tokens"
            checked={shown.secrets()}
            onChange={setSecrets}
            describedBy={ids.secrets}
          />
        </div>
        <p id={ids.secrets} class="field-hint">
          They are encrypted like everything else, but anyone who has both the passphrase and access to the server can
          read them. Unticked, each device keeps its own.
        </p>
        <fieldset class="sync-choice" aria-describedby={ids.messages}>
          <legend class="field-label">Messages on this device</legend>
          <label class="checkbox">
            <input type="radio" name={ids.messages} value="all" checked={shown.messages() === 'all'} onChange={() => setMessages('all')} />
            All
          </label>
          <label class="checkbox">
            <input
              type="radio"
              name={ids.messages}
              value="on-demand"
              checked={shown.messages() === 'on-demand'}
              onChange={() => setMessages('on-demand')}
            />
            When a session is opened
          </label>
          <p id={ids.messages} class="field-hint">
            When a session is opened: this device takes the session list first and a session's messages when you open
            it, so a long history need not land here at once.
          </p>
        </fieldset>
        <Show when={report()}>{(current) => <div class="sync-report">{reportView(current())}</div>}</Show>
        <ProblemNote text={problem()} />
        <Show when={notice()}>
          <p class="connection-notice connection-status" role="status">
            {notice()}
          </p>
        </Show>
        <div class="sync-controls">
          <button type="button" class="button" disabled={!!busy()} onClick={test}>
            {busy() === 'Testing…' ? 'Testing…' : 'Test connection'}
          </button>
          <button type="submit" class="button button-primary" disabled={!!busy()}>
            {busy() === 'Turning on…' ? 'Turning on…' : on() ? 'Save and reconnect' : 'Turn on sync'}
          </button>
        </div>
      </form>
      <Show when={confirmingOff()}>
        <ConfirmDialog
          title="Turn off sync?"
          description={
            <p>
              This device stops syncing and forgets the server, its password and the key. Everything on this device
              stays; the server's copy stays too.
            </p>
          }
          confirmLabel="Turn off sync"
          busyLabel="Turning off…"
          onConfirm={async () => {
            props.onStatus(await props.api.disableSync())
            setConfirmingOff(false)
            setNotice('Sync is off. Everything on this device stays.')
          }}
          onClose={() => setConfirmingOff(false)}
        />
      </Show>
    </section>
  )
}
