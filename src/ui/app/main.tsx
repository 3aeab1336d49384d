// Shared styles first: component stylesheets imported below must come later in the cascade to refine them.
import '../kit/styles/base.css'
import '../kit/styles/controls.css'
import { render } from 'solid-js/web'
import { App } from './app'
import { UpdateBanner } from './pwa/update-banner'
import { themeControl } from '../kit/theme/theme'
import { prepareDateFormats } from '../kit/format/time'

// The stored theme is on the page already (index.html); from here it also follows the system and the user's choice.
themeControl()

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// The first render gets a task of its own: evaluated with the bundle, it made one task of 75–120 ms on a first
// visit (issue 18). The splash is on screen one task later; the worker starts from it, as before.
setTimeout(() =>
  render(
    () => (
      <div class="shell">
        <UpdateBanner />
        <App />
      </div>
    ),
    root,
  ),
)

// Dates in the user's locale: the formatters load the locale's data (tens of ms on a first visit), so they are made in
// the first idle moment after the first screen, in a task of their own, and the dates on screen switch to them then.
setTimeout(() => {
  if ('requestIdleCallback' in window) requestIdleCallback(() => prepareDateFormats(), { timeout: DATE_FORMATS_TIMEOUT_MS })
  else prepareDateFormats()
})

const DATE_FORMATS_TIMEOUT_MS = 500
