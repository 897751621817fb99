#!/usr/bin/env bash
# Installs what the build needs on a fresh Debian bookworm machine (as root), and
# fetches RocksDB's 7.8.3 source for its internal headers into third_party/
# (git-ignored). Idempotent: does nothing when everything is already present.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
want_rocksdb=7.8.3
src_dir="$here/third_party/rocksdb-src"

packages=(build-essential cmake pkg-config librocksdb-dev libzstd-dev liblz4-dev libxsimd-dev
          libgflags-dev googletest libgtest-dev libgmock-dev libbenchmark-dev rocksdb-tools dpkg-dev
          libsnappy-dev
          python3)  # scripts/load_rounds.py and its test
# The Parquet export test has DuckDB read the files, installed from npm (tests/export/).
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
# Extra packages a target needs beyond the build's (e.g. make fuzz: clang-14 libclang-rt-14-dev).
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"

apt_updated=0
apt_update() {
  if [ $apt_updated -eq 0 ]; then $sudo_cmd apt-get update -qq; apt_updated=1; fi
}

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

installed=$(dpkg-query -W -f='${Version}' librocksdb-dev | sed -E 's/^([0-9.]+).*/\1/')
if [ "$installed" != "$want_rocksdb" ]; then
  echo "setup: librocksdb-dev is $installed but this project is built against $want_rocksdb" >&2
  echo "setup: install librocksdb-dev=$want_rocksdb-* (Debian bookworm) and run again" >&2
  exit 1
fi

if [ ! -f "$src_dir/table/table_builder.h" ]; then
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    echo "setup: adding a deb-src entry for bookworm main"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      | $sudo_cmd tee /etc/apt/sources.list.d/columnar-deb-src.sources >/dev/null
    apt_updated=0
  fi
  apt_update
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source -qq --download-only "rocksdb=${want_rocksdb}-2" >/dev/null \
     && dpkg-source -x --no-check rocksdb_${want_rocksdb}-2.dsc rocksdb >/dev/null)
  mkdir -p "$here/third_party"
  rm -rf "$src_dir"
  mv "$tmp/rocksdb" "$src_dir"
  rm -rf "$tmp"
fi

src_version=$(awk '/define ROCKSDB_MAJOR/{a=$3}/define ROCKSDB_MINOR/{b=$3}/define ROCKSDB_PATCH/{c=$3}END{print a"."b"."c}' \
  "$src_dir/include/rocksdb/version.h")
if [ "$src_version" != "$want_rocksdb" ]; then
  echo "setup: RocksDB source in $src_dir is $src_version, expected $want_rocksdb; delete it and run again" >&2
  exit 1
fi
