/**
 * Muster's state DB migrations, numbered, one per file. Append new ones; never edit an old one.
 */
import { sql as m001 } from './001-projects-settings'
import { sql as m002 } from './002-memory-index'
import { sql as m003 } from './003-hubs'
import { sql as m004 } from './004-hub-kinds'
import { sql as m005 } from './005-role-parse-cache'
import { sql as m006 } from './006-patches'
import { sql as m007 } from './007-approval-rules'
import { sql as m008 } from './008-rule-signatures'
import { sql as m009 } from './009-approval-snoozes'
import { sql as m010 } from './010-memory-file-stamps'
import { sql as m011 } from './011-usage'
import { sql as m012 } from './012-trust-ledger'
import { sql as m013 } from './013-push-devices'

/** Ordered migrations: index + 1 is the schema version they bring the DB to. */
export const migrations: readonly string[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011, m012, m013]
