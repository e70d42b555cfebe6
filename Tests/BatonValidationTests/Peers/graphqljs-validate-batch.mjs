#!/usr/bin/env node
// graphqljs-validate-batch.mjs — many runs of the shared graphqljs-validate.mjs in one node process.
//
// usage: node graphqljs-validate-batch.mjs COMMON_MJS JOBS_JSON
//   COMMON_MJS  the shared tools' graphqljs-common.mjs (graphql-js is loaded as the shared tool loads it)
//   JOBS_JSON   a file holding [{"schema": PATH, "paths": [DOC_OR_DIR...], "merge": BOOL, "assumeValidSDL": BOOL}]
// Each job is what `graphqljs-validate.mjs --no-rules [--merge] [--assume-valid-sdl] SCHEMA DOC_OR_DIR...` does, with
// the same graphql-js calls in the same order; a schema is parsed, built and validated once per (path,
// assumeValidSDL) and reused by every job against it (a built GraphQLSchema is immutable; validate() only reads it).
// Output: the shared tool's JSON error lines, each with "job": INDEX, then {"job": INDEX, "status": S} with the
// tool's exit status (0 no errors, 1 errors, 2 schema failure). The differential tests started node once per
// project before (issue 28: the schema's parse and build were most of each run).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const [commonPath, jobsPath] = process.argv.slice(2);
if (!commonPath || !jobsPath) {
  console.error('usage: graphqljs-validate-batch.mjs COMMON_MJS JOBS_JSON');
  process.exit(2);
}
const { loadGraphQL, expandPaths, isIntrospectionJSON, introspectionData } = await import(pathToFileURL(commonPath).href);
const G = await loadGraphQL();
const { Source, parse, buildASTSchema, buildClientSchema, validate, specifiedRules, assertValidSchema, Kind } = G;
const jobs = JSON.parse(fs.readFileSync(jobsPath, 'utf8'));

// A schema's outcome: { schema } or { errors: [lines] } (the shared tool's lines for a schema failure).
const schemas = new Map();
function schemaFor(schemaPath, assumeValidSDL) {
  const key = JSON.stringify([schemaPath, assumeValidSDL]);
  if (schemas.has(key)) return schemas.get(key);
  let outcome;
  const schemaText = fs.readFileSync(schemaPath, 'utf8');
  try {
    let schema;
    if (isIntrospectionJSON(schemaPath, schemaText)) {
      schema = buildClientSchema(introspectionData(JSON.parse(schemaText)));
    } else {
      schema = buildASTSchema(parse(new Source(schemaText, schemaPath), { noLocation: false }), { assumeValidSDL });
    }
    assertValidSchema(schema);
    outcome = { schema };
  } catch (e) {
    const errs = e.errors || (Array.isArray(e) ? e : [e]);
    outcome = {
      errors: errs.map((err) => {
        const loc = err.locations && err.locations[0];
        return { file: schemaPath, line: loc ? loc.line : null, column: loc ? loc.column : null, message: String(err.message).split('\n')[0], rule: err.locations ? 'syntax' : 'schema' };
      }),
    };
  }
  schemas.set(key, outcome);
  return outcome;
}

const out = [];
const emit = (o) => out.push(JSON.stringify(o));
jobs.forEach((job, index) => {
  const tagged = (o) => emit({ job: index, ...o });
  const outcome = schemaFor(job.schema, !!job.assumeValidSDL);
  if (outcome.errors) {
    outcome.errors.forEach(tagged);
    emit({ job: index, status: 2 });
    return;
  }
  const { schema } = outcome;
  let errorCount = 0;
  const docs = [];
  for (const f of expandPaths(job.paths)) {
    const text = fs.readFileSync(f, 'utf8');
    try {
      docs.push({ file: f, doc: parse(new Source(text, f)) });
    } catch (e) {
      const loc = e.locations && e.locations[0];
      tagged({ file: f, line: loc ? loc.line : null, column: loc ? loc.column : null, message: e.message, rule: 'syntax' });
      errorCount++;
    }
  }
  const units = job.merge
    ? (docs.length ? [{ file: null, doc: { kind: Kind.DOCUMENT, definitions: docs.flatMap((d) => d.doc.definitions) } }] : [])
    : docs;
  for (const u of units) {
    for (const e of validate(schema, u.doc, specifiedRules)) {
      const node = e.nodes && e.nodes[0];
      const file = (node && node.loc && node.loc.source && node.loc.source.name) || (e.source && e.source.name) || u.file;
      const loc = e.locations && e.locations[0];
      tagged({ file, line: loc ? loc.line : null, column: loc ? loc.column : null, message: e.message, rule: null });
      errorCount++;
    }
  }
  emit({ job: index, status: errorCount ? 1 : 0 });
});
process.stdout.write(out.join('\n') + '\n');
