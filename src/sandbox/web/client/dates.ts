/** Slack's `<!date^seconds^format|fallback>` tokens and date elements, in the reader's time zone. */
import { has } from './dom.js'

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const DAY_MS = 864e5

function ordinal(n: number): string {
  const suffixes = ['th', 'st', 'nd', 'rd']
  const v = n % 100
  return n + (suffixes[(v - 20) % 10] ?? suffixes[v] ?? suffixes[0]!)
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()
}

function pretty(d: Date, otherwise: string): string {
  const now = new Date()
  if (sameDay(d, now)) return 'Today'
  if (sameDay(d, new Date(now.getTime() - DAY_MS))) return 'Yesterday'
  if (sameDay(d, new Date(now.getTime() + DAY_MS))) return 'Tomorrow'
  return otherwise
}

export function clockTime(d: Date, seconds: boolean): string {
  return d.toLocaleTimeString('en-US', seconds ? { hour: 'numeric', minute: '2-digit', second: '2-digit' } : { hour: 'numeric', minute: '2-digit' })
}

function agoText(d: Date): string {
  const s = Math.round((Date.now() - d.getTime()) / 1000)
  const n = Math.abs(s)
  const [count, unit] = n < 60 ? [n, 'second'] : n < 3600 ? [Math.round(n / 60), 'minute'] : n < 86400 ? [Math.round(n / 3600), 'hour'] : [Math.round(n / 86400), 'day']
  const text = `${count} ${unit}${count === 1 ? '' : 's'}`
  return s < 0 ? `in ${text}` : `${text} ago`
}

/** The date in Slack's `format` (`{date_pretty} at {time}`…), or null for a timestamp that is not one. */
export function slackDate(seconds: number, format: string): string | null {
  const d = new Date(seconds * 1000)
  if (!Number.isFinite(seconds) || Number.isNaN(d.getTime())) return null
  const pad = (n: number): string => String(n).padStart(2, '0')
  const month = MONTHS[d.getMonth()]!
  const short = `${month.slice(0, 3)} ${d.getDate()}, ${d.getFullYear()}`
  const plain = `${month} ${ordinal(d.getDate())}, ${d.getFullYear()}`
  const long = `${DAYS[d.getDay()]!}, ${plain}`
  const tokens: Record<string, string> = {
    date_num: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    date: plain,
    date_short: short,
    date_long: long,
    date_pretty: pretty(d, plain),
    date_short_pretty: pretty(d, short),
    date_long_pretty: pretty(d, long),
    time: clockTime(d, false),
    time_secs: clockTime(d, true),
    ago: agoText(d),
  }
  return format.replace(/\{(\w+)\}/g, (whole, key: string) => (has(tokens, key) ? tokens[key]! : whole))
}
