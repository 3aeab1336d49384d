import { createSignal, createUniqueId, onCleanup, Show, type JSX } from 'solid-js'
import type { NotificationSettings } from '../../core/settings'
import { errorMessage } from '../kit/format/error'
import { askNotificationAccess, notificationAccess, type NotificationAccess } from '../notify/browser-notifications'
import type { ProviderStore } from './create-provider-store'

type Kind = Exclude<keyof NotificationSettings, 'enabled'>

const KINDS: readonly { kind: Kind; label: string }[] = [
  { kind: 'turnEnded', label: 'A turn finishes or is stopped' },
  { kind: 'waiting', label: 'A question or a permission ask waits for you' },
  { kind: 'error', label: 'An error stops a turn' },
]

/**
 * Settings → Notifications: the master switch and one per kind. The browser is asked for its permission only when
 * the user turns the switch on; the switch shows on only while the setting is on and the browser allows it, and a
 * browser that blocks notifications is named with how to allow them there.
 */
export function NotificationSettingsSection(props: {
  store: Pick<ProviderStore, 'settings' | 'setSetting'>
  onNotice: (notice: { tone: 'status' | 'alert'; text: string }) => void
}): JSX.Element {
  const headingID = createUniqueId()
  const hintID = createUniqueId()
  const switchID = createUniqueId()
  const [access, setAccess] = createSignal<NotificationAccess>(notificationAccess())
  const [asking, setAsking] = createSignal(false)
  // The user may allow or block notifications in the browser's site settings while this is open.
  const recheck = () => setAccess(notificationAccess())
  window.addEventListener('focus', recheck)
  onCleanup(() => window.removeEventListener('focus', recheck))

  const current = () => props.store.settings().notifications
  const on = () => current().enabled && access() === 'granted'

  const save = async (value: NotificationSettings, done: string) => {
    try {
      await props.store.setSetting({ key: 'notifications', value })
      props.onNotice({ tone: 'status', text: done })
    } catch (error) {
      props.onNotice({ tone: 'alert', text: errorMessage(error) })
    }
  }

  const turn = async (enabled: boolean) => {
    if (!enabled) return save({ ...current(), enabled: false }, 'Notifications off.')
    setAsking(true)
    const answer = await askNotificationAccess().catch(() => notificationAccess())
    setAsking(false)
    setAccess(answer)
    if (answer === 'granted') return save({ ...current(), enabled: true }, 'Notifications on.')
    props.onNotice({ tone: 'alert', text: answer === 'denied' ? 'The browser blocks notifications for this site.' : 'The browser did not allow notifications.' })
  }

  return (
    <section class="settings-section" aria-labelledby={headingID}>
      <h3 id={headingID} class="settings-heading">
        Notifications
      </h3>
      <div class="settings-checks">
        <div class="settings-check">
          <input
            id={switchID}
            type="checkbox"
            role="switch"
            checked={on()}
            disabled={access() === 'unsupported' || asking()}
            aria-describedby={hintID}
            onChange={(event) => {
              const wanted = event.currentTarget.checked
              // The switch shows what is true, not what was clicked, until the browser and the store have answered.
              event.currentTarget.checked = on()
              void turn(wanted)
            }}
          />
          <div>
            <label for={switchID}>Notify me when tabcode is in the background</label>
            <p id={hintID} class="field-hint">
              While this tab is hidden, the system tells you what you chose below and a click brings you to the session. The browser asks for
              its permission when you turn this on. Whatever you choose, the tab's title counts what happened, as in “(1) tabcode”.
            </p>
          </div>
        </div>
        <Show when={access() === 'denied'}>
          <p class="field-hint notification-blocked">
            Your browser blocks notifications for this site. To allow them, open the site's settings (the icon at the left of the address
            bar), set Notifications to Allow, then turn the switch on again.
          </p>
        </Show>
        <Show when={access() === 'unsupported'}>
          <p class="field-hint notification-blocked">This browser cannot show notifications; the tab's title still counts what happened.</p>
        </Show>
        {KINDS.map(({ kind, label }) => (
          <KindCheck
            label={label}
            checked={current()[kind]}
            onChange={(value) => void save({ ...current(), [kind]: value }, `${label}: ${value ? 'notified' : 'not notified'}.`)}
          />
        ))}
      </div>
    </section>
  )
}

function KindCheck(props: { label: string; checked: boolean; onChange: (value: boolean) => void }): JSX.Element {
  const id = createUniqueId()
  return (
    <div class="settings-check notification-kind">
      <input id={id} type="checkbox" checked={props.checked} onChange={(event) => props.onChange(event.currentTarget.checked)} />
      <label for={id}>{props.label}</label>
    </div>
  )
}
