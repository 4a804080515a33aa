#!/usr/bin/env node
// The `muster` command: runs the bundled CLI (built by `npm run build`). CommonJS, so that a call
// answered here never starts the ES module loader (its asynchronous reads cost ~10 ms of every run).
// A hook call (`muster [--home D] [--palace P] approve-hook ...`, not `install`, not `--help`) goes
// straight to its own small CommonJS entry, and a `muster status` call is first offered to its own
// (answered from the status snapshot): agents run both on every tool call. A lifecycle hook call
// (`session-hook`, on every prompt) goes to its own CommonJS entry.
// Run directly, it handles its own argv; the gate launcher a harness runs (`<home>/bin/muster-gate.cjs`,
// src/core/approvals/gate-launcher.ts) requires it and calls `main` with a `fault` that answers
// "blocked" in the harness's format when this build cannot run the call.
'use strict'
const { existsSync } = require('node:fs')
const { join } = require('node:path')

const OUT = join(__dirname, '..', 'out', 'cli')

/**
 * V8's compile cache for the bundles loaded after this point: a warm run deserialises their code
 * instead of parsing and compiling it again (Node keeps one cache per Node version under the
 * folder and checks each file's contents). The folder is the user's cache (MUSTER_COMPILE_CACHE
 * names another; `0` turns it off; NODE_COMPILE_CACHE, when set, wins). An unwritable or missing
 * home only costs the speed: enableCompileCache reports failure instead of throwing.
 */
function enableCompileCache(env) {
  const { enableCompileCache: enable } = require('node:module')
  if (!enable || env.MUSTER_COMPILE_CACHE === '0') return
  let dir = env.MUSTER_COMPILE_CACHE
  if (!dir) {
    // os.homedir() is $HOME on POSIX when set: read it without loading node:os
    const home = (process.platform !== 'win32' && env.HOME) || require('node:os').homedir()
    const base =
      process.platform === 'win32'
        ? env.LOCALAPPDATA || join(home, 'AppData', 'Local')
        : process.platform === 'darwin'
          ? join(home, 'Library', 'Caches')
          : env.XDG_CACHE_HOME || join(home, '.cache')
    dir = join(base, 'muster', 'v8-compile-cache')
  }
  try {
    enable(dir)
  } catch {
    // an unusable folder: run uncached
  }
}
// Installed with the desktop app (resources/cli), the CLI has no node_modules: its SQLite addon is
// in native/, one build per supported Node line (scripts/prepare-electron-native.mjs --cli).
const NATIVE = join(__dirname, '..', 'native')

/** Index in argv of the first word that is not a global option (`--home D`, `--palace P`, `--json`, `--home=D`). */
function commandAt(args) {
  let i = 0
  for (;;) {
    const a = args[i]
    if (a === '--home' || a === '--palace') i += 2
    else if (a === '--json' || a?.startsWith('--home=') || a?.startsWith('--palace=')) i += 1
    else return i
  }
}

/** True when argv is a hook call: global options, then `approve-hook` without a subcommand or help. */
function isHookCall(args) {
  const i = commandAt(args)
  return args[i] === 'approve-hook' && args[i + 1] !== 'install' && !args.includes('--help') && !args.includes('-h')
}

/** True when argv is a lifecycle hook call: `session-hook` without `install` or help. */
function isSessionHookCall(args) {
  const i = commandAt(args)
  return args[i] === 'session-hook' && args[i + 1] !== 'install' && !args.includes('--help') && !args.includes('-h')
}

/**
 * The Node.js lines Muster runs on: package.json's `engines` (^22.12.0 || ^24.0.0), kept in step by
 * test/node-lines.test.ts. Another Node gets one line saying which Node it is and what to do, not
 * an error from deep inside a module built for another one.
 */
const SUPPORTED_NODE = [
  [22, 12],
  [24, 0]
]

/** The line and the fix for an unsupported Node, or null when this Node is supported. */
function unsupportedNode(version, execPath, installed) {
  const [major, minor] = version.slice(1).split('.').map(Number)
  if (SUPPORTED_NODE.some(([M, m]) => major === M && minor >= m)) return null
  return (
    `muster: Muster runs on Node.js 22 (22.12 or later) or 24; this is Node.js ${version} (${execPath})\n` +
    (installed
      ? '  install Node.js 22 or 24 and put it first on PATH\n'
      : '  install Node.js 22 or 24 (e.g. nvm install 22), then in this checkout run: npm rebuild better-sqlite3\n')
  )
}

