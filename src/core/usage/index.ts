/**
 * The usage domain's face: tokens and estimated spend read incrementally from each harness's own
 * records (`readers/`, `line-reader.ts`, `scan.ts`) into the state DB (`usage-store.ts`), other
 * machines' sessions through the hubs' usage reports (`report.ts`), the dated price table
 * (`prices.ts`), and the operator's signed budgets with the gate they keep (`budgets.ts`,
 * `gate.ts`, `gate-file.ts`). Code outside src/core/usage imports only this.
 */
export { BudgetStore, budgetLabel, budgetPayload, type BudgetKeys, type CheckedBudget } from './budgets'
export { BudgetGate, holdInfo, pricesOf, type GatedCall } from './gate'
export { GATE_FILE, readGate, writeGate, type GateEntry } from './gate-file'
export { DEFAULT_LIMITS, readUsageFile, type FileRead, type ReadFrom, type ReadLimits } from './line-reader'
export { Prices, SHIPPED_PRICES, type PriceTable } from './prices'
export { USAGE_READERS, usageReaderFor, type FolderEnv, type UsageReader } from './readers'
export { releaseHeldCalls } from './held-calls'
export { recordHookUsage, type HookedUsage, type HookUsageDeps } from './hook-usage'
export { reportAppend, sessionReport } from './report'
export { UsageScanner, recordFileIn, type HookedSession } from './scan'
export { UsageStore, type SourceRow } from './usage-store'
export { UsageService, machineName, type SummaryQuery, type UsageServiceDeps } from './usage-service'
