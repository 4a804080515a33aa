/**
 * One big role file (250 KB, 10 KB lines): the L0 line and the full parse. These were timed unit
 * tests that flaked under load; the bench reports them beside their budget instead (spec: role
 * files up to 250 KB, 10 KB lines).
 */
import { parseL0 } from '../src/core/muse/l0'
import { parseRole } from '../src/core/muse/parse-role'
import { bigRoleText } from '../test/helpers/big-role-file'
import { median, type Figure } from './report'

/** Every run's time in ms of `fn`, `runs` times after one warm-up call. */
function timed(fn: () => void, runs: number): number[] {
  fn()
  const ms: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    fn()
    ms.push(performance.now() - t)
  }
  return ms
}

/** Full parse and L0 read of the 250 KB file. */
export function bigFileFigures(): Figure[] {
  const text = bigRoleText()
  const l0Text = `<!-- L0: v1 | ${'x, '.repeat(3000)} -->\n` + 'line\n'.repeat(50_000)
  const parse = timed(() => parseRole('big.md', text), 20)
  const l0 = timed(() => parseL0(l0Text), 100)
  return [
    {
      name: `parseRole of a ${(text.length / 1000).toFixed(0)} KB role file with 10 KB lines`,
      value: median(parse),
      runs: parse,
      unit: 'ms',
      budget: 25,
      note: 'median of 20'
    },
    {
      name: 'parseL0 of a 250 KB file with a 10 KB first line',
      value: median(l0),
      runs: l0,
      unit: 'ms',
      budget: 5,
      note: 'median of 100'
    }
  ]
}
