#!/usr/bin/env bash
# Runs docs/models/check.sh; exit 77 (skip) when spin is not installed.
command -v spin > /dev/null || { echo "spin not installed: skipping"; exit 77; }
exec bash "$1"
