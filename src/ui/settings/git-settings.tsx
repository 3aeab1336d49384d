import { createResource, createSignal, createUniqueId, For, Show, type JSX } from 'solid-js'
import type { ClientApi } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { TextField } from '../kit/form/field'
import type { ProviderStore } from './create-provider-store'

export type GitSettingsApi = Pick<ClientApi, 'listGitTokenHosts' | 'removeGitToken'>

/**
 * git's remotes: the CORS proxy (none by default, so nothing but the server a command names is contacted) and the
 * hosts a token is kept for. Tokens are never shown: a host can only be removed, and the next push asks again.
 */
export function GitSettings(props: {
  api: GitSettingsApi
  store: Pick<ProviderStore, 'settings' | 'setSetting'>
  onNotice: (notice: { tone: 'status' | 'alert'; text: string }) => void
}): JSX.Element {
  const headingID = createUniqueId()
  const tokensID = createUniqueId()
  const [proxy, setProxy] = createSignal<string>()
  const [hosts, { refetch }] = createResource(() => props.api.listGitTokenHosts())
  const shownProxy = () => proxy() ?? props.store.settings().gitCorsProxy ?? ''
  const saveProxy = (event: SubmitEvent) => {
    event.preventDefault()
    const value = shownProxy().trim()
    props.store.setSetting({ key: 'git.corsProxy', value }).then(
      () => {
        setProxy(undefined)
        props.onNotice({ tone: 'status', text: value ? `git goes through the CORS proxy ${value}.` : 'git uses no CORS proxy.' })
      },
      (error: unknown) => props.onNotice({ tone: 'alert', text: errorMessage(error) }),
    )
  }
  const remove = (host: string) => {
    props.api.removeGitToken(host).then(
      () => {
        void refetch()
        props.onNotice({ tone: 'status', text: `Token for ${host} removed.` })
      },
      (error: unknown) => props.onNotice({ tone: 'alert', text: errorMessage(error) }),
    )
  }
  return (
    <section class="settings-section" aria-labelledby={headingID}>
      <h3 id={headingID} class="settings-heading">
        Git remotes
      </h3>
      <form class="git-proxy-form" onSubmit={saveProxy}>
        <TextField
          label="CORS proxy"
          type="url"
          placeholder="none"
          hint="Browsers reach only git servers that allow cross-origin requests (GitHub and GitLab do not). A proxy you run or trust forwards the requests; it sees what you clone and push, and your token. Empty: none."
          value={shownProxy()}
          onValue={setProxy}
          mono
        />
        <button type="submit" class="button">
          Save proxy
        </button>
      </form>
      <h4 id={tokensID} class="settings-subheading">
        Tokens
      </h4>
      <Show when={(hosts() ?? []).length > 0} fallback={<p class="settings-empty">No tokens kept. A push asks for one when the server needs it.</p>}>
        <ul class="git-token-list" aria-labelledby={tokensID}>
          <For each={hosts()}>
            {(host) => (
              <li class="git-token-row">
                <span>{host}</span>
                <button type="button" class="button" aria-label={`Remove the token for ${host}`} onClick={() => remove(host)}>
                  Remove
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  )
}
