/** Types for refractor 3's core and language modules (the package ships none). */
declare module 'refractor/core' {
  /** Prism through refractor: hast nodes for `value` highlighted as `language`. */
  const refractor: {
    highlight(value: string, language: string): unknown[]
    register(syntax: unknown): void
    registered(language: string): boolean
  }
  export default refractor
}
declare module 'refractor/lang/*' {
  const syntax: unknown
  export default syntax
}
