import { createSignal, createUniqueId, For, Index, onMount, Show, type JSX } from 'solid-js'
import { createStore } from 'solid-js/store'
import { describeMcpStatus, type McpServerStatus, type McpStatus } from '../../core/mcp-status'
import type { McpServerSummary } from '../../core/mcp'
import type { AgentSummary, ClientApi } from '../../core/protocol'
import { describeMcpSignInFailure } from '../../core/mcp-oauth-callback'
import { describeRefusedMcpUrl, isAllowedMcpUrl } from '../../core/mcp-url'
import { errorMessage } from '../kit/format/error'
import { waitForMcpOAuthCallback } from './mcp-sign-in'
import { PencilIcon, PlusIcon, TrashIcon } from '../kit/icons/icons'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { Checkbox } from '../kit/form/checkbox'
import { TextField } from '../kit/form/field'
import { ProblemNote } from '../kit/form/problem-note'

export type McpSettingsApi = Pick<ClientApi, 'listMcpServers' | 'saveMcpServer' | 'removeMcpServer' | 'mcpStatus' | 'mcpSignIn' | 'mcpFinishSignIn' | 'mcpSignOut'>

/** Opens the sign-in window; a test replaces it. Answers null when the browser blocks it. */
export type OpenSignInWindow = () => Window | null

const openSignInWindow: OpenSignInWindow = () => window.open('about:blank', 'tabcode-mcp-sign-in', 'popup,width=520,height=700')

type Editing = { type: 'closed' } | { type: 'add' } | { type: 'edit'; server: McpServerSummary }

/**
 * Remote MCP servers: each with its state (connected with its tools, or why not), added and edited in place. Header
 * values are write-only: an edit shows the stored header names with empty values, and an empty value keeps the
 * stored one.
 */
