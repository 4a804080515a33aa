/** Runs the CLI in process, as a test drives it. */
import { runCli } from '../../src/cli/index'

/** What a CLI run printed, and its exit code. */
export interface CliRun {
  code: number
  out: string
  err: string
}

/** Runs `muster ARGS --home HOME` in process: exit code and everything it printed. */
export function runCliIn(home: string, ...args: string[]): Promise<CliRun> {
  return runCliWith(home, { env: {}, cwd: process.cwd() }, ...args)
}

/** Runs `muster ARGS --home HOME` in process as a user whose HOME and working folder are HOME (`~/tok` names HOME/tok). */
export function runCliAtHome(home: string, ...args: string[]): Promise<CliRun> {
  return runCliWith(home, { env: { HOME: home }, cwd: home }, ...args)
}

/** Runs `muster ARGS --home HOME` in process with this environment and working folder. */
export async function runCliWith(home: string, io: { env: NodeJS.ProcessEnv; cwd: string }, ...args: string[]): Promise<CliRun> {
  let out = ''
  let err = ''
  const code = await runCli([...args, '--home', home], { stdout: (t) => (out += t), stderr: (t) => (err += t), ...io })
  return { code, out, err }
}

/** The arguments of `muster events append` of a `note` (stream `s`, room `r`) to hub HUB from FROM, then EXTRA. */
export function noteAppendArgs(hub: string, from: string, ...extra: string[]): string[] {
  return ['events', 'append', '--hub', hub, '--type', 'note', '--stream', 's', '--room', 'r', '--from-agent', from, ...extra]
}

/** The arguments of `muster notes write` of a note of TYPE with CONTENT by AGENT in PROJECT, then EXTRA. */
export function notesWriteArgs(project: string, agent: string, type: string, content: string, ...extra: string[]): string[] {
  return ['notes', 'write', '--project', project, '--agent', agent, '--type', type, '--content', content, ...extra]
}
