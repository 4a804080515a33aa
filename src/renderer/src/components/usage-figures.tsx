/**
 * How usage figures read on screen (the Overview's usage panel, the session rows, the Usage
 * screen): tokens in full, and every dollar figure as an estimate, `~$0.44`, titled with the price
 * table's date. Tokens of a model the table does not know are counted and flagged ("58,000 tokens
 * not priced"), never priced as 0; a figure with no price at all reads "not priced".
 */
import { Flag } from 'lucide-react'
import type { PriceTableInfo, Spend } from '../../../shared/api'
import { fullTokens, shortTokens, usd } from '../../../shared/usage/format'

/** A token count in words: `1 token`, `58,000 tokens`. */
export function tokensText(n: number): string {
  return `${fullTokens(n)} ${n === 1 ? 'token' : 'tokens'}`
}

/** The words every estimate carries: which table, of which date. */
export function estimateTitle(prices: PriceTableInfo): string {
  const own = prices.overridden.length ? `; your own prices for ${prices.overridden.join(', ')}` : ''
  return `Estimate from Muster's price table of ${prices.date} (v${prices.version})${own}. ${prices.notes}`
}

/** Tokens, in full (`short`: 48.3k) with the word. */
export function TokenCount({ n, short, word = true }: { n: number; short?: boolean; word?: boolean }) {
  const text = short ? shortTokens(n) : fullTokens(n)
  return (
    <span className="usage-tokens" title={short ? `${fullTokens(n)} tokens` : undefined}>
      {text}
      {word && ` ${n === 1 ? 'token' : 'tokens'}`}
    </span>
  )
}

/** The estimate of a spend: `~$0.44`, "not priced" when none of it has a price, a flag for tokens left unpriced. */
export function Estimate({ spend, prices, flag = true }: { spend: Spend; prices: PriceTableInfo; flag?: boolean }) {
  if (spend.total === 0) return <span className="usage-est muted">$0</span>
  const unpriced = `${tokensText(spend.unpriced_tokens)} of ${spend.unpriced_models.join(', ')} not priced (no price known): counted in tokens only`
  if (spend.usd === null)
    return (
      <span className="usage-est usage-unpriced" title={unpriced} data-testid="usage-unpriced">
        not priced
      </span>
    )
  return (
    <span className="usage-est" title={estimateTitle(prices)}>
      ~{usd(spend.usd)}
      {flag && spend.unpriced_tokens > 0 && (
        <span className="usage-flag" role="img" title={unpriced} aria-label={`plus ${unpriced}`} data-testid="usage-unpriced">
          {' '}
          <Flag size={11} aria-hidden />
        </span>
      )}
    </span>
  )
}

/** The line under a usage figure: which prices, and which models went unpriced. */
export function PriceNote({ prices, spend }: { prices: PriceTableInfo; spend: Spend }) {
  return (
    <p className="usage-note muted" data-testid="usage-price-note">
      Dollar figures (~) are estimates from the price table of {prices.date} (v{prices.version}
      {prices.overridden.length ? `, your prices for ${prices.overridden.join(', ')}` : ''}).
      {spend.unpriced_tokens > 0 && (
        <span className="usage-unpriced">
          {' '}
          <Flag size={11} aria-hidden /> Not priced (no price known, counted in tokens only): {spend.unpriced_models.join(', ')},{' '}
          {tokensText(spend.unpriced_tokens)}.
        </span>
      )}
    </p>
  )
}
