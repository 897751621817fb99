#!/usr/bin/env python3
"""CQL for a partial-INSERT load (docs/cell_semantics.md, "Measured"): the README's access16
table written as a Cassandra user writes a request log, naming 9 of its 21 columns (every 70th
request also names 5 more). Prints CREATE TABLE statements for a ColumnarTable and a
BlockBasedTable table, then the same INSERTs into each, for cql_shell -f:

  scripts/partial_inserts.py --instances 50 --rows 1000 > /tmp/partial.cql
  cql_shell --db=/tmp/partial -f /tmp/partial.cql -e COMPACT
"""
import argparse
import random

COLUMNS = ("orgid text, service text, instance text, day date, time timestamp, method ascii, "
           "path text, status int, user_agent text, client_ip ascii, country ascii, "
           "referrer text, latency_ms int, request_id ascii, trace_id ascii, user_id text, "
           "host text, protocol ascii, content_type text, bytes_sent bigint, error_message text, "
           "PRIMARY KEY ((orgid, service, instance, day), time)")
PATHS = ["/v1/items", "/v1/users", "/v1/orders", "/health", "/v2/search"]
BASE_MILLIS = 1714557600000  # 2024-05-01T10:00:00Z


def inserts(table, instances, rows, seed):
    rng = random.Random(seed)
    for instance in range(instances):
        for i in range(rows):
            # An incident of 503s one minute in 17; every 97th request slow.
            status = 503 if (i // 60) % 17 == 3 else rng.choice([200] * 20 + [404, 201])
            latency = 1500 if i % 97 == 0 else 20 + rng.randint(0, 80)
            columns = "orgid, service, instance, day, time, method, path, status, latency_ms"
            values = (f"'org-1', 'api', 'i-{instance}', '2024-05-01', {BASE_MILLIS + i * 5000}, "
                      f"'GET', '{rng.choice(PATHS)}', {status}, {latency}")
            if i % 70 == 0:
                columns += ", user_agent, client_ip, country, request_id, bytes_sent"
                values += (f", 'curl/8', '10.0.{instance}.{i % 250}', 'FR', "
                           f"'req-{instance}-{i}', {rng.randint(100, 9000)}")
            yield f"INSERT INTO {table} ({columns}) VALUES ({values});"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=50)
    parser.add_argument("--rows", type=int, default=1000, help="requests per instance")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for table, storage in (("logs.c", "columnar"), ("logs.b", "block_based")):
        print(f"CREATE TABLE {table} ({COLUMNS}) WITH CLUSTERING ORDER BY (time DESC) "
              f"AND sstable_format = '{storage}';")
    for table in ("logs.c", "logs.b"):
        for statement in inserts(table, args.instances, args.rows, args.seed):
            print(statement)


if __name__ == "__main__":
    main()
