import { blankControlCharacters } from './control-characters';
import { runRedactor } from './redact';

/** The longest excerpt of server-supplied text that goes into a message, by default. */
export const EXCERPT_CHARS = 300;

/**
 * Text that came from outside (a server's error message, a cache file) made fit for one
 * line of a message: control and line-separator characters become spaces, blanks are
 * collapsed, and at most `maxChars` characters are kept, the cut said with "… (N more
 * characters)". Runs in time linear in `maxChars`, not in the input: a 30 MB message costs
 * no more than a short one beyond the slice.
 */
export function boundedExcerpt(text: string, maxChars = EXCERPT_CHARS): string {
  // Look at a little more than needed: collapsing blanks may shrink the slice. A secret the
  // server echoed is redacted before anything is cut or folded (a cut through it, or a
  // control character folded inside it, would leave parts no later redaction recognises):
  // one that starts before the slice ends is replaced whole.
  const reach = maxChars * 4;
  const cutAtReach = text.length > reach;
  const clean = blankControlCharacters(runRedactor.cut(text, reach))
    .replace(/\s{2,}/g, ' ')
    .trim();
  if (clean.length <= maxChars && !cutAtReach) return clean;
  // The mark itself is not cut in two.
  const kept = clean
    .slice(0, maxChars)
    .replace(/<(r(e(d(a(c(t(e(d)?)?)?)?)?)?)?)?$/, '')
    .trimEnd();
  // Approximate once redaction changed lengths; exact otherwise.
  const more = Math.max(0, text.length - reach) + (clean.length - kept.length);
  return more > 0 ? `${kept}… (${more} more characters)` : kept;
}

/**
 * What a server said in a short plain-text answer (a proxy's or a cell's "service unavailable:
 * …"): its first line, bounded and made one safe line. Undefined for an empty, long, HTML, XML
 * or JSON body (those are read as documents, or say nothing a person wrote).
 */
export function plainTextLine(body: Buffer, contentType: string, maxChars = 200): string | undefined {
  if (body.length === 0 || body.length > 65536) return undefined;
  const text = body.toString('utf8').trim();
  if (/html/i.test(contentType) || text.startsWith('<') || text.startsWith('{')) return undefined;
  return boundedExcerpt(text.split('\n', 1)[0].trim(), maxChars) || undefined;
}

/**
 * The words of a short HTML page (what a load balancer answers for a server that is down:
 * "503 Service Unavailable … no healthy vCD cell"), tags, scripts and styles left out, on one
 * bounded line; undefined for a large or empty one.
 */
export function htmlTextLine(body: Buffer, maxChars = 200): string | undefined {
  if (body.length === 0 || body.length > 65536) return undefined;
  const text = body
    .toString('utf8')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return boundedExcerpt(text, maxChars) || undefined;
}

/** At most `max` characters, cut after a whole word and marked with …. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/**
 * At most `max` characters, the middle left out at word boundaries: messages that say what
 * failed first and what to do about it last ("container runtime network not ready: … No CNI
 * configuration file in /etc/kubernetes/cni/net.d/") keep both ends.
 */
export function elideMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const headRoom = Math.floor(max * 0.3);
  const tailRoom = max - headRoom - 3;
  const head = text.slice(0, headRoom);
  const headSpace = head.lastIndexOf(' ');
  const tail = text.slice(text.length - tailRoom);
  const tailSpace = tail.indexOf(' ');
  const kept = (headSpace > headRoom / 2 ? head.slice(0, headSpace) : head).replace(/[\s,;:]+$/, '');
  const end = tailSpace >= 0 && tailSpace < tailRoom / 2 ? tail.slice(tailSpace + 1) : tail;
  return `${kept} … ${end}`;
}
