#!/usr/bin/env node
// graphqljs-print-sorted.mjs — what `baton fetch-schema` must write, as graphql-js 16 writes it.
//
// usage: node graphqljs-print-sorted.mjs OUTDIR SCHEMA...   (SDL, or introspection JSON)
// For schema number N: the schema is built (SDL without validation), its introspection
// (introspectionFromSchema, every option on) is written to OUTDIR/N.json as {"data": …}, and
// print(parse(printSchema(lexicographicSortSchema(buildClientSchema(introspection))))) to OUTDIR/N.graphql.
// Output: one JSON line per schema: {"file","json","sdl"} or {"file","error"}.
// Exit status: 0, or 2 when graphql-js cannot be loaded.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const roots = [process.env.GRAPHQL_JS_PATH, '/usr/share/nodejs/graphql', '/usr/lib/nodejs/graphql'].filter(Boolean);
let G;
for (const root of roots) {
  try {
    G = await import(pathToFileURL(path.join(root, 'index.mjs')).href);
    break;
  } catch { /* next */ }
}
if (!G) { console.error('graphql-js not found (install node-graphql or set GRAPHQL_JS_PATH)'); process.exit(2); }

const [outdir, ...files] = process.argv.slice(2);
files.forEach((file, index) => {
  try {
    const text = fs.readFileSync(file, 'utf8');
    let schema;
    if (file.endsWith('.json')) {
      const json = JSON.parse(text);
      schema = G.buildClientSchema(json.data ?? json);
    } else {
      schema = G.buildSchema(text, { assumeValidSDL: true, assumeValid: true });
    }
    const introspection = G.introspectionFromSchema(schema, {
      descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true,
      inputValueDeprecation: true,
    });
    const sorted = G.lexicographicSortSchema(G.buildClientSchema(introspection, { assumeValid: true }));
    const sdl = G.print(G.parse(G.printSchema(sorted)));
    const json = path.join(outdir, `${index}.json`);
    const out = path.join(outdir, `${index}.graphql`);
    fs.writeFileSync(json, JSON.stringify({ data: introspection }));
    fs.writeFileSync(out, sdl);
    console.log(JSON.stringify({ file, json, sdl: out }));
  } catch (error) {
    console.log(JSON.stringify({ file, error: String(error && error.message || error) }));
  }
});
