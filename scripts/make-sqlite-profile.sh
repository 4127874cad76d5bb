#!/usr/bin/env bash
# Makes a real profile of a C program for the bytes-per-key benchmark:
# callgrind on the system's sqlite3 filling, indexing and querying a table
# (about 1,250 functions with short C names, 250 KB). Writes
# bench-data/sqlite.callgrind; a few seconds. Needs valgrind and sqlite3.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p bench-data
valgrind -q --tool=callgrind --callgrind-out-file=bench-data/sqlite.callgrind \
    sqlite3 :memory: >/dev/null <<'SQL'
create table t(a integer primary key, b text, c real);
with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000)
insert into t select i, hex(randomblob(8)), i * 1.5 from n;
create index tb on t(b);
select count(*), sum(c), max(b) from t where b like '%AB%';
select b, count(*) from t group by substr(b, 1, 2) order by 2 desc limit 5;
SQL
ls -la bench-data/sqlite.callgrind
