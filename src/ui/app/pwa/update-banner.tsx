import { Show, type JSX } from 'solid-js'
import { Banner } from '../../kit/banner/banner'
import { createServiceWorker } from './create-service-worker'

/** Registers the service worker and offers the waiting update; it sits above everything, the recovery screen included. */
export function UpdateBanner(): JSX.Element {
  const worker = createServiceWorker()
  return (
    <Show when={worker.waiting()}>
      <Banner message="Update available" actionLabel="Reload to update" onAction={() => worker.update()} />
    </Show>
  )
}
