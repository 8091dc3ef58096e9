# Shared helpers for the runtime test scripts (sourced). Environment from meson:
# SHMPIRUN, SHMPI_DUMP, SHMPID, TEST_BIN, FAKE_SEGMENT.
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
scratch=$(mktemp -d /tmp/shmpi-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
segments() { ls /dev/shm 2>/dev/null | grep "^shmpi-$(id -u)-" | sort || true; }
# Segments that exist now but did not in the snapshot file $1.
new_segments() { segments | comm -13 "$1" - ; }
now_ms() { date +%s%3N; }
