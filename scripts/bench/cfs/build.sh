#!/bin/sh
# Builds the C baseline filesystem: scripts/bench/cfs/build/cfs
# Needs a C compiler, pkg-config and libfuse3-dev (apt-get install fuse3 libfuse3-dev pkg-config).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/build"
# shellcheck disable=SC2046 # pkg-config output is meant to be split into words
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -o "$here/build/cfs" "$here/cfs.c" $(pkg-config --cflags --libs fuse3)
echo "$here/build/cfs"
