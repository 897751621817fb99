// DuckDB reads every file parquet_export_fixture exported and compares it with what the Table
// API returned for the same rows (<label>.jsonl, canonical values, see the fixture's header):
// every row exactly, row counts, per column counts, sums, min / max and special float values,
// a filtered query per table, and the statistics parquet_metadata() shows. Then DuckDB imports
// the CSV export of the same rows and writes its own Parquet file (zstd), for the size
// comparison. hyparquet (a JavaScript Parquet reader, installed next to DuckDB) reads every
// chunk's page index (ColumnIndex, OffsetIndex): the page locations must tile the chunk and the
// per-page min / max / null counts must equal what DuckDB computes over the same rows; and a
// filtered read of metrics_snappy through hyparquet must return DuckDB's rows while fetching
// fewer bytes with the page index than without it (pages skipped).
//
//   node duckdb_check.cjs <node_modules dir> <fixture work dir>
'use strict';
const fs = require('fs');
const path = require('path');
const { DuckDBInstance } = require(path.join(process.argv[2], '@duckdb', 'node-api'));
const dir = process.argv[3];
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

let failures = 0;
function check(ok, what) {
  if (!ok) {
    failures++;
    console.log(`  FAIL ${what}`);
  }
  return ok;
}
const q = (name) => '"' + name.replace(/"/g, '""') + '"';
const INTEGER_TYPES = new Set(['int', 'bigint', 'date', 'timestamp', 'timestamp_us']);
const FLOAT_TYPES = new Set(['float', 'double']);
const STRING_TYPES = new Set(['text', 'ascii', 'blob', 'uuid']);

// SQL giving a column's canonical form (floats come back as numbers, canonicalised in JS).
function normalized(name, type) {
  const c = q(name);
  switch (type) {
    case 'int': case 'bigint': return `CAST(${c} AS VARCHAR)`;
    case 'date': return `CAST(${c} - DATE '1970-01-01' AS VARCHAR)`;
    case 'timestamp': return `CAST(epoch_ms(${c}) AS VARCHAR)`;
    case 'timestamp_us': return `CAST(epoch_us(${c}) AS VARCHAR)`;
    case 'uuid': return `CAST(${c} AS VARCHAR)`;
    case 'blob': return `hex(${c})`;
    default: return c;
  }
}
function floatBits(value, type) {
  if (value === null) return null;
  if (Number.isNaN(value)) return 'NaN';
  const view = new DataView(new ArrayBuffer(8));
  if (type === 'float') {
    view.setFloat32(0, value);
    return view.getUint32(0).toString(16).padStart(8, '0');
  }
  view.setFloat64(0, value);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}
function bitsToNumber(bits, type) {
  if (bits === 'NaN') return NaN;
  const view = new DataView(new ArrayBuffer(8));
  if (type === 'float') {
    view.setUint32(0, parseInt(bits, 16));
    return view.getFloat32(0);
  }
  view.setBigUint64(0, BigInt('0x' + bits));
  return view.getFloat64(0);
}
const cmpBytes = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

// Per column of the expected rows: what DuckDB's aggregates must return.
function expectedAggregates(rows, index, type) {
  const values = rows.map((r) => r[index]).filter((v) => v !== null);
  const out = { count: values.length };
  if (INTEGER_TYPES.has(type)) {
    const big = values.map((v) => BigInt(v));
    out.sum = big.reduce((a, b) => a + b, 0n).toString();
    out.min = big.length ? big.reduce((a, b) => (b < a ? b : a)).toString() : null;
    out.max = big.length ? big.reduce((a, b) => (b > a ? b : a)).toString() : null;
  } else if (FLOAT_TYPES.has(type)) {
    const nums = values.map((v) => bitsToNumber(v, type));
    const finite = nums.filter((x) => Number.isFinite(x));
    out.nan = nums.filter((x) => Number.isNaN(x)).length;
    out.pos_inf = nums.filter((x) => x === Infinity).length;
    out.neg_inf = nums.filter((x) => x === -Infinity).length;
    out.neg_zero = nums.filter((x) => Object.is(x, -0)).length;
    out.sum = finite.reduce((a, b) => a + b, 0);
    out.min = finite.length ? Math.min(...finite) : null;
    out.max = finite.length ? Math.max(...finite) : null;
  } else if (STRING_TYPES.has(type)) {
    const sorted = [...values].sort(cmpBytes);
    out.min = sorted.length ? sorted[0] : null;
    out.max = sorted.length ? sorted[sorted.length - 1] : null;
  } else if (type === 'boolean') {
    out.trues = values.filter((v) => v === true).length;
  }
  return out;
}

function aggregateSql(name, type) {
  const c = q(name), n = normalized(name, type);
  const parts = [`count(${c})`];
  if (INTEGER_TYPES.has(type)) {
    const raw = type === 'date' ? `(${c} - DATE '1970-01-01')` : type === 'timestamp' ? `epoch_ms(${c})`
              : type === 'timestamp_us' ? `epoch_us(${c})` : c;
    parts.push(`CAST(sum(${raw}::HUGEINT) AS VARCHAR)`, `CAST(min(${raw}) AS VARCHAR)`,
               `CAST(max(${raw}) AS VARCHAR)`);
  } else if (FLOAT_TYPES.has(type)) {
    parts.push(`count(*) FILTER (WHERE isnan(${c}))`, `count(*) FILTER (WHERE ${c} = 'inf'::${type === 'float' ? 'FLOAT' : 'DOUBLE'})`,
               `count(*) FILTER (WHERE ${c} = '-inf'::${type === 'float' ? 'FLOAT' : 'DOUBLE'})`,
               `count(*) FILTER (WHERE ${c} = 0 AND signbit(${c}))`,
               `sum(${c}::DOUBLE) FILTER (WHERE isfinite(${c}))`, `min(${c}) FILTER (WHERE isfinite(${c}))`,
               `max(${c}) FILTER (WHERE isfinite(${c}))`);
  } else if (STRING_TYPES.has(type)) {
    parts.push(`${type === 'blob' ? 'hex' : type === 'uuid' ? 'CAST' : ''}(min(${c})${type === 'uuid' ? ' AS VARCHAR' : ''})`,
               `${type === 'blob' ? 'hex' : type === 'uuid' ? 'CAST' : ''}(max(${c})${type === 'uuid' ? ' AS VARCHAR' : ''})`);
  } else if (type === 'boolean') {
    parts.push(`count(*) FILTER (WHERE ${c})`);
  }
  void n;
  return parts;
}

function compareAggregates(label, name, type, got, want) {
  const num = (x) => (typeof x === 'bigint' ? Number(x) : x);
  const eq = (a, b, what) => check(a === b, `${label}.${name} ${what}: DuckDB ${a}, Table API ${b}`);
  eq(num(got[0]), want.count, 'count');
  if (INTEGER_TYPES.has(type)) {
    eq(got[1] ?? '0', want.sum, 'sum');
    eq(got[2], want.min, 'min');
    eq(got[3], want.max, 'max');
  } else if (FLOAT_TYPES.has(type)) {
    eq(num(got[1]), want.nan, 'NaN count');
    eq(num(got[2]), want.pos_inf, '+inf count');
    eq(num(got[3]), want.neg_inf, '-inf count');
    eq(num(got[4]), want.neg_zero, '-0.0 count');
    const sum = got[5] ?? 0;
    check(Math.abs(sum - want.sum) <= 1e-9 * Math.max(1, Math.abs(want.sum)),
          `${label}.${name} sum: DuckDB ${sum}, Table API ${want.sum}`);
    eq(got[6], want.min, 'min');
    eq(got[7], want.max, 'max');
  } else if (STRING_TYPES.has(type)) {
    eq(got[1], want.min, 'min');
    eq(got[2], want.max, 'max');
  } else if (type === 'boolean') {
    eq(num(got[1]), want.trues, 'true count');
  }
}

// A filtered query per table: SQL for DuckDB, the same predicate over the expected rows.
function filterFor(entry) {
  const at = (name) => entry.columns.indexOf(name);
  if (entry.table.startsWith('metrics')) {
    const t = at('time'), m = at('metricid');
    return { sql: `"time" >= 1717198200 AND metricid % 3 = 1`,
             js: (r) => Number(r[t]) >= 1717198200 && BigInt(r[m]) % 3n === 1n };
  }
  if (entry.table.startsWith('logs')) {
    const s = at('status'), l = at('latency_ms'), c = at('country');
    return { sql: `status >= 500 AND (latency_ms > 800 OR country = 'DE')`,
             js: (r) => r[s] !== null && Number(r[s]) >= 500 &&
                        ((r[l] !== null && Number(r[l]) > 800) || r[c] === 'DE') };
  }
  const i = at('i'), t = at('t');
  return { sql: `i > 0 OR t = 'updated'`,
             js: (r) => (r[i] !== null && Number(r[i]) > 0) || r[t] === 'updated' };
}

// The page index of every chunk of `entry`, read by hyparquet, against the chunk metadata and
// against DuckDB's values of the same rows (int, bigint and text columns).
async function checkPageIndexes(entry, con, hyparquet) {
  const bytes = fs.readFileSync(entry.parquet);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = hyparquet.parquetMetadata(file);
  const view = new DataView(file);
  const pages = {};  // column name -> [{start, end, nullPage, min, max, nulls}]
  let groupStart = 0, chunks = 0, indexed = 0, pageCount = 0;
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    group.columns.forEach((chunk, c) => {
      const meta = chunk.meta_data;
      const name = meta.path_in_schema[0];
      const where = `${entry.label} row group at ${groupStart}, ${name}`;
      chunks++;
      if (!check(chunk.offset_index_offset !== undefined && chunk.offset_index_length > 0,
                 `${where}: no offset index`)) return;
      const locations = hyparquet.readOffsetIndex({ view, offset: Number(chunk.offset_index_offset) })
        .page_locations;
      pageCount += locations.length;
      const chunkStart = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      check(Number(locations[0].offset) === Number(meta.data_page_offset), `${where}: first page offset`);
      check(Number(locations[0].first_row_index) === 0, `${where}: first page's first row`);
      for (let p = 1; p < locations.length; p++) {
        check(Number(locations[p].offset) === Number(locations[p - 1].offset) + locations[p - 1].compressed_page_size,
              `${where}: page ${p} does not follow page ${p - 1}`);
        check(Number(locations[p].first_row_index) > Number(locations[p - 1].first_row_index) &&
              Number(locations[p].first_row_index) < groupRows, `${where}: page ${p} first row`);
      }
      const last = locations[locations.length - 1];
      check(Number(last.offset) + last.compressed_page_size === chunkStart + Number(meta.total_compressed_size),
            `${where}: the pages do not end the chunk`);
      if (chunk.column_index_offset === undefined) return;
      indexed++;
      const index = hyparquet.readColumnIndex({ view, offset: Number(chunk.column_index_offset) },
                                              metadata.schema[c + 1]);
      check(index.null_pages.length === locations.length && index.min_values.length === locations.length &&
            index.null_counts.length === locations.length, `${where}: column index of ${index.null_pages.length} pages`);
      check(index.null_counts.reduce((a, b) => a + Number(b), 0) === Number(meta.statistics.null_count),
            `${where}: page null counts do not add up to the chunk's`);
      pages[name] ??= [];
      locations.forEach((location, p) => {
        pages[name].push({
          start: groupStart + Number(location.first_row_index),
          end: groupStart + (p + 1 < locations.length ? Number(locations[p + 1].first_row_index) : groupRows),
          nullPage: index.null_pages[p], min: index.min_values[p], max: index.max_values[p],
          nulls: Number(index.null_counts[p]),
        });
      });
    });
    groupStart += groupRows;
  }
  // Each page's statistics against the rows DuckDB reads at those positions.
  let compared = 0;
  for (const [i, name] of entry.columns.entries()) {
    const type = entry.types[i];
    if (!pages[name] || !['int', 'bigint', 'text', 'ascii'].includes(type)) continue;
    const rows = (await con.runAndReadAll(
      `SELECT file_row_number, ${normalized(name, type)} FROM read_parquet('${entry.parquet}', file_row_number = true) ORDER BY 1`)).getRowsJS();
    for (const page of pages[name]) {
      const values = rows.slice(page.start, page.end).map((r) => r[1]);
      const present = values.filter((v) => v !== null);
      const where = `${entry.label}.${name} page of rows ${page.start}..${page.end}`;
      check(values.length - present.length === page.nulls, `${where}: null count ${page.nulls}, DuckDB ${values.length - present.length}`);
      check(page.nullPage === (present.length === 0), `${where}: null_pages`);
      if (present.length === 0) continue;
      let min, max;
      if (type === 'int' || type === 'bigint') {
        const big = present.map((v) => BigInt(v));
        min = big.reduce((a, b) => (b < a ? b : a)).toString();
        max = big.reduce((a, b) => (b > a ? b : a)).toString();
      } else {
        const sorted = [...present].sort(cmpBytes);
        min = sorted[0];
        max = sorted[sorted.length - 1];
      }
      check(String(page.min) === min && String(page.max) === max,
            `${where}: column index min/max ${page.min}/${page.max}, DuckDB ${min}/${max}`);
      compared++;
    }
  }
  console.log(`  page index (hyparquet): ${pageCount} pages in ${chunks} chunks, column index on ${indexed}; ` +
              `${compared} pages' min/max/nulls equal DuckDB's`);
  return { file, metadata };
}

