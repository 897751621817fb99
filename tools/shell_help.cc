#include "tools/shell_help.h"

namespace columnar {

const char* ShellHelpText() {
  return R"(CQL statements (end each with ';'; a statement may span lines):
  CREATE KEYSPACE [IF NOT EXISTS] ks WITH replication = {'class': 'SimpleStrategy',
      'replication_factor': n} [AND durable_writes = true | false]
    one node: replication is stored and shown by DESCRIBE, rows are kept once
  DROP KEYSPACE [IF EXISTS] ks   drops every table of the keyspace
  USE ks                         unqualified table names then mean ks.<name>
  CREATE TABLE [IF NOT EXISTS] [ks.]t (col type [PRIMARY KEY], ...,
      [PRIMARY KEY ((p1, p2, ...), c1, c2, ...)])
      [WITH CLUSTERING ORDER BY (c1 ASC|DESC, ...) [AND option = value ...]]
    options: sstable_format = 'columnar' | 'block_based', default_time_to_live = seconds,
             column_encodings = {'col': 'encoding'}, column_compression = {'col': 'zstd'}
  ALTER TABLE [ks.]t ADD col type | ADD (c1 t1, ...) | DROP col | DROP (c1, ...)
                   | WITH option = value [AND ...]
  DROP TABLE [IF EXISTS] [ks.]t   removes the table and its rows
  TRUNCATE [TABLE] [ks.]t         deletes every row, keeps the table
  INSERT INTO [ks.]t (c1, c2, ...) VALUES (v1, v2, ...)
      [USING TTL n [AND TIMESTAMP t] | USING TIMESTAMP t [AND TTL n]]
  SELECT [JSON] [DISTINCT] * | selector [AS name], ... FROM [ks.]t
      [WHERE relation [AND relation ...]] [GROUP BY term, ...]
      [ORDER BY c [ASC|DESC], ...] [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING]
    selector: col | WRITETIME(col) | TTL(col) | COUNT(*) | COUNT(col) | MIN(col) | MAX(col)
              | SUM(col) | AVG(col) | FLOOR(col, width)
    relation: col (= | < | <= | > | >=) literal | col IN (literal, ...)
    without WHERE, every partition; otherwise every partition key column needs = or IN
    (every combination is read); then = on leading clustering columns and a range or IN on
    the next; other columns need ALLOW FILTERING (which also allows leaving the partition key
    out)
    GROUP BY: primary key columns in key order (those fixed by = may be left out), then
    optionally FLOOR(first clustering column, 1h | 15m | 1d | ... | integer); with aggregates
    the other selectors must be GROUP BY columns; LIMIT counts groups
    PER PARTITION LIMIT n: the first n rows of each partition (before LIMIT)
    DISTINCT: every partition key column and nothing else, once per partition
    JSON: one column [json], each row as a JSON object
    partitions come in ascending key order (an IN list is read sorted), each in its
    clustering order (or reversed by ORDER BY)
  DELETE FROM [ks.]t WHERE p1 = v1 AND ... [AND c1 = v AND ...]
    = on every partition key column deletes the partition; with = on every clustering
    column too, one row
Types: boolean, int, bigint, float, double, timestamp, date, text (varchar), ascii, blob, uuid.
Refused (with the reason and the position): collections (set, list, map, frozen<...>),
  tuples, counter, UPDATE, BATCH, lightweight transactions (INSERT ... IF NOT EXISTS,
  UPDATE / DELETE ... IF), indexes, views, types, functions, roles.

Shell commands (one line each, case-insensitive, ';' optional):
  HELP                      this text
  DESCRIBE KEYSPACES        the keyspaces (created, and the ones only tables name)
  DESCRIBE KEYSPACE [ks]    its CREATE KEYSPACE and CREATE TABLE statements
  DESCRIBE TABLES           the tables of the current keyspace (all without USE)
  DESCRIBE TABLE [ks.]t     its CREATE TABLE statement and its storage format
  CONSISTENCY [level]       accepted and ignored: one node has one copy of each row
  EXPAND ON | OFF           each row of a result as a block of "column | value" lines
  PAGING ON | OFF | n       on a terminal, long results n rows (default 100) at a time:
                            Enter shows the next page, q stops
  TRACING ON | OFF          after each SELECT, print the predicate pushdown counters and
                            the elapsed time
  FLUSH [[ks.]t]            write the memtable of a table (or of every table) to a file
  COMPACT [[ks.]t]          compact a table (or every table) into its last level, where
                            ColumnarTable filters can leave rows out and prune row groups
  SOURCE 'file'             run the statements and commands of a file
  COPY [ks.]t [(c1, ...)] TO 'file' [WITH FORMAT = 'parquet' | 'csv'
      [AND COMPRESSION = 'zstd' | 'snappy' | 'none'] [AND HEADER = true | false]]
                            export the table (latest rows, at one snapshot) to Parquet or
                            CSV; the format follows a .parquet / .csv extension otherwise
  COPY [ks.]t [(c1, ...)] FROM 'file.csv' [WITH HEADER = true | false]
                            import CSV rows (the columns: the list, else the header's names
                            with HEADER = true, else the table's columns as COPY TO writes
                            them; COPY TO files have a header); a bad line stops the import
                            with its line number, every row before it imported
  EXIT | QUIT               leave the shell
)";
}

}  // namespace columnar
