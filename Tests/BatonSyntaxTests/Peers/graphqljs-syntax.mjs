#!/usr/bin/env node
// graphqljs-syntax.mjs: the graphql-js side of BatonSyntaxTests' differential tests.
//
// usage: node graphqljs-syntax.mjs < requests.json
// Input: a JSON array of {"text": "...", "mode": "parse" | "print" | "parseValue" | "parseType"}
//   or {"path": "...", "mode": ...} to read a UTF-8 file.
// Output: a JSON array, one entry per request:
//   {"ok": true, "printed": "..."} (printed only in "print" mode), or
//   {"ok": true, "nodes": ["Kind start end value?", ...]} in "nodes" mode: every AST node with its
//     loc (UTF-16 offsets) and, for names and scalar values, its value as JSON; sorted, or
//   {"ok": false, "message": "...", "line": L, "column": C} for a GraphQLError, or
//   {"ok": false, "crash": "..."} for anything else (e.g. a stack overflow).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

async function loadGraphQL() {
  const candidates = [];
  if (process.env.GRAPHQL_JS_PATH) candidates.push(process.env.GRAPHQL_JS_PATH);
  candidates.push('graphql', '/usr/share/nodejs/graphql/index.mjs', '/usr/lib/nodejs/graphql/index.mjs');
  for (const c of candidates) {
    try {
      const spec = c.startsWith('/') ? pathToFileURL(fs.statSync(c).isDirectory() ? path.join(c, 'index.mjs') : c).href : c;
      return await import(spec);
    } catch { /* try the next */ }
  }
  console.error('graphql-js not found');
  process.exit(3);
}

const G = await loadGraphQL();
const requests = JSON.parse(fs.readFileSync(0, 'utf8'));
const results = requests.map((request) => {
  const text = request.path !== undefined ? fs.readFileSync(request.path, 'utf8') : request.text;
  try {
    switch (request.mode) {
      case 'print': return { ok: true, printed: G.print(G.parse(text)) };
      case 'nodes': {
        const nodes = [];
        G.visit(G.parse(text), {
          enter(node) {
            const value = typeof node.value === 'string' || typeof node.value === 'boolean' ? ' ' + JSON.stringify(node.value) : '';
            nodes.push(`${node.kind} ${node.loc.start} ${node.loc.end}${value}`);
          },
        });
        return { ok: true, nodes: nodes.sort() };
      }
      case 'parseValue': G.parseValue(text); return { ok: true };
      case 'parseConstValue': G.parseConstValue(text); return { ok: true };
      case 'parseType': G.parseType(text); return { ok: true };
      default: G.parse(text); return { ok: true };
    }
  } catch (error) {
    if (error instanceof G.GraphQLError && error.locations && error.locations.length) {
      return { ok: false, message: error.message, line: error.locations[0].line, column: error.locations[0].column };
    }
    return { ok: false, crash: String(error) };
  }
});
process.stdout.write(JSON.stringify(results));
