// Parses each file named on the command line with Mermaid's own parser and
// prints one JSON line per file: {"file", "ok", "type", "error"}.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

let failed = false;
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  try {
    const r = await mermaid.parse(text);
    console.log(JSON.stringify({ file, ok: true, type: r.diagramType }));
  } catch (e) {
    failed = true;
    console.log(JSON.stringify({ file, ok: false, error: String(e && e.message || e) }));
  }
}
process.exitCode = failed ? 1 : 0;
