#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Set everything up (scripts/setup.sh) and run every test suite; the last
# line of the output is "N passed, N failed".
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
export BUILD_DIR
bash scripts/setup.sh
exec bash tests/run_tests.sh "$BUILD_DIR"