/** Exits once what was written to stdout and stderr has reached them (pipes are asynchronous on Windows). */
function exitWhenFlushed() {
  let left = 2
  const done = () => --left || process.exit()
  process.stdout.write('', done)
  process.stderr.write('', done)
}

/** Stops a call this build cannot run: one line on stderr, exit 1. */
function stop(message) {
  process.stderr.write(`muster: ${message}\n`)
  process.exit(1)
}

/**
 * Runs one `muster` call (`args`: the words after `muster`). `gate.fault(why)` (the gate launcher's)
 * is called instead of `stop` when this build cannot run the call.
 */
function main(args, gate = { fault: stop }) {
  // hook calls answer their harness in its own format whatever happens; everything else says first
  // when it runs on a Node it does not support
  const wrongNode =
    isHookCall(args) || isSessionHookCall(args) ? null : unsupportedNode(process.version, process.execPath, existsSync(NATIVE))
  if (wrongNode) {
    process.stderr.write(wrongNode)
    process.exit(1)
  }
  enableCompileCache(process.env)
  if (!process.env.MUSTER_SQLITE_BINDING && existsSync(NATIVE)) {
    const addon = join(NATIVE, `node-v${process.versions.modules}-${process.platform}-${process.arch}`, 'better_sqlite3.node')
    if (!existsSync(addon))
      return gate.fault(`this command line runs on Node.js 22 or 24 (LTS); ${process.execPath} is Node.js ${process.version}`)
    process.env.MUSTER_SQLITE_BINDING = addon
  }
  if (!existsSync(join(OUT, 'muster.cjs'))) return gate.fault('the CLI is not built yet; run `npm run build` (or `npm install`) first')
  if (args[commandAt(args)] === 'status' && require(join(OUT, 'status.cjs')).answerFromSnapshot(args)) {
    // answered (stdout written synchronously): exit now, not after V8's background compiler has
    // finished optimising code that will not run again (Node waits for it before a natural exit)
    process.exit(0)
  }
  if (isSessionHookCall(args)) {
    // the lifecycle hook: hands its append to a detached worker and exits 0 (never fails a turn)
    require(join(OUT, 'session-hook.cjs')).main(args)
    process.exit(0)
  }
  const at = commandAt(args)
  /**
   * The whole CLI, for a call no fast path answers: the command tree is one CommonJS file (commander
   * and every command's definition); the command's action, an ES module, is imported when it runs.
   */
  const cli = () => require(join(OUT, 'muster.cjs'))
  if (isHookCall(args)) {
    // a call an allowlist rule allows is answered from the rules' signed mirror, without SQLite
    // (out/cli/approve-fast.cjs); any other goes the full way with the stdin already read
    let fast
    try {
      fast = require(join(OUT, 'approve-fast.cjs')).answerAllowlisted(args)
    } catch {
      fast = { answered: false, stdin: null }
    }
    // answered: written with blocking writes already, so exit (with the hook's code) without
    // setting up stdout and stderr, and not after V8's background compiler has finished
    if (fast.answered) process.exit(fast.exitCode)
    else require(join(OUT, 'approve-hook.cjs')).runHook(args, fast.stdin).then(exitWhenFlushed)
  } else if (args[at] === 'patch' && args[at + 1] === 'verify')
    // scripts and hooks verify patches often: a plain call is answered by its own CommonJS entry
    require(join(OUT, 'patch-verify.cjs'))
      .answerVerify(args)
      .then((code) => {
        if (code === null) return cli()
        // written with blocking writes (no stream set up): exit now; on Windows, where a stream to a
        // pipe is asynchronous, after anything else written through one has reached it
        if (process.platform !== 'win32') process.exit(code)
        process.exitCode = code
        exitWhenFlushed()
      })
  else cli()
}

module.exports = { main }
if (require.main === module) main(process.argv.slice(2))
