/** Muster's version, reported by `app.info` and `muster --version`. Keep in step with package.json. */
export const MUSTER_VERSION = '0.1.0'
