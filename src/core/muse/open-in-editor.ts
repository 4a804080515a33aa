/**
 * Opens a role file in the operator's editor. The command comes from `$MUSTER_EDITOR`, `$VISUAL`
 * or `$EDITOR`; known GUI editors get a `file:line` jump. Without one, the platform opener
 * (`xdg-open`, `open`, `start`) opens the file. Never through a shell: the command is split into
 * words and the file is one argument, so odd file names cannot inject anything.
 */
import { spawn } from 'node:child_process'
import { basename } from 'node:path'
import { ApiError } from '../../shared/api-error'

/** A resolved command line to run. */
export interface EditorCommand {
  command: string
  args: string[]
}

const GOTO_STYLE: Record<string, (file: string, line: number) => string[]> = {
  code: (f, l) => ['-g', `${f}:${l}`],
  'code-insiders': (f, l) => ['-g', `${f}:${l}`],
  cursor: (f, l) => ['-g', `${f}:${l}`],
  codium: (f, l) => ['-g', `${f}:${l}`],
  windsurf: (f, l) => ['-g', `${f}:${l}`],
  subl: (f, l) => [`${f}:${l}`],
  zed: (f, l) => [`${f}:${l}`],
  idea: (f, l) => ['--line', String(l), f],
  webstorm: (f, l) => ['--line', String(l), f],
  mate: (f, l) => ['-l', String(l), f]
}

/** Terminal editors cannot open from a GUI or a server without a terminal: they are refused. */
const TERMINAL_EDITORS = new Set(['vi', 'vim', 'nvim', 'nano', 'emacs', 'micro', 'hx', 'helix', 'kak', 'ed'])

/** Splits a command line on spaces, honouring simple double or single quotes. */
export function splitCommand(text: string): string[] {
  const out: string[] = []
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]!)
  return out
}

/** The command that opens `file` at `line`, given the environment and platform. */
export function editorCommand(file: string, line: number, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): EditorCommand {
  const configured = env.MUSTER_EDITOR || env.VISUAL || env.EDITOR
  if (configured) {
    const [command, ...rest] = splitCommand(configured)
    if (command) {
      const name = basename(command)
        .replace(/\.(exe|cmd|bat)$/i, '')
        .toLowerCase()
      if (TERMINAL_EDITORS.has(name)) {
        throw new ApiError(
          `your editor (${name}) runs in a terminal; set MUSTER_EDITOR to a GUI editor such as "code" to open files from Muster`,
          'invalid_input'
        )
      }
      const jump = GOTO_STYLE[name]
      return { command, args: [...rest, ...(jump ? jump(file, Math.max(1, line)) : [file])] }
    }
  }
  if (platform === 'darwin') return { command: 'open', args: [file] }
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', file] }
  return { command: 'xdg-open', args: [file] }
}

/** Starts the editor detached; resolves once it spawned, rejects with a clear error otherwise. */
export function launchEditor(cmd: EditorCommand): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, { detached: true, stdio: 'ignore', shell: false })
    child.once('error', (err) => reject(new ApiError(`cannot start editor '${cmd.command}': ${err.message}`, 'internal')))
    child.once('spawn', () => {
      child.unref()
      resolve()
    })
  })
}