export function McpSection(props: { api: McpSettingsApi; agents: AgentSummary[]; openWindow?: OpenSignInWindow }): JSX.Element {
  const headingID = createUniqueId()
  const hintID = createUniqueId()
  const [servers, setServers] = createSignal<McpServerSummary[]>([])
  const [statuses, setStatuses] = createSignal<Record<string, McpStatus>>({})
  const [checking, setChecking] = createSignal(false)
  const [editing, setEditing] = createSignal<Editing>({ type: 'closed' })
  const [problem, setProblem] = createSignal<string>()
  /** The server whose sign-in window is open, and how to stop waiting for it. */
  const [signingIn, setSigningIn] = createSignal<{ name: string; cancel: AbortController }>()

  const check = async (refresh: boolean) => {
    setChecking(true)
    try {
      const list: McpServerStatus[] = await props.api.mcpStatus({ refresh })
      setStatuses(Object.fromEntries(list.map((entry) => [entry.name, entry.status])))
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setChecking(false)
    }
  }

  const load = async () => {
    try {
      setServers(await props.api.listMcpServers())
    } catch (error) {
      setProblem(errorMessage(error))
      return
    }
    if (servers().length) await check(false)
  }
  onMount(() => void load())

  const signIn = async (name: string) => {
    // Opened now, while the click still counts as the user's: after the worker's answer a browser may block it.
    const popup = (props.openWindow ?? openSignInWindow)()
    if (!popup) {
      setProblem(`The browser blocked the sign-in window for ${name}: allow pop-ups for this page, then press Sign in again.`)
      return
    }
    const cancel = new AbortController()
    setSigningIn({ name, cancel })
    setProblem(undefined)
    try {
      const start = await props.api.mcpSignIn({ name })
      if (start.type === 'connected') {
        popup.close()
        await check(false)
        return
      }
      // The worker checked it too; this window is of our origin, so nothing but an https page (or one on this machine)
      // is ever loaded into it.
      if (!isAllowedMcpUrl(start.url)) {
        popup.close()
        setProblem(`Sign-in to ${name} failed: ${describeRefusedMcpUrl('the sign-in page', start.url)}`)
        return
      }
      popup.location.href = start.url
      const outcome = await waitForMcpOAuthCallback(start.state, cancel.signal)
      if (outcome.type === 'cancelled') {
        popup.close()
        setProblem(`Sign-in to ${name} was cancelled. Nothing changed.`)
        return
      }
      if (outcome.type === 'refused') {
        setProblem(describeMcpSignInFailure(name, outcome.reason))
        return
      }
      const list = await props.api.mcpFinishSignIn({ name, code: outcome.code, state: start.state, ...(outcome.iss ? { iss: outcome.iss } : {}) })
      setStatuses(Object.fromEntries(list.map((entry) => [entry.name, entry.status])))
      setServers(await props.api.listMcpServers())
    } catch (error) {
      if (!popup.closed) popup.close()
      setProblem(errorMessage(error))
    } finally {
      setSigningIn(undefined)
    }
  }

  const signOut = async (name: string) => {
    try {
      const list = await props.api.mcpSignOut({ name })
      setStatuses(Object.fromEntries(list.map((entry) => [entry.name, entry.status])))
      setServers(await props.api.listMcpServers())
      setProblem(undefined)
    } catch (error) {
      setProblem(errorMessage(error))
    }
  }

  const saved = async (list: McpServerSummary[]) => {
    setServers(list)
    setEditing({ type: 'closed' })
    setProblem(undefined)
    await check(false)
  }

  return (
    <section class="settings-section" aria-labelledby={headingID} aria-describedby={hintID}>
      <div class="settings-section-head">
        <h3 id={headingID} class="settings-heading">
          MCP servers
        </h3>
        <div class="mcp-actions">
          <Show when={servers().length}>
            <button type="button" class="button button-small" disabled={checking()} onClick={() => void check(true)}>
              {checking() ? 'Checking…' : 'Check again'}
            </button>
          </Show>
          <button type="button" class="button button-small" onClick={() => setEditing({ type: 'add' })}>
            <PlusIcon />
            Add MCP server
          </button>
        </div>
      </div>
      <p id={hintID} class="field-hint">
        Remote servers at https:// addresses (plain http:// only on this machine), over Streamable HTTP (or the older
        HTTP with SSE). Their tools are offered as server_tool and ask before each call unless a permission rule allows
        them; a tool that changes after you allowed it asks again. The server must allow this page's origin (CORS).
      </p>
      <ProblemNote text={problem()} />
      <Show when={editing().type !== 'closed'}>
        <McpServerForm
          api={props.api}
          agents={props.agents}
          server={(() => {
            const current = editing()
            return current.type === 'edit' ? current.server : undefined
          })()}
          onCancel={() => setEditing({ type: 'closed' })}
          onSaved={(list) => void saved(list)}
        />
      </Show>
      <Show when={servers().length} fallback={<p class="settings-empty">No MCP servers.</p>}>
        <ul class="provider-list">
          <For each={servers()}>
            {(server) => (
              <li class="provider-row" aria-label={`MCP server ${server.name}`}>
                <div class="provider-summary">
                  <span class="provider-name">{server.name}</span>
                  <span class="provider-meta">
                    <span class="mono">{server.url}</span>
                    {server.agents ? ` · agents: ${server.agents.join(', ') || 'none'}` : ''}
                  </span>
                  <span class="provider-meta mcp-status" aria-live="polite" classList={{ 'mcp-status-problem': isProblem(statuses()[server.name]) }}>
                    {signingIn()?.name === server.name ? 'Waiting for the sign-in window…' : statusText(statuses()[server.name], checking())}
                  </span>
                </div>
                <Show
                  when={signingIn()?.name === server.name}
                  fallback={
                    <Show when={offersSignIn(statuses()[server.name])}>
                      <button
                        type="button"
                        class="button button-small"
                        aria-label={`Sign in to MCP server ${server.name}`}
                        disabled={signingIn() !== undefined}
                        onClick={() => void signIn(server.name)}
                      >
                        Sign in
                      </button>
                    </Show>
                  }
                >
                  <button type="button" class="button button-small" aria-label={`Cancel sign-in to MCP server ${server.name}`} onClick={() => signingIn()?.cancel.abort()}>
                    Cancel sign-in
                  </button>
                </Show>
                <Show when={server.signedIn && signingIn()?.name !== server.name}>
                  <button type="button" class="button button-small" aria-label={`Sign out of MCP server ${server.name}`} onClick={() => void signOut(server.name)}>
                    Sign out
                  </button>
                </Show>
                <button type="button" class="icon-button" aria-label={`Edit MCP server ${server.name}`} title="Edit" onClick={() => setEditing({ type: 'edit', server })}>
                  <PencilIcon />
                </button>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Remove MCP server ${server.name}`}
                  title="Remove"
                  onClick={() =>
                    void props.api.removeMcpServer(server.name).then(
                      (list) => saved(list),
                      (error: unknown) => setProblem(errorMessage(error)),
                    )
                  }
                >
                  <TrashIcon />
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  )
}

function statusText(status: McpStatus | undefined, checking: boolean): string {
  if (!status) return checking ? 'Connecting…' : 'Not checked yet.'
  return describeMcpStatus(status)
}

function offersSignIn(status: McpStatus | undefined): boolean {
  return status?.state === 'auth' && status.oauth
}

function isProblem(status: McpStatus | undefined): boolean {
  if (status?.state === 'connected') return !!status.collisions?.length
  return !!status && status.state !== 'disabled'
}

interface HeaderDraft {
  name: string
  value: string
  stored: boolean
}

function McpServerForm(props: {
  api: McpSettingsApi
  agents: AgentSummary[]
  server: McpServerSummary | undefined
  onCancel: () => void
  onSaved: (list: McpServerSummary[]) => void
}): JSX.Element {
  const ids = { agents: createUniqueId() }
  const [name, setName] = createSignal(props.server?.name ?? '')
  const [url, setUrl] = createSignal(props.server?.url ?? '')
  const [enabled, setEnabled] = createSignal(props.server?.enabled ?? true)
  const [allAgents, setAllAgents] = createSignal(!props.server?.agents)
  const [chosen, setChosen] = createSignal<string[]>(props.server?.agents ?? [])
  const [headers, setHeaders] = createStore<HeaderDraft[]>(props.server?.headers.map((header) => ({ name: header.name, value: '', stored: true })) ?? [])
  const [error, setError] = createSignal<string>()
  const [busy, setBusy] = createSignal(false)
  const selectable = () => props.agents.filter((agent) => !agent.hidden)

  const submit = async (event: SubmitEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const list = await props.api.saveMcpServer({
        ...(props.server ? { previous: props.server.name } : {}),
        name: name(),
        url: url(),
        headers: headers.map((header) => ({ name: header.name, ...(header.value ? { value: header.value } : {}) })),
        enabled: enabled(),
        ...(allAgents() ? {} : { agents: chosen() }),
      })
      props.onSaved(list)
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form class="mcp-form" aria-label={props.server ? `Edit MCP server ${props.server.name}` : 'New MCP server'} onSubmit={(event) => void submit(event)}>
      <div class="settings-grid">
        <TextField label="Server name" value={name()} onValue={setName} required autocomplete="off" />
        <TextField label="Server URL" mono type="url" placeholder="https://example.com/mcp" value={url()} onValue={setUrl} required autocomplete="off" />
      </div>
      <fieldset class="mcp-fieldset">
        <legend class="field-label">Headers</legend>
        <Index each={headers}>
          {(header, index) => (
            <div class="mcp-header-row">
              <input
                class="text-input mono"
                aria-label={`Header ${index + 1} name`}
                placeholder="Authorization"
                value={header().name}
                onInput={(event) => setHeaders(index, 'name', event.currentTarget.value)}
                autocomplete="off"
              />
              <input
                class="text-input mono"
                type="password"
                aria-label={`Header ${index + 1} value`}
                placeholder={header().stored ? 'stored (leave empty to keep)' : 'Bearer …'}
                value={header().value}
                onInput={(event) => setHeaders(index, 'value', event.currentTarget.value)}
                autocomplete="off"
              />
              <button
                type="button"
                class="icon-button"
                aria-label={`Remove header ${index + 1}`}
                title="Remove"
                onClick={() => setHeaders((list) => list.filter((_, at) => at !== index))}
              >
                <TrashIcon />
              </button>
            </div>
          )}
        </Index>
        <button type="button" class="button button-small" onClick={() => setHeaders(headers.length, { name: '', value: '', stored: false })}>
          <PlusIcon />
          Add header
        </button>
      </fieldset>
      <Checkbox label="Enabled" checked={enabled()} onChange={setEnabled} />
      <fieldset class="mcp-fieldset" aria-describedby={ids.agents}>
        <legend class="field-label">Agents</legend>
        <Checkbox label="Every agent" checked={allAgents()} onChange={setAllAgents} />
        <Show when={!allAgents()}>
          <For each={selectable()}>
            {(agent) => (
              <Checkbox
                label={agent.name}
                checked={chosen().includes(agent.name)}
                onChange={(on) => setChosen((list) => (on ? [...list, agent.name] : list.filter((entry) => entry !== agent.name)))}
              />
            )}
          </For>
        </Show>
        <p id={ids.agents} class="field-hint">
          Which agents are offered its tools.
        </p>
      </fieldset>
      <ProblemNote text={error()} />
      <DialogActions onCancel={() => props.onCancel()} action={{ label: busy() ? 'Saving…' : 'Save server', tone: 'primary', disabled: busy() }} />
    </form>
  )
}
