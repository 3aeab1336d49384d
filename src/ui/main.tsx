// Shared styles first: component stylesheets imported below must come later in the cascade to refine them.
import './styles/base.css'
import './styles/controls.css'
import { render } from 'solid-js/web'
import { App } from './app'
import { UpdateBanner } from './pwa/update-banner'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

render(
  () => (
    <div class="shell">
      <UpdateBanner />
      <App />
    </div>
  ),
  root,
)
