/**
 * Small helpers for writing self-contained HTML pages (the solution viewer, the HTML report).
 */

/** Text escaped for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A value as JSON safe to place inside `<script type="application/json">…</script>`: `<`, `>` and `&`
 * are written as `\u003c`, `\u003e`, `\u0026` (so no `</script>` or `<!--` can appear), and the line
 * separators U+2028/U+2029 escaped too. `JSON.parse` of the element's text gives the value back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
