// `node:test` inside QuickJS, run after the prelude with the prelude's internals (engine.ts passes them once and
// removes the global). Tests run one at a time, in the order they were declared; the report is the TAP that Node's
// default reporter writes when its output is not a terminal (`TAP version 13`, `# Subtest:`, a YAML block for each
// test, `# tests`/`# pass`/`# fail` at the end), and a failed test sets the exit code to 1.
;(function (internals) {
  'use strict'
  delete globalThis.__nodeInternals
  const { write, inspect, process, now, defineBuiltin, atLoopEnd } = internals

  const out = (text) => write(1, text, true)
  const hidden = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false })
  const pad = (depth) => '    '.repeat(depth)
  // Where a test was declared: the first frame of the stack that is the script's, not the prelude's.
  function callSite() {
    const stack = String(new Error().stack || '').split('\n')
    for (const line of stack) {
      const at = /\((\/[^()]+:\d+:\d+)\)|at (\/[^\s()]+:\d+:\d+)$/.exec(line)
      if (at && !/node:internal/.test(line)) return at[1] || at[2]
    }
    return undefined
  }
  const yamlString = (value) => "'" + String(value).replace(/'/g, "''") + "'"
  // A value in the YAML block: a multi-line text as a `|-` block, the rest as util.inspect shows it.
  function yamlField(depth, key, value) {
    const indent = pad(depth) + '  '
    if (typeof value === 'string' && value.includes('\n')) {
      return indent + key + ': |-\n' + value.split('\n').map((line) => indent + '  ' + line).join('\n') + '\n'
    }
    return indent + key + ': ' + (typeof value === 'string' ? yamlString(value) : inspect(value, { depth: 1 }).replace(/\n\s*/g, ' ')) + '\n'
  }
  function stackOf(error) {
    if (!error || typeof error.stack !== 'string') return ''
    return error.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line) && !/node:internal|\(native\)/.test(line))
      .map((line) => line.trim().replace(/^at /, ''))
      .join('\n')
  }

  const counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 }
  let started
  let finished = false
  let failedAny = false

  class Test {
    constructor(name, options, fn, parent, kind) {
      this.name = name
      this.options = options
      this.fn = fn
      this.parent = parent
      this.kind = kind
      this.depth = parent ? parent.depth + 1 : -1
      this.children = []
      this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] }
      this.location = callSite()
      this.skip = options.skip
      this.todo = options.todo
      this.error = undefined
      this.failureType = undefined
    }
  }
  const root = new Test('<root>', {}, undefined, undefined, 'suite')
  let current = root
  let reported = 0

  // test(name?, options?, fn?) in any order Node accepts.
  function parse(args) {
    let name
    let options = {}
    let fn
    for (const arg of args) {
      if (typeof arg === 'string') name = arg
      else if (typeof arg === 'function') fn = arg
      else if (arg && typeof arg === 'object') options = arg
    }
    if (name === undefined) name = (fn && fn.name) || '<anonymous>'
    return { name, options, fn }
  }

  function declare(kind, args, extra) {
    const { name, options, fn } = parse(args)
    const test = new Test(name, Object.assign({}, options, extra), fn, current, kind)
    current.children.push(test)
    if (kind === 'suite') {
      // A suite's body runs at once, to declare its tests and hooks.
      const outer = current
      current = test
      try {
        if (fn && !test.skip && !test.todo) {
          const result = fn.call(undefined, test)
          if (result && typeof result.then === 'function') test.pending = result
        }
      } catch (error) {
        test.error = error
        test.failureType = 'testCodeFailure'
      } finally {
        current = outer
      }
    }
    schedule()
    return new Promise((resolve) => (test.settled = resolve))
  }

  let scheduled = false
  // While `node --test` loads its files, the run waits: every file's tests are declared first.
  let loading = false
  function schedule() {
    if (scheduled) return
    scheduled = true
    started = now()
    if (!loading) setTimeout(start)
  }
  function start() {
    out('TAP version 13\n')
    runChildren(root).then(() => {
      finished = true
    })
  }
  // `node --test`: each file in turn (CommonJS required, a module imported); one that fails to load is a failed test.
  hidden('__nodeRunTestFiles', async (files) => {
    // What the tests print becomes TAP comments, as Node shows a test file's own output under --test.
    internals.commentOutput()
    loading = true
    schedule()
    for (const file of files) {
      try {
        try {
          internals.requireFile(file)
        } catch (error) {
          if (!error || error.code !== 'ERR_REQUIRE_ESM') throw error
          await import(file)
        }
      } catch (error) {
        const failed = new Test(file, {}, undefined, root, 'test')
        failed.error = error
        failed.failureType = 'testCodeFailure'
        failed.location = file + ':1:1'
        root.children.push(failed)
      }
    }
    loading = false
    start()
  })

  async function runHooks(list, context) {
    for (const hook of list) await callWith(hook, context)
  }
  // A function that takes a `done` callback is done when it calls it; otherwise when its promise settles.
  function callWith(fn, context) {
    if (fn.length >= 2) {
      return new Promise((resolve, reject) => {
        const result = fn.call(undefined, context, (error) => (error ? reject(error) : resolve()))
        if (result && typeof result.then === 'function') result.then(undefined, reject)
      })
    }
    return Promise.resolve().then(() => fn.call(undefined, context))
  }
  const ancestors = (test) => {
    const list = []
    for (let at = test.parent; at; at = at.parent) list.unshift(at)
    return list
  }

  async function runChildren(suite) {
    if (suite.pending) {
      try {
        await suite.pending
      } catch (error) {
        suite.error = error
        suite.failureType = 'testCodeFailure'
      }
    }
    let ranHooks = false
    for (let index = 0; index < suite.children.length; index++) {
      const child = suite.children[index]
      if (!ranHooks) {
        ranHooks = true
        try {
          await runHooks(suite.hooks.before, suite)
        } catch (error) {
          suite.error = error
          suite.failureType = 'hookFailed'
        }
      }
      await run(child, index + 1)
    }
    if (ranHooks) {
      try {
        await runHooks(suite.hooks.after, suite)
      } catch (error) {
        suite.error = suite.error || error
        suite.failureType = suite.failureType || 'hookFailed'
      }
    }
  }

  async function run(test, number) {
    out(pad(test.depth) + '# Subtest: ' + test.name + '\n')
    const begin = now()
    if (test.kind === 'suite') {
      counts.suites++
      if (!test.skip && !test.todo) await runChildren(test)
      const failed = test.children.filter((child) => child.failed).length
      if (!test.error && failed) {
        test.error = new Error(failed + ' subtest' + (failed > 1 ? 's' : '') + ' failed')
        test.failureType = 'subtestsFailed'
      }
    } else {
      counts.tests++
      // A todo test runs too; only its failure does not count.
      if (!test.skip) await runTest(test)
    }
    report(test, number, now() - begin)
    if (test.settled) test.settled()
  }

  async function runTest(test) {
    const context = new TestContext(test)
    const chain = ancestors(test)
    const failed = (error, type) => {
      if (test.error) return
      test.error = error
      test.failureType = type
    }
    try {
      for (const suite of chain) await runHooks(suite.hooks.beforeEach, context)
      if (test.fn) await callWith(test.fn, context)
    } catch (error) {
      failed(error, 'testCodeFailure')
    }
    // Subtests the test declared but did not wait for run now; afterEach hooks run whatever happened.
    await context.drain()
    try {
      for (const suite of chain.slice().reverse()) await runHooks(suite.hooks.afterEach, context)
    } catch (error) {
      failed(error, 'hookFailed')
    }
    const failures = test.children.filter((child) => child.failed).length
    if (failures) failed(new Error(failures + ' subtest' + (failures > 1 ? 's' : '') + ' failed'), 'subtestsFailed')
  }

  class TestContext {
    constructor(test) {
      this._test = test
      this._queue = []
      this._number = 0
      this.name = test.name
      this.signal = new AbortController().signal
      this.mock = mock
    }
    get fullName() {
      return [...ancestors(this._test).slice(1).map((t) => t.name), this._test.name].join(' > ')
    }
    diagnostic(message) {
      ;(this._test.diagnostics ||= []).push(String(message))
    }
    skip(message) {
      this._test.skip = message === undefined ? true : message
    }
    todo(message) {
      this._test.todo = message === undefined ? true : message
    }
    plan() {}
    before(fn) {
      this._test.hooks.before.push(fn)
    }
    after(fn) {
      this._test.hooks.after.push(fn)
    }
    beforeEach(fn) {
      this._test.hooks.beforeEach.push(fn)
    }
    afterEach(fn) {
      this._test.hooks.afterEach.push(fn)
    }
    test(...args) {
      const { name, options, fn } = parse(args)
      const child = new Test(name, options, fn, this._test, 'test')
      this._test.children.push(child)
      const number = ++this._number
      // Subtests run one after another, whether or not the parent awaits each.
      const previous = this._queue.length ? this._queue[this._queue.length - 1] : Promise.resolve()
      const done = previous.then(() => run(child, number))
      this._queue.push(done)
      return done
    }
    async drain() {
      for (let index = 0; index < this._queue.length; index++) await this._queue[index]
      if (this._test.children.length) out(pad(this._test.depth + 1) + '1..' + this._test.children.length + '\n')
    }
  }
  TestContext.prototype.assert = internals.assert

  function report(test, number, duration) {
    const indent = pad(test.depth)
    if (test.kind === 'suite' && test.children.length) out(pad(test.depth + 1) + '1..' + test.children.length + '\n')
    let directive = ''
    if (test.skip) directive = ' # SKIP' + (typeof test.skip === 'string' ? ' ' + test.skip : '')
    else if (test.todo) directive = ' # TODO' + (typeof test.todo === 'string' ? ' ' + test.todo : '')
    // A failing todo test is not a failure, as in Node.
    test.failed = !!test.error && !test.todo
    if (test.kind === 'test' || test.kind === 'suite') {
      if (test.skip) counts.skipped++
      else if (test.todo) counts.todo++
      else if (test.kind === 'test' && test.failed) counts.fail++
      else if (test.kind === 'test') counts.pass++
    }
    if (test.failed) failedAny = true
    out(indent + (test.error ? 'not ok ' : 'ok ') + number + ' - ' + test.name + directive + '\n')
    out(indent + '  ---\n')
    out(indent + '  duration_ms: ' + Number(duration.toFixed(6)) + '\n')
    if (test.kind === 'suite') out(indent + "  type: 'suite'\n")
    if (test.error) {
      const error = test.error
      if (test.location) out(yamlField(test.depth, 'location', test.location))
      out(yamlField(test.depth, 'failureType', test.failureType))
      const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : inspect(error)
      out(yamlField(test.depth, 'error', message))
      out(yamlField(test.depth, 'code', error && error.code ? error.code : 'ERR_TEST_FAILURE'))
      if (error && error.name === 'AssertionError') {
        out(yamlField(test.depth, 'name', 'AssertionError'))
        for (const key of ['expected', 'actual', 'operator']) if (key in error) out(yamlField(test.depth, key, error[key]))
      }
      const stack = test.failureType === 'subtestsFailed' ? '' : stackOf(error)
      if (stack) out(yamlField(test.depth, 'stack', stack + (stack.includes('\n') ? '' : '\n')))
    }
    out(indent + '  ...\n')
    if (test.diagnostics) for (const line of test.diagnostics) out(indent + '# ' + line + '\n')
    if (test.depth === 0) reported++
  }

  // The summary, once the event loop has nothing else to do (tests may be declared late, in a timer).
  atLoopEnd(() => {
    if (!scheduled || counts.reported) return false
    counts.reported = true
    // Still running with nothing left to wait for: a promise that never settles. Node fails the run too.
    if (!finished) {
      counts.cancelled++
      failedAny = true
      out('# a test never finished: it waits on a promise that nothing settles\n')
    }
    out('1..' + reported + '\n')
    out('# tests ' + counts.tests + '\n')
    out('# suites ' + counts.suites + '\n')
    out('# pass ' + counts.pass + '\n')
    out('# fail ' + counts.fail + '\n')
    out('# cancelled ' + counts.cancelled + '\n')
    out('# skipped ' + counts.skipped + '\n')
    out('# todo ' + counts.todo + '\n')
    out('# duration_ms ' + Number((now() - started).toFixed(6)) + '\n')
    if (failedAny) process.exitCode = 1
    return false
  })

  const hook = (kind) => (fn) => {
    current.hooks[kind].push(fn)
  }
  function test(...args) {
    return declare('test', args)
  }
  test.skip = (...args) => declare('test', args, { skip: true })
  test.todo = (...args) => declare('test', args, { todo: true })
  test.only = (...args) => declare('test', args, { only: true })
  function describe(...args) {
    return declare('suite', args)
  }
  describe.skip = (...args) => declare('suite', args, { skip: true })
  describe.todo = (...args) => declare('suite', args, { todo: true })
  describe.only = (...args) => declare('suite', args, { only: true })
  const mock = {
    fn(implementation = () => {}) {
      const calls = []
      const mocked = function (...args) {
        let result
        let error
        try {
          result = implementation.apply(this, args)
        } catch (e) {
          error = e
        }
        calls.push({ arguments: args, result, error, this: this })
        if (error) throw error
        return result
      }
      mocked.mock = { calls, callCount: () => calls.length, resetCalls: () => (calls.length = 0) }
      return mocked
    },
  }
  Object.assign(test, {
    test,
    describe,
    it: test,
    suite: describe,
    before: hook('before'),
    after: hook('after'),
    beforeEach: hook('beforeEach'),
    afterEach: hook('afterEach'),
    mock,
  })
  test.default = test
  defineBuiltin('test', () => test)
})(globalThis.__nodeInternals)