// A filtered read through hyparquet with and without the page index: the same rows as DuckDB,
// fewer bytes fetched with the index.
async function checkPageSkipping(entry, con, hyparquet, file, metadata, column) {
  const middle = (await con.runAndReadAll(
    `SELECT ${q(column)} FROM read_parquet('${entry.parquet}') LIMIT 1 OFFSET ${Math.floor(entry.rows / 2)}`)).getRowsJS()[0][0];
  const want = Number((await con.runAndReadAll(
    `SELECT count(*) FROM read_parquet('${entry.parquet}') WHERE ${q(column)} = ${middle}`)).getRowsJS()[0][0]);
  const read = async (meta) => {
    let fetched = 0;
    const counting = { byteLength: file.byteLength, slice: (start, end) => {
      fetched += (end ?? file.byteLength) - start;
      return file.slice(start, end);
    } };
    const rows = await hyparquet.parquetReadObjects({ file: counting, metadata: meta, columns: [column, 'value'],
                                                      filter: { [column]: { $eq: middle } }, usePageIndex: true });
    return { rows: rows.length, fetched };
  };
  const withIndex = await read(metadata);
  const stripped = structuredClone(metadata);
  for (const group of stripped.row_groups) {
    for (const chunk of group.columns) {
      delete chunk.column_index_offset; delete chunk.column_index_length;
      delete chunk.offset_index_offset; delete chunk.offset_index_length;
    }
  }
  const withoutIndex = await read(stripped);
  check(withIndex.rows === want && withoutIndex.rows === want,
        `${entry.label} WHERE ${column} = ${middle}: hyparquet ${withIndex.rows} / ${withoutIndex.rows} rows, DuckDB ${want}`);
  check(withIndex.fetched < withoutIndex.fetched,
        `${entry.label}: hyparquet fetched ${withIndex.fetched} bytes with the page index, ${withoutIndex.fetched} without`);
  console.log(`  hyparquet WHERE ${column} = ${middle}: ${withIndex.rows} rows (DuckDB ${want}), ` +
              `${withIndex.fetched} bytes fetched with the page index, ${withoutIndex.fetched} without`);
}

