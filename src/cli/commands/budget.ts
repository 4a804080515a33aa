/** `muster budget set|list|remove|release`: budgets that hold an over-budget session's tool calls for the operator. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `budget` command and its subcommands. */
export function registerBudget(program: Command, io: CliIo): void {
  const actions = () => import('../actions/budget')
  const budget = program
    .command('budget')
    .description('budgets in tokens or estimated dollars: past one, every tool call of the sessions it covers waits for you')
  lazySubcommands(budget, (budget) => {
    budget
      .command('set')
      .description('set the budget of a session, an agent (today), a project (today) or the fleet (today); signed with your key')
      .option('--session <id>', 'one session (all of it)')
      .option('--agent <id>', 'one agent, today')
      .option('--project <name>', 'one project, today')
      .option('--day', 'the whole fleet, today')
      .option('--tokens <n>', 'the limit in tokens (input, output and cache, all counted)')
      .option('--usd <x>', 'the limit in estimated US dollars')
      .action(lazyAction(io, actions, 'set'))
    budget
      .command('list')
      .description('every budget with what it counts now and the sessions it holds')
      .action(lazyAction(io, actions, 'list'))
    budget
      .command('remove')
      .description('remove a budget (the calls it held that an allowlist rule allows run)')
      .argument('<id>', 'the budget’s number (muster budget list)')
      .action(lazyAction(io, actions, 'remove'))
    budget
      .command('release')
      .description('let one session go on past a budget (until the budget changes)')
      .argument('<id>', 'the budget’s number')
      .requiredOption('--session <id>', 'the session')
      .action(lazyAction(io, actions, 'release'))
  })
}
