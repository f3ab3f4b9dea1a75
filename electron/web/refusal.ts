/** The page shown instead of the app when a request is refused: says why, shows nothing else. */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `body` may hold trusted markup (our own wording); `title` is escaped. */
export function refusalPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kubedrift — ${escapeHtml(title)}</title>
<meta name="color-scheme" content="light dark">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:Canvas;color:CanvasText}
main{max-width:34rem;padding:2rem;border:1px solid color-mix(in srgb,CanvasText 20%,transparent);border-radius:12px}
h1{font-size:1.2rem;margin:0 0 .5rem}code{font-size:.9em}
</style></head>
<body><main data-refusal><h1>${escapeHtml(title)}</h1><p>${body}</p></main></body></html>`;
}
