#!/usr/bin/env node
// graphqljs-schema-errors.mjs — every problem graphql-js finds in one schema, with locations.
//
// usage: node graphqljs-schema-errors.mjs SCHEMA...   (each file is one schema)
//   SDL: the SDL rules (validateSDL, as buildASTSchema runs them); when they find nothing, the
//        schema is built and validateSchema runs. Introspection JSON: buildClientSchema (a throw
//        is one error), then validateSchema.
// Output: one JSON line per error: {"file","line","column","message"} (line/column null without a node).
// Exit status: 0 (errors or not), 2 when graphql-js cannot be loaded.
//
// graphqljs-validate.mjs (the shared tool) reports only the first schema error, without a
// location, because graphql-js throws all of them as one Error; this script calls the same
// functions one level down to get each error with its first node's location.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const roots = [process.env.GRAPHQL_JS_PATH, '/usr/share/nodejs/graphql', '/usr/lib/nodejs/graphql'].filter(Boolean);
let G, V;
for (const root of roots) {
  try {
    G = await import(pathToFileURL(path.join(root, 'index.mjs')).href);
    V = await import(pathToFileURL(path.join(root, 'validation', 'validate.mjs')).href);
    break;
  } catch { /* next */ }
}
if (!G || !V) { console.error('graphql-js not found (install node-graphql or set GRAPHQL_JS_PATH)'); process.exit(2); }

function check(file) {
  const text = fs.readFileSync(file, 'utf8');
  const emit = (e) => {
    const loc = e.locations && e.locations[0];
    process.stdout.write(JSON.stringify({ file, line: loc ? loc.line : null, column: loc ? loc.column : null, message: String(e.message) }) + '\n');
  };
  let schema;
  if (/\.json$/i.test(file) || /^\s*\{/.test(text)) {
    const json = JSON.parse(text);
    try {
      schema = G.buildClientSchema(json.__schema ? json : json.data);
    } catch (e) { emit({ message: e.message }); return; }
  } else {
    let ast;
    try { ast = G.parse(new G.Source(text, file)); } catch (e) { emit(e); return; }
    const sdlErrors = V.validateSDL(ast);
    if (sdlErrors.length) { sdlErrors.forEach(emit); return; }
    schema = G.buildASTSchema(ast, { assumeValidSDL: true });
  }
  G.validateSchema(schema).forEach(emit);
}
for (const file of process.argv.slice(2)) check(file);