(async () => {
  const hyparquet = await import(require('url').pathToFileURL(
    path.join(process.argv[2], 'hyparquet', 'src', 'index.js')).href);
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  const version = (await con.runAndReadAll('SELECT version()')).getRows()[0][0];
  console.log(`DuckDB ${version}`);
  const sizes = [];
  for (const entry of manifest) {
    console.log(`${entry.label}: ${entry.parquet}`);
    const file = `'${entry.parquet}'`;
    const expected = fs.readFileSync(entry.expected, 'utf8').split('\n').filter((l) => l)
      .map((l) => JSON.parse(l));
    const types = entry.types;
    // Every row, exactly.
    const select = entry.columns.map((c, i) => normalized(c, types[i])).join(', ');
    const rows = (await con.runAndReadAll(`SELECT ${select} FROM read_parquet(${file})`)).getRowsJS();
    const got = rows.map((r) => JSON.stringify(r.map((v, i) => (FLOAT_TYPES.has(types[i]) ? floatBits(v, types[i]) : v))));
    const want = expected.map((r) => JSON.stringify(r));
    check(got.length === want.length, `${entry.label}: DuckDB reads ${got.length} rows, Table API ${want.length}`);
    got.sort();
    want.sort();
    let mismatches = 0;
    for (let i = 0; i < Math.max(got.length, want.length); i++) {
      if (got[i] !== want[i] && mismatches++ < 3) {
        check(false, `${entry.label} row ${i}:\n    DuckDB    ${got[i]}\n    Table API ${want[i]}`);
      }
    }
    check(mismatches === 0, `${entry.label}: ${mismatches} rows differ`);
    console.log(`  ${got.length} rows, every row equal to the Table API's: ${mismatches === 0}`);
    const { file: bytes, metadata } = await checkPageIndexes(entry, con, hyparquet);
    if (entry.label === 'metrics_snappy') {
      await checkPageSkipping(entry, con, hyparquet, bytes, metadata, 'metricid');
    }
    if (entry.label === 'metrics_concurrent') {
      console.log(`  exported under concurrent writes: exactly the snapshot's ${want.length} rows`);
      continue;
    }
    // Aggregates per column.
    const parts = [];
    const spans = [];
    entry.columns.forEach((c, i) => {
      const p = aggregateSql(c, types[i]);
      spans.push([parts.length, p.length]);
      parts.push(...p);
    });
    const agg = (await con.runAndReadAll(`SELECT count(*), ${parts.join(', ')} FROM read_parquet(${file})`)).getRowsJS()[0];
    check(Number(agg[0]) === expected.length, `${entry.label} count(*)`);
    entry.columns.forEach((c, i) => {
      const [begin, n] = spans[i];
      compareAggregates(entry.label, c, types[i], agg.slice(1 + begin, 1 + begin + n),
                        expectedAggregates(expected, i, types[i]));
    });
    // A filtered query.
    const filter = filterFor(entry);
    const filtered = Number((await con.runAndReadAll(`SELECT count(*) FROM read_parquet(${file}) WHERE ${filter.sql}`)).getRowsJS()[0][0]);
    const wantFiltered = expected.filter(filter.js).length;
    check(filtered === wantFiltered, `${entry.label} filtered count: DuckDB ${filtered}, Table API ${wantFiltered}`);
    console.log(`  aggregates of ${entry.columns.length} columns equal; WHERE ${filter.sql}: ${filtered} rows`);
    // Statistics: every chunk has them; per integer column the row groups' min / max bracket
    // the data and meet its global min / max.
    const meta = (await con.runAndReadAll(
      `SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value, stats_null_count, ` +
      `compression, encodings, total_compressed_size FROM parquet_metadata(${file}) ORDER BY row_group_id, column_id`)).getRowsJS();
    const groups = new Set(meta.map((m) => m[0])).size;
    entry.columns.forEach((c, i) => {
      const chunks = meta.filter((m) => m[1] === c);
      check(chunks.length === groups, `${entry.label}.${c}: ${chunks.length} chunks in ${groups} row groups`);
      const nulls = chunks.reduce((a, m) => a + Number(m[4]), 0);
      const wantNulls = expected.filter((r) => r[i] === null).length;
      check(nulls === wantNulls, `${entry.label}.${c} null_count statistics ${nulls}, rows ${wantNulls}`);
      if (types[i] === 'int' || types[i] === 'bigint') {
        const want = expectedAggregates(expected, i, types[i]);
        const mins = chunks.filter((m) => m[2] !== null).map((m) => BigInt(m[2]));
        const maxs = chunks.filter((m) => m[3] !== null).map((m) => BigInt(m[3]));
        if (want.count > 0) {
          check(mins.length > 0 && mins.reduce((a, b) => (b < a ? b : a)).toString() === want.min,
                `${entry.label}.${c} statistics min`);
          check(maxs.length > 0 && maxs.reduce((a, b) => (b > a ? b : a)).toString() === want.max,
                `${entry.label}.${c} statistics max`);
        }
      }
      const codec = { zstd: 'ZSTD', snappy: 'SNAPPY', none: 'UNCOMPRESSED' }[entry.compression];
      check(chunks.every((m) => m[5] === codec), `${entry.label}.${c} compression ${chunks[0] && chunks[0][5]}`);
    });
    if (entry.label === 'metrics' || entry.label === 'all_types') {
      console.log(`  parquet_metadata() of row group 0:`);
      for (const m of meta.filter((m) => m[0] === 0n || m[0] === 0)) {
        console.log(`    ${String(m[1]).padEnd(12)} min=${JSON.stringify(m[2])} max=${JSON.stringify(m[3])} nulls=${m[4]} ${m[5]} ${m[6]}`);
      }
    }
    if (entry.csv) {
      // DuckDB's own Parquet (zstd) of the same rows, imported from the CSV COPY TO writes.
      const duck = path.join(dir, `${entry.label}.duckdb.parquet`);
      await con.run(`CREATE OR REPLACE TABLE imported AS SELECT * FROM read_csv('${entry.csv}', header = true)`);
      const imported = Number((await con.runAndReadAll('SELECT count(*) FROM imported')).getRowsJS()[0][0]);
      check(imported === expected.length, `${entry.label}: the CSV holds ${imported} rows, Table API ${expected.length}`);
      await con.run(`COPY imported TO '${duck}' (FORMAT parquet, COMPRESSION zstd)`);
      const duckBytes = fs.statSync(duck).size;
      sizes.push(`| ${entry.label} | ${entry.rows} | ${(entry.bytes / entry.rows).toFixed(1)} | ` +
                 `${(duckBytes / entry.rows).toFixed(1)} | ${Math.round(entry.rows / entry.seconds)} |`);
    }
  }
  // The files the README's COPY commands wrote (run_duckdb_check.sh ran them in `dir`/readme).
  const copies = fs.readFileSync(path.join(dir, 'readme_copies.txt'), 'utf8').split('\n').filter((l) => l);
  for (const line of copies) {
    const [rows, format, file] = line.split(' ');
    const full = path.resolve(dir, 'readme', file);
    const reader = format === 'csv' ? `read_csv('${full}', header = true)` : `read_parquet('${full}')`;
    const got = Number((await con.runAndReadAll(`SELECT count(*) FROM ${reader}`)).getRowsJS()[0][0]);
    check(got === Number(rows), `README COPY to ${file}: DuckDB reads ${got} rows, COPY wrote ${rows}`);
    console.log(`README COPY to ${file} (${format}): DuckDB reads ${got} rows, COPY reported ${rows}`);
  }
  console.log('\n| table | rows | export bytes/row | DuckDB bytes/row | export rows/s |');
  console.log('|---|---|---|---|---|');
  for (const line of sizes) console.log(line);
  if (failures > 0) {
    console.log(`duckdb_check: ${failures} failure(s)`);
    process.exit(1);
  }
  console.log('duckdb_check: OK');
})().catch((e) => {
  console.log(`duckdb_check: ${e.stack || e}`);
  process.exit(1);
});
