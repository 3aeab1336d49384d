/// <reference lib="webworker" />
// The dedicated worker the offline `node` runs scripts in, started by the agent's worker so that Stop and timeouts
// can always end a script by terminating it. The script itself runs inside QuickJS and reaches only the host
// functions the engine defines: not this worker's fetch, IndexedDB or importScripts.
import variant from '@jitl/quickjs-wasmfile-release-sync'
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import { createEngineHost } from './host'
import type { EngineRequest } from './protocol'

const scope = self as unknown as DedicatedWorkerGlobalScope

const handle = createEngineHost({
  // The wasm comes from the app's own origin (the build emits it as an asset), never from a CDN.
  loadQuickJS: () => newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmLocation })),
  loadStripTypes: async () => (await import('./strip-types')).stripTypes,
  reply: (message) => scope.postMessage(message),
})

scope.onmessage = (event: MessageEvent<EngineRequest>) => void handle(event.data)
