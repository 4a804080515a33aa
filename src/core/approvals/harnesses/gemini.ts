/**
 * Gemini CLI (`~/.gemini/settings.json`, hook `BeforeTool`; Qwen Code follows it). Input: the
 * base fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`) plus
 * `tool_name`, `tool_input`. Output: top-level `decision` allow / deny / ask with `reason` (sent
 * to the model on deny). Exit 2 blocks the tool with stderr as the reason; any other failure is
 * only a warning, so Muster never exits 1 on a Gemini payload.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { exitTwo, HookInputError, line, needText, optText, toolInputOf, type HarnessAdapter } from './types'

/** Gemini CLI. */
export const gemini: HarnessAdapter = {
  id: Harness.gemini,
  recognizes: (o) => o.hook_event_name === 'BeforeTool',
  parse: (o) => {
    if (o.hook_event_name !== 'BeforeTool')
      throw new HookInputError(`unsupported Gemini CLI hook '${String(o.hook_event_name)}' (approve-hook answers BeforeTool)`)
    return {
      harness: Harness.gemini,
      event: 'BeforeTool',
      tool_name: needText(o, 'tool_name'),
      tool_input: toolInputOf(o.tool_input ?? null, 'tool_input'),
      session_id: optText(o, 'session_id'),
      cwd: optText(o, 'cwd'),
      tool_use_id: null,
      transcript_path: optText(o, 'transcript_path'),
      suggestions: null
    }
  },
  answer: (_call, verdict, reason) => ({ stdout: line({ decision: verdict, reason }), exitCode: 0 }),
  refuse: (reason) => exitTwo(reason)
}
