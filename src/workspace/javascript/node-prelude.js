// Runs inside QuickJS before the script: the Node surface the offline `node` offers, built on the few host
// functions in `__host` (engine.ts). Nothing else of the host exists in here: no fetch, no IndexedDB, no network.
;(function (host, info) {
  'use strict'
  const g = globalThis
  delete g.__host
  delete g.__info
  const hidden = (object, key, value) =>
    Object.defineProperty(object, key, { value, writable: true, configurable: true, enumerable: false })

  // Output is gathered here and handed to the host in pieces: a call into the host costs far more than a log line.
  // The first write after a quiet spell goes at once, so a line printed before a long computation shows before it.
  let pendingFd = 1
  let pendingText = ''
  let flushedAt = 0
  function flush() {
    if (pendingText) host.write(pendingFd, pendingText)
    pendingText = ''
    flushedAt = Date.now()
  }
  // Under `node --test` the script's own lines on stdout are TAP comments (`# …`); the report itself is not.
  let commented = false
  let lineStart = true
  function write(fd, text, report) {
    if (commented && fd === 1 && !report && text) {
      text = (lineStart ? '# ' : '') + text.replace(/\n(?=.)/g, '\n# ')
      lineStart = text.endsWith('\n')
    } else if (fd === 1 && text) lineStart = text.endsWith('\n')
    if (fd !== pendingFd) {
      flush()
      pendingFd = fd
    }
    pendingText += text
    if (pendingText.length > 16384 || Date.now() - flushedAt > 16) flush()
  }

  // ---- util.inspect / format: Node's look for the common cases -------------------------------------------------
  // Single quotes unless the string has some and lacks another kind, as util.inspect chooses.
  const quote = (s) => {
    const q = !s.includes("'") ? "'" : !s.includes('"') ? '"' : !s.includes('`') && !s.includes('${') ? '`' : "'"
    return q + s.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), '\\' + q).replace(/\n/g, '\\n') + q
  }
  const keyText = (k) => (typeof k === 'symbol' ? '[' + k.toString() + ']' : /^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k))
  function errorText(e) {
    // An assertion's name carries its code, as Node prints it.
    const name = (e.name || 'Error') + (e.name === 'AssertionError' && e.code === 'ERR_ASSERTION' ? ' [ERR_ASSERTION]' : '')
    const head = name + (e.message ? ': ' + e.message : '')
    // Ten frames, as Node shows (a runaway recursion would otherwise print thousands).
    // The prelude's own frames (require, the loader) are noise to the script's author.
    const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((line) => line && !/node:internal\/|\(native\)/.test(line)) : []
    const stack = frames.slice(0, 10).join('\n')
    // Its own fields follow, as Node shows them (a code, an errno, an assertion's actual and expected).
    const own = Object.keys(e).filter((k) => k !== 'stack' && k !== 'message' && k !== 'name')
    const fields = own.length ? ' {\n' + own.map((k) => '  ' + keyText(k) + ': ' + inspect(e[k], { depth: 0 }).replace(/\n/g, '\n  ')).join(',\n') + '\n}' : ''
    return (stack ? head + '\n' + stack : head) + fields
  }
  function inspect(value, options) {
    const depth = options && options.depth !== undefined ? options.depth : 2
    const seen = []
    function fmt(v, level, indent) {
      if (v === null) return 'null'
      switch (typeof v) {
        case 'undefined': return 'undefined'
        case 'string': return level === 0 && options && options.top ? v : quote(v)
        case 'number': return Object.is(v, -0) ? '-0' : String(v)
        case 'bigint': return v + 'n'
        case 'boolean': return String(v)
        case 'symbol': return v.toString()
        case 'function': {
          const kind = /^class\b/.test(Function.prototype.toString.call(v)) ? 'class' : 'Function'
          return kind === 'class' ? '[class ' + (v.name || '(anonymous)') + ']' : '[Function: ' + (v.name || '(anonymous)') + ']'
        }
      }
      if (seen.includes(v)) return '[Circular *1]'
      if (v instanceof Error) return level === 0 ? errorText(v) : '[' + errorText(v).split('\n')[0] + ']'
      if (v instanceof Date) return isNaN(v) ? 'Invalid Date' : v.toISOString()
      if (v instanceof RegExp) return String(v)
      if (typeof Promise !== 'undefined' && v instanceof Promise) return 'Promise { <unknown> }'
      const ctor = v.constructor && v.constructor.name
      let entries
      let open
      let close
      seen.push(v)
      try {
        if (level > depth) return Array.isArray(v) ? '[Array]' : '[' + (ctor || 'Object') + ']'
        const inner = indent + '  '
        if (Array.isArray(v) || ArrayBuffer.isView(v)) {
          const shown = Array.prototype.slice.call(v, 0, 100).map((x) => fmt(x, level + 1, inner))
          if (v.length > 100) shown.push('... ' + (v.length - 100) + ' more item' + (v.length - 100 > 1 ? 's' : ''))
          entries = shown
          open = (Array.isArray(v) ? '' : (ctor || 'TypedArray') + '(' + v.length + ') ') + '['
          close = ']'
        } else if (v instanceof Map) {
          entries = [...v].map(([k, x]) => fmt(k, level + 1, inner) + ' => ' + fmt(x, level + 1, inner))
          open = 'Map(' + v.size + ') {'
          close = '}'
        } else if (v instanceof Set) {
          entries = [...v].map((x) => fmt(x, level + 1, inner))
          open = 'Set(' + v.size + ') {'
          close = '}'
        } else {
          const keys = [...Object.keys(v), ...Object.getOwnPropertySymbols(v).filter((s) => Object.prototype.propertyIsEnumerable.call(v, s))]
          entries = keys.map((k) => keyText(k) + ': ' + fmt(v[k], level + 1, inner))
          const prefix = ctor === 'Object' ? '' : ctor ? ctor + ' ' : '[Object: null prototype] '
          if (entries.length === 0) return prefix + '{}'
          open = prefix + '{'
          close = '}'
        }
        if (entries.length === 0) return open + close
        const line = open + ' ' + entries.join(', ') + ' ' + close
        if (line.length + indent.length <= 72 && !line.includes('\n')) return line
        return open + '\n' + inner + entries.join(',\n' + inner) + '\n' + indent + close
      } finally {
        seen.pop()
      }
    }
    return fmt(value, 0, '')
  }
  function format(...args) {
    let out = ''
    let rest = args
    if (typeof args[0] === 'string' && args[0].includes('%')) {
      let index = 1
      out = args[0].replace(/%([sdifjoOc%])/g, (match, type) => {
        if (type === '%') return '%'
        if (index >= args.length) return match
        const a = args[index++]
        switch (type) {
          case 's': return typeof a === 'string' ? a : inspect(a, { depth: 1 })
          case 'd': case 'i': return String(type === 'i' ? parseInt(a) : Number(a))
          case 'f': return String(parseFloat(a))
          case 'j': try { return JSON.stringify(a) } catch { return '[Circular]' }
          case 'c': return ''
          default: return inspect(a)
        }
      })
      rest = args.slice(index)
      return [out, ...rest.map(show)].join(' ')
    }
    return rest.length === 1 ? show(rest[0]) : rest.map(show).join(' ')
  }
  // The common arguments, without inspect's machinery (a log line per loop turn is the usual hot path).
  function show(a) {
    if (typeof a === 'string') return a
    if ((typeof a === 'number' && !Object.is(a, -0)) || typeof a === 'boolean') return String(a)
    return inspect(a)
  }

  // ---- Buffer: a Uint8Array that reads back as text -------------------------------------------------------------
  const HEX = '0123456789abcdef'
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  class Buffer extends Uint8Array {
    static from(value, encoding) {
      if (typeof value === 'string') {
        if (encoding === 'hex') {
          const out = new Buffer(value.length >> 1)
          for (let i = 0; i < out.length; i++) out[i] = parseInt(value.substr(i * 2, 2), 16)
          return out
        }
        if (encoding === 'base64' || encoding === 'base64url') {
          const clean = value.replace(/-/g, '+').replace(/_/g, '/').replace(/[^A-Za-z0-9+/]/g, '')
          const bytes = []
          for (let i = 0; i < clean.length; i += 4) {
            const n = [0, 1, 2, 3].map((j) => B64.indexOf(clean[i + j] || 'A'))
            const triple = (n[0] << 18) | (n[1] << 12) | (n[2] << 6) | n[3]
            bytes.push(triple >> 16 & 255)
            if (clean[i + 2]) bytes.push(triple >> 8 & 255)
            if (clean[i + 3]) bytes.push(triple & 255)
          }
          return Buffer.from(bytes)
        }
        return new Buffer(host.encode(value))
      }
      if (value instanceof ArrayBuffer) return new Buffer(value)
      const out = new Buffer(value.length)
      for (let i = 0; i < value.length; i++) out[i] = value[i]
      return out
    }
    static alloc(size, fill) {
      const out = new Buffer(size)
      if (fill !== undefined) out.fill(typeof fill === 'string' ? fill.charCodeAt(0) : fill)
      return out
    }
    static isBuffer(value) {
      return value instanceof Buffer
    }
    static byteLength(value) {
      return typeof value === 'string' ? host.encode(value).byteLength : value.byteLength
    }
    static concat(list) {
      const out = new Buffer(list.reduce((n, b) => n + b.length, 0))
      let offset = 0
      for (const b of list) {
        out.set(b, offset)
        offset += b.length
      }
      return out
    }
    toString(encoding, start, end) {
      const view = start !== undefined || end !== undefined ? this.subarray(start || 0, end) : this
      if (encoding === 'hex') return Array.from(view, (b) => HEX[b >> 4] + HEX[b & 15]).join('')
      if (encoding === 'base64') {
        let out = ''
        for (let i = 0; i < view.length; i += 3) {
          const triple = (view[i] << 16) | ((view[i + 1] || 0) << 8) | (view[i + 2] || 0)
          out += B64[triple >> 18 & 63] + B64[triple >> 12 & 63]
          out += i + 1 < view.length ? B64[triple >> 6 & 63] : '='
          out += i + 2 < view.length ? B64[triple & 63] : '='
        }
        return out
      }
      return host.decode(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength))
    }
    toJSON() {
      return { type: 'Buffer', data: Array.from(this) }
    }
    equals(other) {
      return this.length === other.length && this.every((b, i) => b === other[i])
    }
    slice(start, end) {
      return this.subarray(start, end)
    }
  }
  const bytesOf = (data) =>
    typeof data === 'string' ? data : data instanceof ArrayBuffer ? data : ArrayBuffer.isView(data)
      ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
      : String(data)

  // ---- path (POSIX) ---------------------------------------------------------------------------------------------
  function normalize(p) {
    const absolute = p.startsWith('/')
    const parts = []
    for (const seg of p.split('/')) {
      if (seg === '' || seg === '.') continue
      if (seg === '..') {
        if (parts.length && parts[parts.length - 1] !== '..') parts.pop()
        else if (!absolute) parts.push('..')
      } else parts.push(seg)
    }
    return (absolute ? '/' : '') + parts.join('/') || (absolute ? '/' : '.')
  }
  const path = {
    sep: '/',
    delimiter: ':',
    normalize: (p) => normalize(String(p)) + (String(p).length > 1 && String(p).endsWith('/') ? '/' : ''),
    join: (...parts) => normalize(parts.filter((p) => p !== '').join('/') || '.'),
    resolve: (...parts) => {
      let out = ''
      for (let i = parts.length - 1; i >= 0 && !out.startsWith('/'); i--) if (parts[i]) out = parts[i] + (out ? '/' + out : '')
      return normalize(out.startsWith('/') ? out : process.cwd() + '/' + out)
    },
    isAbsolute: (p) => String(p).startsWith('/'),
    dirname: (p) => {
      const s = String(p).replace(/\/+$/, '')
      if (s === '' && String(p).startsWith('/')) return '/'
      const i = s.lastIndexOf('/')
      return i < 0 ? '.' : i === 0 ? '/' : s.slice(0, i)
    },
    basename: (p, ext) => {
      const s = String(p).replace(/\/+$/, '')
      const base = s.slice(s.lastIndexOf('/') + 1)
      return ext && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base
    },
    extname: (p) => {
      const base = path.basename(p)
      const i = base.lastIndexOf('.')
      return i <= 0 ? '' : base.slice(i)
    },
    relative: (from, to) => {
      const a = path.resolve(from).split('/').filter(Boolean)
      const b = path.resolve(to).split('/').filter(Boolean)
      let i = 0
      while (i < a.length && i < b.length && a[i] === b[i]) i++
      return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/')
    },
    parse: (p) => {
      const root = String(p).startsWith('/') ? '/' : ''
      const base = path.basename(p)
      const ext = path.extname(p)
      return { root, dir: path.dirname(p), base, ext, name: ext ? base.slice(0, -ext.length) : base }
    },
    format: (o) => (o.dir ? o.dir + '/' : o.root || '') + (o.base || (o.name || '') + (o.ext || '')),
    toNamespacedPath: (p) => p,
  }
  path.posix = path

  // ---- events ---------------------------------------------------------------------------------------------------
  class EventEmitter {
    constructor() {
      hidden(this, '_events', new Map())
    }
    _list(name) {
      if (!this._events) hidden(this, '_events', new Map())
      if (!this._events.has(name)) this._events.set(name, [])
      return this._events.get(name)
    }
    on(name, fn) {
      this._list(name).push(fn)
      return this
    }
    addListener(name, fn) {
      return this.on(name, fn)
    }
    prependListener(name, fn) {
      this._list(name).unshift(fn)
      return this
    }
    once(name, fn) {
      const once = (...args) => {
        this.off(name, once)
        fn.apply(this, args)
      }
      once.listener = fn
      return this.on(name, once)
    }
    off(name, fn) {
      const list = this._list(name)
      const i = list.findIndex((f) => f === fn || f.listener === fn)
      if (i >= 0) list.splice(i, 1)
      return this
    }
    removeListener(name, fn) {
      return this.off(name, fn)
    }
    removeAllListeners(name) {
      if (name === undefined) this._events.clear()
      else this._events.delete(name)
      return this
    }
    emit(name, ...args) {
      const list = this._list(name).slice()
      if (name === 'error' && list.length === 0) throw args[0] instanceof Error ? args[0] : new Error('Unhandled error. (' + inspect(args[0]) + ')')
      for (const fn of list) discarded(fn.apply(this, args))
      return list.length > 0
    }
    listenerCount(name) {
      return this._list(name).length
    }
    listeners(name) {
      return this._list(name).map((f) => f.listener || f)
    }
    eventNames() {
      return [...this._events.keys()].filter((k) => this._events.get(k).length)
    }
    setMaxListeners() {
      return this
    }
  }
  EventEmitter.EventEmitter = EventEmitter
  EventEmitter.default = EventEmitter
  EventEmitter.once = (emitter, name) => new Promise((resolve) => emitter.once(name, (...args) => resolve(args)))

  // ---- timers: run by the engine's event loop through __runTimers -------------------------------------------------
  let timerSeq = 0
  const timers = new Map()
  class Timeout {
    constructor(id) {
      this.id = id
    }
    ref() {
      return this
    }
    unref() {
      return this
    }
    hasRef() {
      return true
    }
    [Symbol.toPrimitive]() {
      return this.id
    }
  }
  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function')
    const delay = Math.max(1, Number(ms) || 0)
    const id = ++timerSeq
    timers.set(id, { fn, args, at: host.now() + delay, repeat: repeat ? delay : 0, seq: id })
    return new Timeout(id)
  }
  const clearTimer = (t) => {
    if (t !== undefined && t !== null) timers.delete(typeof t === 'object' ? t.id : Number(t))
  }
  g.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false)
  g.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true)
  g.setImmediate = (fn, ...args) => addTimer(fn, 0, args, false)
  g.clearTimeout = g.clearInterval = g.clearImmediate = clearTimer
  // A callback run as a job: what it throws or rejects with is uncaught, not dropped with the job's own promise.
  const job = (fn, args) => () => {
    try {
      discarded(fn(...args))
    } catch (e) {
      uncaught(e)
    }
  }
  g.queueMicrotask = (fn) => {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function')
    void then.call(Promise.resolve(), job(fn, []))
  }
  hidden(g, '__runTimers', function () {
    flush()
    let next
    for (const [id, t] of timers) if (!next || t.at < next[1].at || (t.at === next[1].at && t.seq < next[1].seq)) next = [id, t]
    if (!next) return -1
    const wait = next[1].at - host.now()
    if (wait > 0) return wait
    const [id, t] = next
    if (t.repeat) {
      t.at = host.now() + t.repeat
      t.seq = ++timerSeq
    } else timers.delete(id)
    try {
      discarded(t.fn(...t.args))
    } catch (e) {
      uncaught(e)
    }
    return 0
  })

  // ---- failures Node reports after the fact: a rejection nobody handles, an error thrown in a callback ---------
  // The engine takes them after each turn of the event loop (QuickJS here tells nothing of unhandled rejections;
  // see discarded-promises.ts for how the prelude learns of them).
  const failures = []
  function uncaught(error) {
    if (process.listenerCount('uncaughtException')) process.emit('uncaughtException', error, 'uncaughtException')
    else failures.push(error)
  }
  function unhandledRejection(reason, promise) {
    if (process.listenerCount('unhandledRejection')) return void process.emit('unhandledRejection', reason, promise)
    if (reason instanceof Error) return uncaught(reason)
    const error = new Error(
      'This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "' +
        inspect(reason) + '".',
    )
    error.name = 'UnhandledPromiseRejection'
    error.code = 'ERR_UNHANDLED_REJECTION'
    error.stack = error.name + ': ' + error.message
    uncaught(error)
  }
  const then = Promise.prototype.then
  // A value a statement threw away (or a callback returned to a caller that ignores it): if it is a promise, no
  // one else holds it, so its rejection is unhandled.
  function discarded(value) {
    if (value instanceof Promise) then.call(value, undefined, (reason) => unhandledRejection(reason, value))
    return value
  }
  // Statements reach it as `value?.[__nodeDiscarded]` (see discarded-promises.ts): a getter only promises have.
  const DISCARDED = Symbol('discarded')
  Object.defineProperty(Promise.prototype, DISCARDED, {
    get() {
      discarded(this)
      return undefined
    },
    configurable: true,
  })
  hidden(g, '__nodeDiscarded', DISCARDED)
  // forEach throws away what its callback returns, so `items.forEach(async (item) => …)` drops each promise: Node
  // reports their rejections, and so does the prelude. A callback that is not a function gets the engine's own error.
  for (const Collection of [Array, Map, Set, Object.getPrototypeOf(Int8Array)]) {
    const forEach = Collection.prototype.forEach
    Object.defineProperty(Collection.prototype, 'forEach', {
      value: {
        forEach(callback) {
          if (typeof callback !== 'function') return forEach.apply(this, arguments)
          const self = arguments[1]
          return forEach.call(this, function () {
            discarded(callback.apply(self, arguments))
          })
        },
      }.forEach,
      writable: true,
      configurable: true,
    })
  }
  hidden(g, '__nodeTakeUnhandled', () => {
    flush()
    if (failures.length) throw failures.shift()
    return 0
  })

  // ---- process ---------------------------------------------------------------------------------------------------
  const stream = (fd) => {
    const s = new EventEmitter()
    s.write = (chunk, encoding, callback) => {
      write(fd, typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString())
      const done = typeof encoding === 'function' ? encoding : callback
      if (done) queueMicrotask(done)
      return true
    }
    s.end = (chunk) => {
      if (chunk !== undefined) s.write(chunk)
    }
    s.isTTY = false
    s.columns = 80
    s.fd = fd
    return s
  }
  let cwd = info.cwd
  const process = new EventEmitter()
  Object.assign(process, {
    argv: info.argv,
    argv0: 'node',
    execArgv: [],
    execPath: info.argv[0],
    env: info.env,
    pid: 42,
    ppid: 1,
    platform: 'linux',
    arch: 'wasm32',
    version: info.version,
    versions: { node: info.version.slice(1), quickjs: info.quickjs },
    release: { name: 'node' },
    exitCode: undefined,
    title: 'node',
    stdout: stream(1),
    stderr: stream(2),
    cwd: () => cwd,
    chdir: (dir) => {
      const target = path.resolve(dir)
      if (!fs.statSync(target).isDirectory()) throw fsError({ code: 'ENOTDIR', path: target }, 'chdir')
      cwd = target
    },
    exit: (code) => {
      if (code !== undefined) process.exitCode = code
      emitExit()
      flush()
      host.exit(exitStatus())
      // The engine stops the script at its next check; this throw ends the current frame sooner.
      throw new Error('process.exit')
    },
    abort: () => process.exit(134),
    nextTick: (fn, ...args) => void then.call(Promise.resolve(), job(fn, args)),
    hrtime: Object.assign(
      (prev) => {
        const t = host.now()
        const s = Math.floor(t / 1000)
        const ns = Math.floor((t % 1000) * 1e6)
        return prev ? [s - prev[0], ns - prev[1]] : [s, ns]
      },
      { bigint: () => BigInt(Math.floor(host.now() * 1e6)) },
    ),
    uptime: () => (host.now() - info.started) / 1000,
    memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
    emitWarning: (warning) => write(2, '(node) Warning: ' + (warning && warning.message ? warning.message : warning) + '\n'),
    umask: () => 18,
    getuid: () => 1000,
    getgid: () => 1000,
  })
  const exitStatus = () => (process.exitCode === undefined ? 0 : Number(process.exitCode) | 0)
  // 'exit' listeners run once, when the loop is empty or at process.exit, and may still print or set exitCode.
  let exiting = false
  function emitExit() {
    if (exiting) return
    exiting = true
    process.emit('exit', exitStatus())
  }
  const stdin = new EventEmitter()
  stdin.isTTY = false
  stdin.fd = 0
  stdin.setEncoding = () => stdin
  stdin.resume = () => stdin
  stdin.pause = () => stdin
  let stdinSent = false
  const sendStdin = () => {
    if (stdinSent) return
    stdinSent = true
    setTimeout(() => {
      if (info.stdin) stdin.emit('data', info.stdin)
      stdin.emit('end')
      stdin.emit('close')
    })
  }
  const listen = stdin.on.bind(stdin)
  stdin.on = stdin.addListener = (name, fn) => {
    if (name === 'data' || name === 'end' || name === 'readable') sendStdin()
    return listen(name, fn)
  }
  stdin.read = () => {
    const text = stdinSent ? null : info.stdin
    stdinSent = true
    return text || null
  }
  stdin[Symbol.asyncIterator] = async function* () {
    stdinSent = true
    if (info.stdin) yield info.stdin
  }
  process.stdin = stdin

  // ---- console ---------------------------------------------------------------------------------------------------
  const counts = new Map()
  const times = new Map()
  let group = ''
  const out = (fd) => (...args) => write(fd, (group ? format(...args).replace(/^(?=.)/gm, group) : format(...args)) + '\n')
  const console = {
    log: out(1),
    info: out(1),
    debug: out(1),
    error: out(2),
    warn: out(2),
    trace: (...args) => write(2, 'Trace: ' + format(...args) + '\n' + (new Error().stack || '')),
    dir: (v, options) => write(1, inspect(v, options) + '\n'),
    table: (v) => write(1, inspect(v) + '\n'),
    assert: (ok, ...args) => {
      if (!ok) write(2, 'Assertion failed' + (args.length ? ': ' + format(...args) : '') + '\n')
    },
    count: (label = 'default') => {
      counts.set(label, (counts.get(label) || 0) + 1)
      write(1, label + ': ' + counts.get(label) + '\n')
    },
    countReset: (label = 'default') => counts.delete(label),
    time: (label = 'default') => times.set(label, host.now()),
    timeLog: (label = 'default', ...args) => write(1, label + ': ' + (host.now() - times.get(label)).toFixed(3) + 'ms' + (args.length ? ' ' + format(...args) : '') + '\n'),
    timeEnd: (label = 'default') => {
      write(1, label + ': ' + (host.now() - times.get(label)).toFixed(3) + 'ms\n')
      times.delete(label)
    },
    group: (...args) => {
      if (args.length) out(1)(...args)
      group += '  '
    },
    groupEnd: () => {
      group = group.slice(2)
    },
  }

  // ---- fs (synchronous, over the project's files) ------------------------------------------------------------------
  const MESSAGES = {
    ENOENT: 'no such file or directory',
    EISDIR: 'illegal operation on a directory',
    ENOTDIR: 'not a directory',
    EEXIST: 'file already exists',
    ENOTEMPTY: 'directory not empty',
  }
  const ERRNO = { ENOENT: -2, EISDIR: -21, ENOTDIR: -20, EEXIST: -17, ENOTEMPTY: -39 }
  function fsError(error, syscall) {
    const e = new Error(error.code + ': ' + (MESSAGES[error.code] || error.code) + ', ' + syscall + " '" + error.path + "'")
    e.errno = ERRNO[error.code]
    e.code = error.code
    e.syscall = syscall
    e.path = error.path
    return e
  }
  const target = (p) => {
    if (p instanceof URL) p = p.pathname
    if (typeof p !== 'string') throw new TypeError('The "path" argument must be of type string. Received ' + inspect(p))
    return path.resolve(p)
  }
  function call(op, p, syscall, arg) {
    const r = JSON.parse(host.fs(op, p, arg === undefined ? '' : JSON.stringify(arg)))
    if (r.error) throw fsError(r.error, syscall)
    return r.value
  }
  const encodingOf = (options) => (typeof options === 'string' ? options : options && options.encoding)
  class Stats {
    constructor(s) {
      this.size = s.size
      this.mode = s.type === 'directory' ? 0o40755 : 0o100644
      this.mtimeMs = this.ctimeMs = this.atimeMs = this.birthtimeMs = s.modified
      this.mtime = this.ctime = this.atime = this.birthtime = new Date(s.modified)
      hidden(this, '_type', s.type)
    }
    isFile() {
      return this._type === 'file'
    }
    isDirectory() {
      return this._type === 'directory'
    }
    isSymbolicLink() {
      return false
    }
  }
  class Dirent {
    constructor(name, dir, type) {
      this.name = name
      this.parentPath = this.path = dir
      hidden(this, '_type', type)
    }
    isFile() {
      return this._type === 'file'
    }
    isDirectory() {
      return this._type === 'directory'
    }
    isSymbolicLink() {
      return false
    }
  }
  const fs = {
    readFileSync(p, options) {
      const encoding = encodingOf(options)
      let bytes
      if (p === 0 || p === '/dev/stdin') bytes = Buffer.from(info.stdin)
      else {
        const file = target(p)
        const raw = host.readBytes(file)
        if (typeof raw === 'string') throw fsError(JSON.parse(raw), 'open')
        bytes = new Buffer(raw)
      }
      return encoding ? bytes.toString(encoding) : bytes
    },
    writeFileSync(p, data, options) {
      if (p === 1 || p === 2) return void write(p, typeof data === 'string' ? data : Buffer.from(data).toString())
      const flag = options && typeof options === 'object' && options.flag
      const error = host.writeFile(target(p), bytesOf(data), flag === 'a')
      if (error) throw fsError(JSON.parse(error), 'open')
    },
    appendFileSync(p, data) {
      const error = host.writeFile(target(p), bytesOf(data), true)
      if (error) throw fsError(JSON.parse(error), 'open')
    },
    existsSync(p) {
      try {
        return call('exists', target(p), 'access')
      } catch {
        return false
      }
    },
    accessSync(p) {
      call('stat', target(p), 'access')
    },
    statSync(p, options) {
      try {
        return new Stats(call('stat', target(p), 'stat'))
      } catch (e) {
        if (options && options.throwIfNoEntry === false && e.code === 'ENOENT') return undefined
        throw e
      }
    },
    readdirSync(p, options) {
      const dir = target(p)
      const names = call('readdir', dir, 'scandir')
      if (!(options && options.withFileTypes)) return names
      return names.map((name) => new Dirent(name, dir, call('stat', dir + '/' + name, 'stat').type))
    },
    mkdirSync(p, options) {
      const recursive = !!(options && options.recursive)
      const dir = target(p)
      const existed = recursive && fs.existsSync(dir)
      call('mkdir', dir, 'mkdir', { recursive })
      return recursive && !existed ? dir : undefined
    },
    unlinkSync(p) {
      call('remove', target(p), 'unlink', {})
    },
    rmdirSync(p, options) {
      call('remove', target(p), 'rmdir', { directory: true, recursive: !!(options && options.recursive) })
    },
    rmSync(p, options) {
      try {
        call('remove', target(p), 'rm', { directory: true, recursive: !!(options && options.recursive), rm: true })
      } catch (e) {
        if (!(options && options.force && e.code === 'ENOENT')) throw e
      }
    },
    renameSync(from, to) {
      call('rename', target(from), 'rename', target(to))
    },
    copyFileSync(from, to) {
      fs.writeFileSync(to, fs.readFileSync(from))
    },
    realpathSync: (p) => {
      const file = target(p)
      call('stat', file, 'realpath')
      return file
    },
    lstatSync: (p, options) => fs.statSync(p, options),
    mkdtempSync: (prefix) => {
      const dir = prefix + Math.random().toString(36).slice(2, 8)
      fs.mkdirSync(dir, { recursive: true })
      return dir
    },
    constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 },
    Stats,
    Dirent,
  }
  fs.realpathSync.native = fs.realpathSync
  // The asynchronous forms over the same synchronous calls: callbacks and promises both answer on a later turn.
  const promises = {}
  for (const name of ['readFile', 'writeFile', 'appendFile', 'stat', 'lstat', 'readdir', 'mkdir', 'unlink', 'rmdir', 'rm', 'rename', 'copyFile', 'access', 'realpath', 'mkdtemp']) {
    const sync = fs[name + 'Sync']
    promises[name] = (...args) => new Promise((resolve) => resolve(sync(...args)))
    fs[name] = (...args) => {
      const callback = typeof args[args.length - 1] === 'function' ? args.pop() : () => {}
      promises[name](...args).then((value) => callback(null, value), (error) => callback(error))
    }
  }
  fs.exists = (p, callback) => queueMicrotask(() => callback(fs.existsSync(p)))
  fs.promises = promises
  promises.constants = fs.constants

  // ---- util, os, assert ---------------------------------------------------------------------------------------------
  const util = {
    format,
    inspect,
    promisify: (fn) => (...args) => new Promise((resolve, reject) => fn(...args, (error, value) => (error ? reject(error) : resolve(value)))),
    inherits: (ctor, base) => {
      Object.setPrototypeOf(ctor.prototype, base.prototype)
      Object.setPrototypeOf(ctor, base)
    },
    deprecate: (fn) => fn,
    isDeepStrictEqual: (a, b) => deepEqual(a, b),
    types: {
      isPromise: (v) => v instanceof Promise,
      isDate: (v) => v instanceof Date,
      isRegExp: (v) => v instanceof RegExp,
    },
  }
  inspect.custom = Symbol.for('nodejs.util.inspect.custom')
  const os = {
    EOL: '\n',
    platform: () => 'linux',
    type: () => 'Linux',
    arch: () => 'wasm32',
    release: () => info.quickjs,
    hostname: () => 'tabcode',
    homedir: () => info.env.HOME || info.root,
    tmpdir: () => '/tmp',
    userInfo: () => ({ username: info.env.USER || 'user', homedir: info.env.HOME || info.root, shell: '/bin/sh', uid: 1000, gid: 1000 }),
    cpus: () => [{ model: 'QuickJS', speed: 0, times: {} }],
    totalmem: () => 256 * 1024 * 1024,
    freemem: () => 128 * 1024 * 1024,
    uptime: () => process.uptime(),
    loadavg: () => [0, 0, 0],
    networkInterfaces: () => ({}),
    availableParallelism: () => 1,
  }
  // ---- assert: Node's API, strict and loose ---------------------------------------------------------------------
  const objectTag = (v) => Object.prototype.toString.call(v)
  // Node's comparison: strict uses Object.is and checks prototypes; loose uses == for primitives and ignores them.
  function deepEqual(a, b, strict = true, memo = []) {
    if (strict ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
      return !strict && (typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null) ? a == b : false
    }
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
    if (objectTag(a) !== objectTag(b)) return false
    for (const [x, y] of memo) if (x === a && y === b) return true
    memo = [...memo, [a, b]]
    if (a instanceof Date) return a.getTime() === b.getTime() && keysEqual(a, b, strict, memo)
    if (a instanceof RegExp) return String(a) === String(b) && a.lastIndex === b.lastIndex && keysEqual(a, b, strict, memo)
    if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false
    if (ArrayBuffer.isView(a)) {
      if (a.length !== b.length || a.byteLength !== b.byteLength) return false
      for (let i = 0; i < a.length; i++) if (!(strict ? Object.is(a[i], b[i]) : a[i] == b[i])) return false
      return keysEqual(a, b, strict, memo, true)
    }
    if (a instanceof ArrayBuffer) return deepEqual(new Uint8Array(a), new Uint8Array(b), strict, memo)
    if (a instanceof Number || a instanceof String || a instanceof Boolean) {
      if (!Object.is(a.valueOf(), b.valueOf())) return false
    }
    if (a instanceof Set) {
      if (a.size !== b.size) return false
      const rest = [...b]
      for (const x of a) {
        if (b.has(x)) {
          rest.splice(rest.indexOf(x), 1)
          continue
        }
        const i = rest.findIndex((y) => typeof x === 'object' && deepEqual(x, y, strict, memo))
        if (i < 0) return false
        rest.splice(i, 1)
      }
      return keysEqual(a, b, strict, memo)
    }
    if (a instanceof Map) {
      if (a.size !== b.size) return false
      for (const [k, x] of a) {
        if (b.has(k)) {
          if (!deepEqual(x, b.get(k), strict, memo)) return false
        } else if (![...b].some(([j, y]) => typeof k === 'object' && deepEqual(k, j, strict, memo) && deepEqual(x, y, strict, memo))) return false
      }
      return keysEqual(a, b, strict, memo)
    }
    if (Array.isArray(a) && a.length !== b.length) return false
    return keysEqual(a, b, strict, memo)
  }
  function keysEqual(a, b, strict, memo, skipIndices) {
    const own = (o) => {
      let keys = Object.keys(o)
      if (skipIndices) keys = keys.filter((k) => !/^\d+$/.test(k))
      if (strict) keys = keys.concat(Object.getOwnPropertySymbols(o).filter((s) => Object.prototype.propertyIsEnumerable.call(o, s)))
      return keys
    }
    const ka = own(a)
    const kb = own(b)
    if (ka.length !== kb.length) return false
    return ka.every((k) => Object.prototype.propertyIsEnumerable.call(b, k) && deepEqual(a[k], b[k], strict, memo))
  }
  // Each entry on a line of its own, as the assertion diff shows values.
  function expanded(v, indent = '') {
    if (v === null || typeof v !== 'object' || v instanceof Date || v instanceof RegExp || v instanceof Error) return inspect(v)
    const inner = indent + '  '
    let open
    let close
    let items
    if (Array.isArray(v)) {
      open = '['
      close = ']'
      items = v.map((x) => expanded(x, inner))
    } else if (v instanceof Map) {
      open = 'Map(' + v.size + ') {'
      close = '}'
      items = [...v].map(([k, x]) => inspect(k) + ' => ' + expanded(x, inner))
    } else if (v instanceof Set) {
      open = 'Set(' + v.size + ') {'
      close = '}'
      items = [...v].map((x) => expanded(x, inner))
    } else {
      const ctor = v.constructor && v.constructor.name
      open = (ctor === 'Object' ? '' : ctor ? ctor + ' ' : '[Object: null prototype] ') + '{'
      close = '}'
      items = Object.keys(v).map((k) => keyText(k) + ': ' + expanded(v[k], inner))
    }
    if (!items.length) return open + close
    return open + '\n' + items.map((item) => inner + item).join(',\n') + '\n' + indent + close
  }
  // The lines of both values, common ones kept once: `+` what the code gave, `-` what the test expected.
  function diff(actual, expected) {
    const a = expanded(actual).split('\n')
    const b = expanded(expected).split('\n')
    const lengths = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0))
    for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1])
    const lines = []
    let i = 0
    let j = 0
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        lines.push('  ' + a[i++])
        j++
      } else if (j >= b.length || (i < a.length && lengths[i + 1][j] >= lengths[i][j + 1])) lines.push('+ ' + a[i++])
      else lines.push('- ' + b[j++])
    }
    return '+ actual - expected\n\n' + lines.join('\n')
  }
  class AssertionError extends Error {
    constructor(options) {
      super(options.message)
      this.generatedMessage = !options.custom
      this.code = 'ERR_ASSERTION'
      this.actual = options.actual
      this.expected = options.expected
      this.operator = options.operator
    }
    get name() {
      return 'AssertionError'
    }
  }
  const fail = (message, actual, expected, operator, generated) => {
    if (message instanceof Error) throw message
    const custom = message !== undefined
    throw new AssertionError({ message: custom ? String(message) : generated(), actual, expected, operator, custom })
  }
  // What an error must be for throws/rejects: a class, a RegExp over its text, a validation function or an object
  // whose fields it must have.
  function matches(error, expected, operator, message) {
    if (expected === undefined) return
    if (expected instanceof RegExp) {
      if (expected.test(String(error))) return
      return fail(message, error, expected, operator, () => 'The input did not match the regular expression ' + inspect(expected) + '. Input:\n\n' + inspect(String(error)) + '\n')
    }
    if (typeof expected === 'function') {
      if (expected.prototype !== undefined && error instanceof expected) return
      if (Error.isPrototypeOf(expected) || expected === Error) {
        return fail(message, error, expected, operator, () => 'The error is expected to be an instance of "' + expected.name + '". Received "' + (error && error.constructor ? error.constructor.name : inspect(error)) + '"\n\nError message:\n\n' + (error && error.message))
      }
      if (expected.call({}, error) === true) return
      return fail(message, error, expected, operator, () => 'The ' + (expected.name ? '"' + expected.name + '" validation function' : 'validation function') + ' is expected to return "true". Received ' + inspect(expected.call({}, error)) + '\n\nCaught error:\n\n' + inspect(error))
    }
    if (typeof expected === 'object' && expected !== null) {
      for (const key of Object.keys(expected)) {
        const want = expected[key]
        const have = error == null ? undefined : error[key]
        const ok = want instanceof RegExp && typeof have === 'string' ? want.test(have) : deepEqual(have, want)
        if (!ok) {
          return fail(message, error, expected, operator, () => 'Expected values to be strictly deep-equal:\n' + diff(pickKeys(error, expected), expected))
        }
      }
      return
    }
    throw new TypeError('The "expected" argument must be of type function or an instance of Error, RegExp, or Object. Received ' + inspect(expected))
  }
  const pickKeys = (error, expected) => {
    const out = {}
    for (const key of Object.keys(expected)) if (error != null && key in error) out[key] = error[key]
    return out
  }
  const split = (expected, message) => (typeof expected === 'string' && message === undefined ? [undefined, expected] : [expected, message])
  function throws(fn, expected, message) {
    ;[expected, message] = split(expected, message)
    if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function. Received ' + inspect(fn))
    try {
      fn()
    } catch (error) {
      return matches(error, expected, 'throws', message)
    }
    fail(message, undefined, expected, 'throws', () => 'Missing expected exception' + (expected && expected.name ? ' (' + expected.name + ').' : '.'))
  }
  async function rejects(promise, expected, message) {
    ;[expected, message] = split(expected, message)
    try {
      await (typeof promise === 'function' ? promise() : promise)
    } catch (error) {
      return matches(error, expected, 'rejects', message)
    }
    fail(message, undefined, expected, 'rejects', () => 'Missing expected rejection' + (expected && expected.name ? ' (' + expected.name + ').' : '.'))
  }
  function doesNotThrow(fn, expected, message) {
    ;[expected, message] = split(expected, message)
    try {
      fn()
    } catch (error) {
      if (typeof expected === 'function' && expected.prototype !== undefined && !(error instanceof expected)) throw error
      fail(message, error, expected, 'doesNotThrow', () => 'Got unwanted exception.\nActual message: "' + (error && error.message) + '"')
    }
  }
  async function doesNotReject(promise, expected, message) {
    ;[expected, message] = split(expected, message)
    try {
      await (typeof promise === 'function' ? promise() : promise)
    } catch (error) {
      if (typeof expected === 'function' && expected.prototype !== undefined && !(error instanceof expected)) throw error
      fail(message, error, expected, 'doesNotReject', () => 'Got unwanted rejection.\nActual message: "' + (error && error.message) + '"')
    }
  }
  function makeAssert(strict) {
    const ok = (...args) => {
      if (args.length === 0) fail(undefined, undefined, true, '==', () => 'No value argument passed to `assert.ok()`')
      if (!args[0]) fail(args[1], args[0], true, '==', () => 'The expression evaluated to a falsy value:\n\n  assert(' + inspect(args[0]) + ')\n')
    }
    const strictEqual = (a, b, m) => Object.is(a, b) || fail(m, a, b, 'strictEqual', () =>
      typeof a === 'object' && a !== null && typeof b === 'object' && b !== null
        ? 'Expected values to be strictly equal:\n' + diff(a, b)
        : 'Expected values to be strictly equal:\n\n' + inspect(a) + ' !== ' + inspect(b) + '\n')
    const notStrictEqual = (a, b, m) => !Object.is(a, b) || fail(m, a, b, 'notStrictEqual', () => 'Expected "actual" to be strictly unequal to: ' + inspect(b))
    const deepStrictEqual = (a, b, m) => deepEqual(a, b) || fail(m, a, b, 'deepStrictEqual', () => 'Expected values to be strictly deep-equal:\n' + diff(a, b))
    const notDeepStrictEqual = (a, b, m) => !deepEqual(a, b) || fail(m, a, b, 'notDeepStrictEqual', () => 'Expected "actual" not to be strictly deep-equal to: ' + inspect(b))
    const equal = (a, b, m) => a == b || (a !== a && b !== b) || fail(m, a, b, '==', () => inspect(a) + ' == ' + inspect(b))
    const notEqual = (a, b, m) => !(a == b || (a !== a && b !== b)) || fail(m, a, b, '!=', () => inspect(a) + ' != ' + inspect(b))
    const looseDeep = (a, b, m) => deepEqual(a, b, false) || fail(m, a, b, 'deepEqual', () => 'Expected values to be loosely deep-equal:\n\n' + inspect(a) + '\n\nshould loosely deep-equal\n\n' + inspect(b))
    const notLooseDeep = (a, b, m) => !deepEqual(a, b, false) || fail(m, a, b, 'notDeepEqual', () => '"actual" deepEqual "expected"')
    const assert = (...args) => ok(...args)
    Object.assign(assert, {
      ok,
      AssertionError,
      fail: (message = 'Failed') => fail(message, undefined, undefined, 'fail'),
      equal: strict ? strictEqual : equal,
      notEqual: strict ? notStrictEqual : notEqual,
      deepEqual: strict ? deepStrictEqual : looseDeep,
      notDeepEqual: strict ? notDeepStrictEqual : notLooseDeep,
      strictEqual,
      notStrictEqual,
      deepStrictEqual,
      notDeepStrictEqual,
      throws,
      doesNotThrow,
      rejects,
      doesNotReject,
      ifError: (value) => {
        if (value === null || value === undefined) return
        const message = 'ifError got unwanted exception: ' + (value && value.message !== undefined ? value.message : inspect(value))
        const error = new AssertionError({ message, actual: value, expected: null, operator: 'ifError', custom: true })
        if (value instanceof Error && value.stack) error.stack = value.stack
        throw error
      },
      match: (s, re, m) => {
        if (typeof s === 'string' && re.test(s)) return
        fail(m, s, re, 'match', () => typeof s !== 'string'
          ? 'The "string" argument must be of type string. Received type ' + typeof s + ' (' + inspect(s) + ')'
          : 'The input did not match the regular expression ' + inspect(re) + '. Input:\n\n' + inspect(s) + '\n')
      },
      doesNotMatch: (s, re, m) => {
        if (typeof s === 'string' && !re.test(s)) return
        fail(m, s, re, 'doesNotMatch', () => 'The input was expected to not match the regular expression ' + inspect(re) + '. Input:\n\n' + inspect(s) + '\n')
      },
    })
    return assert
  }
  const assert = makeAssert(false)
  assert.strict = makeAssert(true)
  assert.strict.strict = assert.strict

  // ---- the web globals Node has; the network is refused plainly -------------------------------------------------
  // A plain function, not an arrow: `new WebSocket(…)` must say this too, not "is not a constructor".
  const offline = (name) =>
    function () {
      throw new TypeError(name + ' is not available in the offline node: it has no network (WebContainer does)')
    }
  g.fetch = (...args) => Promise.resolve().then(() => offline('fetch')(...args))
  g.WebSocket = offline('WebSocket')
  class URLImpl {
    constructor(href, base) {
      const full = base && !/^[a-z][\w+.-]*:/i.test(href) ? String(base).replace(/[^/]*$/, '') + href : String(href)
      const m = /^([a-z][\w+.-]*:)(?:\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(full)
      if (!m) throw new TypeError('Invalid URL')
      this.protocol = m[1]
      this.host = m[2] || ''
      this.hostname = this.host.replace(/:\d+$/, '')
      this.port = (/:(\d+)$/.exec(this.host) || [])[1] || ''
      this.pathname = m[3] || '/'
      this.search = m[4] || ''
      this.hash = m[5] || ''
      this.origin = this.protocol + '//' + this.host
    }
    get href() {
      return this.protocol + (this.host || this.protocol === 'file:' ? '//' + this.host : '') + this.pathname + this.search + this.hash
    }
    toString() {
      return this.href
    }
    toJSON() {
      return this.href
    }
    get searchParams() {
      // Changes to the parameters write back to the URL's search, as in Node.
      const params = new URLSearchParams(this.search)
      hidden(params, '_url', this)
      return params
    }
  }
  class URLSearchParams {
    constructor(init) {
      hidden(this, '_list', [])
      if (typeof init === 'string') {
        for (const part of init.replace(/^\?/, '').split('&')) {
          if (!part) continue
          const at = part.indexOf('=')
          const decode = (text) => decodeURIComponent(text.replace(/\+/g, ' '))
          this._list.push(at < 0 ? [decode(part), ''] : [decode(part.slice(0, at)), decode(part.slice(at + 1))])
        }
      } else if (init && typeof init === 'object') {
        for (const [k, v] of Symbol.iterator in init ? init : Object.entries(init)) this._list.push([String(k), String(v)])
      }
    }
    _update() {
      if (this._url) this._url.search = this._list.length ? '?' + this.toString() : ''
    }
    get size() {
      return this._list.length
    }
    get(name) {
      const found = this._list.find(([k]) => k === name)
      return found ? found[1] : null
    }
    getAll(name) {
      return this._list.filter(([k]) => k === name).map(([, v]) => v)
    }
    has(name) {
      return this._list.some(([k]) => k === name)
    }
    set(name, value) {
      const i = this._list.findIndex(([k]) => k === name)
      this._list = this._list.filter(([k], j) => k !== name || j === i)
      if (i < 0) this._list.push([name, String(value)])
      else this._list[this._list.findIndex(([k]) => k === name)][1] = String(value)
      this._update()
    }
    append(name, value) {
      this._list.push([String(name), String(value)])
      this._update()
    }
    delete(name) {
      this._list = this._list.filter(([k]) => k !== name)
      this._update()
    }
    sort() {
      this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      this._update()
    }
    forEach(fn, self) {
      for (const [k, v] of this._list) fn.call(self, v, k, this)
    }
    keys() {
      return this._list.map(([k]) => k)[Symbol.iterator]()
    }
    values() {
      return this._list.map(([, v]) => v)[Symbol.iterator]()
    }
    entries() {
      return this._list.map((pair) => pair.slice())[Symbol.iterator]()
    }
    [Symbol.iterator]() {
      return this.entries()
    }
    toString() {
      const encode = (text) => encodeURIComponent(text).replace(/%20/g, '+')
      return this._list.map(([k, v]) => encode(k) + '=' + encode(v)).join('&')
    }
  }
  if (typeof g.URL === 'undefined') g.URL = URLImpl
  if (typeof g.URLSearchParams === 'undefined') g.URLSearchParams = URLSearchParams
  g.global = g
  g.Buffer = Buffer
  g.process = process
  g.console = console
  g.structuredClone = structuredClone

  // ---- the web platform pieces Node has as globals: performance, events, abort, text, DOMException --------------
  class DOMException extends Error {
    constructor(message, name) {
      super(message)
      hidden(this, 'name', name === undefined ? 'Error' : String(name))
    }
  }
  // What structured clone copies (Node's own algorithm, as the HTML standard defines it); a function or a symbol
  // cannot be cloned and says so.
  function structuredClone(value) {
    const copies = new Map()
    function clone(v) {
      if (typeof v === 'function' || typeof v === 'symbol') throw new DOMException((typeof v === 'function' ? inspect(v) : v.toString()) + ' could not be cloned.', 'DataCloneError')
      if (v === null || typeof v !== 'object') return v
      if (copies.has(v)) return copies.get(v)
      let out
      if (Array.isArray(v)) out = []
      else if (v instanceof Date) out = new Date(v.getTime())
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags)
      else if (v instanceof ArrayBuffer) out = v.slice(0)
      else if (ArrayBuffer.isView(v)) out = new v.constructor(v)
      else if (v instanceof Map) out = new Map()
      else if (v instanceof Set) out = new Set()
      else if (v instanceof Error) {
        out = new (g[v.name] && g[v.name].prototype instanceof Error ? g[v.name] : Error)(v.message)
        if (v.stack) out.stack = v.stack
      } else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) {
        throw new DOMException(inspect(v) + ' could not be cloned.', 'DataCloneError')
      } else out = {}
      copies.set(v, out)
      if (v instanceof Map) for (const [k, x] of v) out.set(clone(k), clone(x))
      else if (v instanceof Set) for (const x of v) out.add(clone(x))
      else if (Array.isArray(v) || (!ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer) && !(v instanceof Date) && !(v instanceof RegExp) && !(v instanceof Error))) {
        for (const k of Object.keys(v)) out[k] = clone(v[k])
      }
      return out
    }
    if (arguments.length === 0) throw new TypeError('The "value" argument must be specified')
    return clone(value)
  }

  const listenersOf = new WeakMap()
  class Event {
    constructor(type, options) {
      this.type = String(type)
      this.bubbles = !!(options && options.bubbles)
      this.cancelable = !!(options && options.cancelable)
      this.defaultPrevented = false
      this.timeStamp = host.now() - info.started
      this.target = this.currentTarget = null
    }
    preventDefault() {
      if (this.cancelable) this.defaultPrevented = true
    }
    stopPropagation() {}
    stopImmediatePropagation() {
      hidden(this, '_stopped', true)
    }
  }
  class CustomEvent extends Event {
    constructor(type, options) {
      super(type, options)
      this.detail = options && options.detail !== undefined ? options.detail : null
    }
  }
  class EventTarget {
    addEventListener(type, listener, options) {
      if (!listener) return
      if (!listenersOf.has(this)) listenersOf.set(this, [])
      const list = listenersOf.get(this)
      if (list.some((l) => l.type === type && l.listener === listener)) return
      const once = typeof options === 'object' && options !== null && !!options.once
      list.push({ type, listener, once })
      const signal = typeof options === 'object' && options !== null && options.signal
      if (signal) signal.addEventListener('abort', () => this.removeEventListener(type, listener))
    }
    removeEventListener(type, listener) {
      const list = listenersOf.get(this)
      if (!list) return
      const i = list.findIndex((l) => l.type === type && l.listener === listener)
      if (i >= 0) list.splice(i, 1)
    }
    dispatchEvent(event) {
      event.target = event.currentTarget = this
      const handler = this['on' + event.type]
      const list = (listenersOf.get(this) || []).filter((l) => l.type === event.type)
      if (typeof handler === 'function') list.unshift({ listener: handler })
      for (const l of list) {
        if (l.once) this.removeEventListener(event.type, l.listener)
        try {
          discarded(typeof l.listener === 'function' ? l.listener.call(this, event) : l.listener.handleEvent(event))
        } catch (e) {
          uncaught(e)
        }
        if (event._stopped) break
      }
      return !event.defaultPrevented
    }
  }
  class AbortSignal extends EventTarget {
    constructor() {
      super()
      this.aborted = false
      this.reason = undefined
      this.onabort = null
    }
    throwIfAborted() {
      if (this.aborted) throw this.reason
    }
    static abort(reason) {
      const controller = new AbortController()
      controller.abort(reason)
      return controller.signal
    }
    static timeout(ms) {
      const controller = new AbortController()
      setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms)
      return controller.signal
    }
    static any(signals) {
      const controller = new AbortController()
      for (const signal of signals) {
        if (signal.aborted) {
          controller.abort(signal.reason)
          break
        }
        signal.addEventListener('abort', () => controller.abort(signal.reason))
      }
      return controller.signal
    }
  }
  class AbortController {
    constructor() {
      this.signal = new AbortSignal()
    }
    abort(reason) {
      const signal = this.signal
      if (signal.aborted) return
      signal.aborted = true
      signal.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason
      signal.dispatchEvent(new Event('abort'))
    }
  }
  class TextEncoder {
    get encoding() {
      return 'utf-8'
    }
    encode(text = '') {
      return new Uint8Array(host.encode(String(text)))
    }
    encodeInto(text, into) {
      const bytes = this.encode(text)
      const written = Math.min(bytes.length, into.length)
      into.set(bytes.subarray(0, written))
      return { read: String(text).length, written }
    }
  }
  class TextDecoder {
    constructor(encoding = 'utf-8') {
      const name = String(encoding).toLowerCase()
      if (name !== 'utf-8' && name !== 'utf8') throw new RangeError('The "' + encoding + '" encoding is not supported in the offline node (utf-8 is)')
      this.encoding = 'utf-8'
    }
    decode(input) {
      if (input === undefined) return ''
      const view = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      return host.decode(view.slice().buffer)
    }
  }
  // performance: time since the script started, with marks and measures between them.
  const entries = []
  const performance = {
    timeOrigin: Date.now() - (host.now() - info.started),
    now: () => host.now() - info.started,
    mark: (name, options) => {
      const entry = { name, entryType: 'mark', startTime: options && options.startTime !== undefined ? options.startTime : performance.now(), duration: 0, detail: (options && options.detail) || null }
      entries.push(entry)
      return entry
    },
    measure: (name, start, end) => {
      const at = (mark, fallback) => {
        if (mark === undefined) return fallback
        if (typeof mark === 'number') return mark
        const found = entries.filter((e) => e.entryType === 'mark' && e.name === mark).pop()
        if (!found) throw new DOMException("The \"" + mark + "\" performance mark has not been set", 'SyntaxError')
        return found.startTime
      }
      const range = typeof start === 'object' && start !== null ? start : { start, end }
      const from = at(range.start, 0)
      const to = at(range.end, performance.now())
      const entry = { name, entryType: 'measure', startTime: from, duration: to - from, detail: range.detail || null }
      entries.push(entry)
      return entry
    },
    getEntries: () => entries.slice(),
    getEntriesByName: (name, type) => entries.filter((e) => e.name === name && (!type || e.entryType === type)),
    getEntriesByType: (type) => entries.filter((e) => e.entryType === type),
    clearMarks: (name) => remove('mark', name),
    clearMeasures: (name) => remove('measure', name),
    toJSON: () => ({ timeOrigin: performance.timeOrigin }),
  }
  const remove = (type, name) => {
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === type && (name === undefined || entries[i].name === name)) entries.splice(i, 1)
  }
  Object.assign(g, { DOMException, Event, CustomEvent, EventTarget, AbortController, AbortSignal, TextEncoder, TextDecoder, performance })
  for (const name of ['DOMException', 'Event', 'CustomEvent', 'EventTarget', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'performance', 'structuredClone']) {
    Object.defineProperty(g, name, { enumerable: false })
  }
  const timersPromises = {
    setTimeout: (ms, value, options) =>
      new Promise((resolve, reject) => {
        const signal = options && options.signal
        if (signal && signal.aborted) return reject(signal.reason)
        const timer = setTimeout(() => resolve(value), ms)
        if (signal) signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)))
      }),
    setImmediate: (value) => new Promise((resolve) => setImmediate(() => resolve(value))),
    scheduler: { wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), yield: () => new Promise((resolve) => setImmediate(resolve)) },
  }

  // readline over the piped stdin (there is no terminal): lines, questions answered from the next line, close.
  function createInterface(options) {
    const input = (options && options.input) || stdin
    const rl = new EventEmitter()
    const lines = input === stdin ? info.stdin.split('\n') : []
    if (lines.length && lines[lines.length - 1] === '') lines.pop()
    let closed = false
    let started = false
    const waiting = []
    const next = () => (lines.length ? lines.shift() : undefined)
    const start = () => {
      if (started) return
      started = true
      setTimeout(function pump() {
        if (closed) return
        if (waiting.length) {
          const line = next()
          if (line === undefined) return rl.close()
          waiting.shift()(line)
        } else if (rl.listenerCount('line')) {
          const line = next()
          if (line === undefined) return rl.close()
          rl.emit('line', line)
        } else return void (started = false)
        setTimeout(pump)
      })
    }
    const on = rl.on.bind(rl)
    rl.on = rl.addListener = (name, fn) => {
      on(name, fn)
      if (name === 'line') start()
      return rl
    }
    rl.question = (query, opts, callback) => {
      const done = typeof opts === 'function' ? opts : callback
      write(1, String(query))
      waiting.push(done)
      start()
    }
    rl.close = () => {
      if (closed) return
      closed = true
      rl.emit('close')
    }
    rl.setPrompt = (p) => (rl._prompt = p)
    rl.prompt = () => write(1, rl._prompt === undefined ? '> ' : rl._prompt)
    rl.write = (text) => write(1, String(text))
    rl.pause = rl.resume = () => rl
    rl[Symbol.asyncIterator] = async function* () {
      closed = true
      for (let line = next(); line !== undefined; line = next()) yield line
    }
    return rl
  }
  const readline = { createInterface, Interface: EventEmitter, emitKeypressEvents: () => {}, clearLine: () => true, cursorTo: () => true }
  const readlinePromises = {
    createInterface: (options) => {
      const rl = createInterface(options)
      const question = rl.question
      rl.question = (query) => new Promise((resolve) => question(query, resolve))
      return rl
    },
  }

  // ---- crypto: randomness from the host, and the common digests in plain JavaScript ----------------------------
  const randomFill = (view) => {
    new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(new Uint8Array(host.random(view.byteLength)))
    return view
  }
  const randomUUID = () => {
    const b = randomFill(new Uint8Array(16))
    b[6] = (b[6] & 15) | 64
    b[8] = (b[8] & 63) | 128
    const h = Buffer.from(b).toString('hex')
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20)
  }
  const rotl = (x, n) => (x << n) | (x >>> (32 - n))
  const rotr = (x, n) => (x >>> n) | (x << (32 - n))
  // Merkle–Damgård padding: the message, 0x80, zeros, and the bit length in 8 bytes (big- or little-endian).
  function blocks(bytes, littleEndian) {
    const total = ((bytes.length + 8) >> 6) * 64 + 64
    const padded = new Uint8Array(total)
    padded.set(bytes)
    padded[bytes.length] = 0x80
    const view = new DataView(padded.buffer)
    const bits = bytes.length * 8
    view.setUint32(total - (littleEndian ? 8 : 4), bits >>> 0, littleEndian)
    view.setUint32(total - (littleEndian ? 4 : 8), Math.floor(bits / 2 ** 32), littleEndian)
    return view
  }
  const K256 = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
    0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
    0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
    0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]
  function sha256(bytes) {
    const view = blocks(bytes, false)
    const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    const w = new Array(64)
    for (let offset = 0; offset < view.byteLength; offset += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4)
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3)
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10)
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0
      }
      let [a, b, c, d, e, f, g, k] = h
      for (let i = 0; i < 64; i++) {
        const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) | 0
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
        k = g
        g = f
        f = e
        e = (d + t1) | 0
        d = c
        c = b
        b = a
        a = (t1 + t2) | 0
      }
      ;[a, b, c, d, e, f, g, k].forEach((x, i) => (h[i] = (h[i] + x) | 0))
    }
    const out = new DataView(new ArrayBuffer(32))
    h.forEach((x, i) => out.setUint32(i * 4, x))
    return new Uint8Array(out.buffer)
  }
  function sha1(bytes) {
    const view = blocks(bytes, false)
    const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]
    const w = new Array(80)
    for (let offset = 0; offset < view.byteLength; offset += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4)
      for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1)
      let [a, b, c, d, e] = h
      for (let i = 0; i < 80; i++) {
        const [f, k] = i < 20 ? [(b & c) | (~b & d), 0x5a827999] : i < 40 ? [b ^ c ^ d, 0x6ed9eba1] : i < 60 ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc] : [b ^ c ^ d, 0xca62c1d6]
        const t = (rotl(a, 5) + f + e + k + w[i]) | 0
        e = d
        d = c
        c = rotl(b, 30)
        b = a
        a = t
      }
      ;[a, b, c, d, e].forEach((x, i) => (h[i] = (h[i] + x) | 0))
    }
    const out = new DataView(new ArrayBuffer(20))
    h.forEach((x, i) => out.setUint32(i * 4, x))
    return new Uint8Array(out.buffer)
  }
  const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]
  const MD5_K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0)
  function md5(bytes) {
    const view = blocks(bytes, true)
    const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
    for (let offset = 0; offset < view.byteLength; offset += 64) {
      let [a, b, c, d] = h
      for (let i = 0; i < 64; i++) {
        const round = i >> 4
        const f = round === 0 ? (b & c) | (~b & d) : round === 1 ? (d & b) | (~d & c) : round === 2 ? b ^ c ^ d : c ^ (b | ~d)
        const g = round === 0 ? i : round === 1 ? (5 * i + 1) % 16 : round === 2 ? (3 * i + 5) % 16 : (7 * i) % 16
        const t = d
        d = c
        c = b
        b = (b + rotl((a + f + MD5_K[i] + view.getUint32(offset + g * 4, true)) | 0, MD5_S[round * 4 + (i % 4)])) | 0
        a = t
      }
      ;[a, b, c, d].forEach((x, i) => (h[i] = (h[i] + x) | 0))
    }
    const out = new DataView(new ArrayBuffer(16))
    h.forEach((x, i) => out.setUint32(i * 4, x, true))
    return new Uint8Array(out.buffer)
  }
  const DIGESTS = { sha256, sha1, md5 }
  function createHash(algorithm) {
    const digest = DIGESTS[String(algorithm).toLowerCase().replace('-', '')]
    if (!digest) throw new Error("Digest method not supported in the offline node: '" + algorithm + "' (sha256, sha1 and md5 are)")
    const parts = []
    const hash = {
      update(data, encoding) {
        parts.push(typeof data === 'string' ? Buffer.from(data, encoding) : Buffer.from(data))
        return hash
      },
      digest(encoding) {
        const out = Buffer.from(digest(Buffer.concat(parts)))
        return encoding ? out.toString(encoding) : out
      },
    }
    return hash
  }
  const webcrypto = { getRandomValues: randomFill, randomUUID }
  const crypto = {
    randomUUID,
    randomBytes: (n) => randomFill(Buffer.alloc(n)),
    randomInt: (min, max) => {
      if (max === undefined) [min, max] = [0, min]
      return min + Math.floor((new Uint32Array(host.random(4))[0] / 2 ** 32) * (max - min))
    },
    getRandomValues: randomFill,
    createHash,
    webcrypto,
  }
  g.crypto = webcrypto

  const url = {
    URL: g.URL,
    URLSearchParams: g.URLSearchParams,
    fileURLToPath: (u) => {
      const href = String(u instanceof Object && 'href' in u ? u.href : u)
      if (!href.startsWith('file://')) throw new TypeError('The URL must be of scheme file')
      return decodeURIComponent(href.slice(7).replace(/^[^/]*/, ''))
    },
    pathToFileURL: (p) => new g.URL('file://' + encodeURI(path.resolve(p))),
  }

  // ---- modules ----------------------------------------------------------------------------------------------------
  const builtins = {
    fs: () => fs,
    'fs/promises': () => promises,
    path: () => path,
    'path/posix': () => path,
    process: () => process,
    util: () => util,
    events: () => EventEmitter,
    os: () => os,
    assert: () => assert,
    'assert/strict': () => assert.strict,
    buffer: () => ({ Buffer }),
    timers: () => ({ setTimeout, setInterval, setImmediate, clearTimeout, clearInterval, clearImmediate }),
    url: () => url,
    readline: () => readline,
    crypto: () => crypto,
    'readline/promises': () => readlinePromises,
    perf_hooks: () => ({ performance, PerformanceObserver: class PerformanceObserver { observe() {} disconnect() {} } }),
    'timers/promises': () => timersPromises,
  }
  const cache = Object.create(null)
  function moduleError(r) {
    const e = new Error(r.message)
    e.code = r.code
    return e
  }
  function makeRequire(dir, parent) {
    const require = (id) => {
      if (typeof id !== 'string') throw new TypeError('The "id" argument must be of type string. Received ' + inspect(id))
      const r = JSON.parse(host.resolve(dir, id, parent ? parent.filename : ''))
      if (r.kind === 'builtin') return builtins[r.name]()
      if (r.kind === 'error') throw moduleError(r)
      return load(r.path, parent).exports
    }
    require.resolve = (id) => {
      const r = JSON.parse(host.resolve(dir, String(id), parent ? parent.filename : ''))
      if (r.kind === 'error') throw moduleError(r)
      return r.kind === 'builtin' ? r.name : r.path
    }
    require.cache = cache
    require.main = mainModule
    return require
  }
  let mainModule
  class Module {
    constructor(filename, parent) {
      this.id = filename
      this.filename = filename
      this.path = path.dirname(filename)
      this.exports = {}
      this.loaded = false
      this.children = []
      this.parent = parent
      if (parent) parent.children.push(this)
    }
  }
  function load(file, parent, main) {
    if (cache[file]) return cache[file]
    const module = new Module(file, parent)
    if (main) mainModule = module
    module.require = makeRequire(module.path, module)
    cache[file] = module
    try {
      const unit = JSON.parse(host.load(file))
      if (unit.error) throw moduleError(unit.error)
      if (unit.format === 'json') {
        try {
          module.exports = JSON.parse(unit.source)
        } catch (e) {
          throw new SyntaxError(file + ': ' + e.message)
        }
      } else if (unit.format === 'esm') {
        const e = new Error('require() of the ES module ' + file + ' is not supported in the offline node; use import (or a dynamic import()) instead')
        e.code = 'ERR_REQUIRE_ESM'
        throw e
      } else {
        const wrapper = host.compile(unit.source, file)
        wrapper.call(module.exports, module.exports, module.require, module, file, module.path)
      }
    } catch (e) {
      delete cache[file]
      throw e
    }
    module.loaded = true
    return module
  }
  hidden(g, '__nodeBuiltin', (name) => builtins[name]())
  hidden(g, '__nodeRequire', (file) => load(file).exports)
  hidden(g, '__nodeMain', (file) => void load(file, undefined, true))
  // `node -e` and `node -p`: the script sees require, module and exports as globals, as Node's [eval] does.
  hidden(g, '__nodeEvalScope', (name) => {
    const module = new Module(cwd + '/' + name)
    module.filename = name
    module.id = name
    mainModule = module
    module.require = makeRequire(cwd, module)
    g.require = module.require
    g.module = module
    g.exports = module.exports
    g.__filename = name
    g.__dirname = '.'
  })
  hidden(g, '__nodeFlush', flush)
  hidden(g, '__nodeRefuse', (message) => {
    write(2, message)
    process.exitCode = 1
  })
  hidden(g, '__nodeInspect', (v) => inspect(v, { top: true }))
  hidden(g, '__nodeUncaught', (e) => (e instanceof Error ? errorText(e) : 'Uncaught ' + inspect(e)))
  // What node-test.js needs of the prelude, handed over once (it removes the global).
  const loopEnd = []
  hidden(g, '__nodeInternals', {
    write,
    inspect,
    process,
    assert,
    now: () => host.now(),
    requireFile: (file) => load(file),
    commentOutput: () => (commented = true),
    defineBuiltin: (name, make) => (builtins[name] = make),
    atLoopEnd: (fn) => loopEnd.push(fn),
  })
  // The event loop is empty: the prelude's own finishers, then 'beforeExit', which may schedule more work.
  hidden(g, '__nodeBeforeExit', () => {
    for (const fn of loopEnd) fn()
    if (process.listenerCount('beforeExit')) {
      process.emit('beforeExit', exitStatus())
    }
    flush()
    return timers.size
  })
  hidden(g, '__nodeExitCode', (failed) => {
    if (failed !== undefined) process.exitCode = failed
    emitExit()
    flush()
    return exitStatus()
  })
})(globalThis.__host, globalThis.__info)
