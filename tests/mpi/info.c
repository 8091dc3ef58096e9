/* info: info objects as MPI-4.1 chapter 10 specifies them: create/set/delete/get_nkeys/
 * get_nthkey/dup/free, MPI_Info_get_string's buflen rules (the buflen = 0 size query, a
 * cut value is null-terminated, buflen returns the size the whole value needs), the length
 * limits, MPI_INFO_ENV and MPI_Info_create_env, and the error classes under
 * MPI_ERRORS_RETURN.
 *
 * Lengths: C's string-length constants count the terminating null (the standard's
 * language-binding rule), so a key has at most MPI_MAX_INFO_KEY - 1 characters and a value
 * at most MPI_MAX_INFO_VAL - 1; one more is MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE.
 * The key numbering of MPI_Info_get_nthkey is the implementation's: the portable checks
 * see only that every key appears once.
 *
 * Peer deviations, each tolerated only where its variable is set (tests/peer):
 *   INFO_MAX_LENGTH_EXCLUDES_NUL   (MPICH 4.0) accepts a key of MPI_MAX_INFO_KEY and a value
 *                                  of MPI_MAX_INFO_VAL characters (and then returns the
 *                                  key cut by one character)
 *   INFO_NULL_IS_ERR_ARG           (MPICH 4.0) MPI_INFO_NULL is MPI_ERR_ARG, not MPI_ERR_INFO
 *   INFO_EMPTY_VALUE_REJECTED      (Open MPI 4.1) an empty value is MPI_ERR_INFO_VALUE
 *   INFO_NTHKEY_RANGE_IS_INFO_KEY  (Open MPI 4.1) get_nthkey's n >= nkeys is MPI_ERR_INFO_KEY
 * INFO_PEER=1 skips shmpi's promises beyond the standard (key order, a freed handle is an
 * error, MPI_INFO_ENV's exact keys and read-only-ness, NULL arguments, the message text).
 * MPI_Info_get_string and MPI_Info_create_env are MPI-4.0: where MPI_VERSION < 4 (Open MPI
 * 4.1) values are read with MPI_Info_get and create_env is not checked.
 * Usage: info */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int peer, size;

static int env(const char* name) { return getenv(name) != NULL; }

static void check_class(int rc, int expected, const char* what) {
  int cls = -1;
  CHECK(rc != MPI_SUCCESS, "%s succeeded, expected class %d", what, expected);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == expected, "%s: class %d, expected %d", what, cls, expected);
}

static void check_text(int rc, const char* expected) {
  if (peer) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK_MPI(MPI_Error_string(rc, text, &len));
  CHECK(strstr(text, expected) != NULL, "error text \"%s\" does not contain \"%s\"", text, expected);
}

static char big[4 * 1024 + 2];

/* The value of key in info (flag 0: not there). */
static int get(MPI_Info info, const char* key, char* value, int cap) {
  int flag = -1;
#if MPI_VERSION >= 4
  int len = cap;
  CHECK_MPI(MPI_Info_get_string(info, key, &len, value, &flag));
  if (flag) CHECK(len == (int)strlen(value) + 1, "get_string(%s): buflen %d for a value of %d characters", key, len,
                  (int)strlen(value));
#else
  CHECK_MPI(MPI_Info_get(info, key, cap - 1, value, &flag));
#endif
  CHECK(flag == 0 || flag == 1, "flag %d", flag);
  return flag;
}

static void check_value(MPI_Info info, const char* key, const char* expected) {
  const int flag = get(info, key, big, (int)sizeof big);
  CHECK(flag == 1, "key \"%s\" is not set", key);
  CHECK(strcmp(big, expected) == 0, "key \"%s\" is \"%.60s\", expected \"%.60s\"", key, big, expected);
}

static void check_absent(MPI_Info info, const char* key) {
  strcpy(big, "untouched");
  const int flag = get(info, key, big, (int)sizeof big);
  CHECK(flag == 0, "key \"%s\" is set", key);
  CHECK(strcmp(big, "untouched") == 0, "a missing key changed value");
}

static int nkeys(MPI_Info info) {
  int n = -1;
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n >= 0, "nkeys %d", n);
  return n;
}

/* info holds exactly these keys (in any order) with these values. */
static void check_entries(MPI_Info info, const char* const* keys, const char* const* values, int n, const char* what) {
  CHECK(nkeys(info) == n, "%s: %d keys, expected %d", what, nkeys(info), n);
  int seen[16] = {0};
  for (int i = 0; i < n; ++i) {
    char key[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    int found = -1;
    for (int j = 0; j < n; ++j) {
      if (strcmp(key, keys[j]) == 0) found = j;
    }
    CHECK(found >= 0, "%s: key %d is \"%s\", which was never set", what, i, key);
    CHECK(!seen[found], "%s: key \"%s\" numbered twice", what, key);
    seen[found] = 1;
    /* shmpi numbers keys in the order they were first set */
    if (!peer) CHECK(found == i, "%s: key %d is \"%s\", expected \"%s\"", what, i, key, keys[i]);
  }
  for (int i = 0; i < n; ++i) check_value(info, keys[i], values[i]);
}

static void free_info(MPI_Info* info) {
  CHECK_MPI(MPI_Info_free(info));
  CHECK(*info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
}

static void basics(void) {
  MPI_Info info, dup;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK(info != MPI_INFO_NULL, "MPI_Info_create returned MPI_INFO_NULL");
  CHECK(nkeys(info) == 0, "a new info object has keys");
  check_absent(info, "anything");

  CHECK_MPI(MPI_Info_set(info, "alpha", "1"));
  CHECK_MPI(MPI_Info_set(info, "beta", "two words"));
  CHECK_MPI(MPI_Info_set(info, "Alpha", "case matters"));
  {
    const char* keys[] = {"alpha", "beta", "Alpha"};
    const char* values[] = {"1", "two words", "case matters"};
    check_entries(info, keys, values, 3, "three keys");
  }
  /* A new value replaces the old one; the key count stays. */
  CHECK_MPI(MPI_Info_set(info, "alpha", "replaced"));
  {
    const char* keys[] = {"alpha", "beta", "Alpha"};
    const char* values[] = {"replaced", "two words", "case matters"};
    check_entries(info, keys, values, 3, "after replacing alpha");
  }
  /* Keys and values are taken verbatim in C: no stripping of spaces. */
  CHECK_MPI(MPI_Info_set(info, " spaced ", " v "));
  check_value(info, " spaced ", " v ");
  check_absent(info, "spaced");
  CHECK_MPI(MPI_Info_delete(info, " spaced "));

  /* dup copies: later changes to either do not show in the other. */
  CHECK_MPI(MPI_Info_dup(info, &dup));
  CHECK(dup != info, "MPI_Info_dup returned the same handle");
  CHECK_MPI(MPI_Info_set(info, "gamma", "only in the original"));
  CHECK_MPI(MPI_Info_delete(dup, "beta"));
  CHECK_MPI(MPI_Info_set(dup, "Alpha", "changed in the dup"));
  {
    const char* keys[] = {"alpha", "beta", "Alpha", "gamma"};
    const char* values[] = {"replaced", "two words", "case matters", "only in the original"};
    check_entries(info, keys, values, 4, "the original after dup");
    const char* dkeys[] = {"alpha", "Alpha"};
    const char* dvalues[] = {"replaced", "changed in the dup"};
    check_entries(dup, dkeys, dvalues, 2, "the dup");
  }

  /* delete: the key is gone; deleting it again is MPI_ERR_INFO_NOKEY. */
  CHECK_MPI(MPI_Info_delete(info, "beta"));
  check_absent(info, "beta");
  CHECK(nkeys(info) == 3, "nkeys after delete %d", nkeys(info));
  int rc = MPI_Info_delete(info, "beta");
  check_class(rc, MPI_ERR_INFO_NOKEY, "MPI_Info_delete of a deleted key");
  check_text(rc, "MPI_Info_delete: key \"beta\" is not set in info");
  check_class(MPI_Info_delete(info, "never"), MPI_ERR_INFO_NOKEY, "MPI_Info_delete of a key never set");
  /* a deleted key can be set again */
  CHECK_MPI(MPI_Info_set(info, "beta", "back"));
  check_value(info, "beta", "back");

  /* Deleting every key leaves an empty object. */
  for (int n = nkeys(info); n > 0; --n) {
    char key[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_get_nthkey(info, 0, key));
    CHECK_MPI(MPI_Info_delete(info, key));
    CHECK(nkeys(info) == n - 1, "nkeys %d after deleting \"%s\", expected %d", nkeys(info), key, n - 1);
  }
  free_info(&dup);
  free_info(&info);
}

static void get_string(void) {
#if MPI_VERSION >= 4
  MPI_Info info;
  char value[32];
  int len, flag;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "key", "hello world")); /* 11 characters */

  /* buflen 0: only the size (including the null), value untouched. */
  memset(value, 'x', sizeof value);
  len = 0;
  flag = -1;
  CHECK_MPI(MPI_Info_get_string(info, "key", &len, value, &flag));
  CHECK(flag == 1, "buflen 0: flag %d", flag);
  CHECK(len == 12, "buflen 0: returned %d, expected 12", len);
  CHECK(value[0] == 'x', "buflen 0 wrote to value");
  if (!peer) { /* shmpi: with buflen 0, value may be NULL (MPICH 4.0 refuses) */
    len = 0;
    CHECK_MPI(MPI_Info_get_string(info, "key", &len, NULL, &flag));
    CHECK(flag == 1 && len == 12, "buflen 0 with value NULL: flag %d, buflen %d", flag, len);
  }

  /* A short buffer: the value cut to buflen - 1 characters and null-terminated. */
  for (int cap = 1; cap <= 13; ++cap) {
    memset(value, 'x', sizeof value);
    len = cap;
    CHECK_MPI(MPI_Info_get_string(info, "key", &len, value, &flag));
    CHECK(flag == 1, "buflen %d: flag %d", cap, flag);
    CHECK(len == 12, "buflen %d: returned %d, expected 12", cap, len);
    const int kept = cap - 1 < 11 ? cap - 1 : 11;
    CHECK(strncmp(value, "hello world", (size_t)kept) == 0 && value[kept] == '\0',
          "buflen %d: value \"%.12s\", expected the first %d characters", cap, value, kept);
    CHECK(value[kept + 1] == 'x', "buflen %d: wrote beyond the null", cap);
  }

  /* A missing key: flag false, value untouched. */
  memset(value, 'x', sizeof value);
  len = (int)sizeof value;
  flag = -1;
  CHECK_MPI(MPI_Info_get_string(info, "nokey", &len, value, &flag));
  CHECK(flag == 0, "missing key: flag %d", flag);
  CHECK(value[0] == 'x', "missing key: value written");

  /* An empty value is a value: size 1. */
  if (!env("INFO_EMPTY_VALUE_REJECTED")) {
    CHECK_MPI(MPI_Info_set(info, "empty", ""));
    len = 0;
    CHECK_MPI(MPI_Info_get_string(info, "empty", &len, value, &flag));
    CHECK(flag == 1 && len == 1, "empty value: flag %d, buflen %d", flag, len);
    memset(value, 'x', sizeof value);
    len = (int)sizeof value;
    CHECK_MPI(MPI_Info_get_string(info, "empty", &len, value, &flag));
    CHECK(flag == 1 && len == 1 && value[0] == '\0', "empty value: flag %d, buflen %d, value \"%.4s\"", flag, len, value);
  }

  len = -1;
  check_class(MPI_Info_get_string(info, "key", &len, value, &flag), MPI_ERR_ARG, "MPI_Info_get_string(buflen -1)");
  free_info(&info);
#endif
}

/* MPI_Info_get and MPI_Info_get_valuelen (MPI-3.1 9.4; deprecated, not removed, in
 * MPI-4): valuelen excludes the null, a longer value is cut to valuelen characters. */
static void get_valuelen(void) {
  MPI_Info info;
  char value[32];
  int len = -1, flag = -1;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "key", "hello world"));
  CHECK_MPI(MPI_Info_get_valuelen(info, "key", &len, &flag));
  CHECK(flag == 1 && len == 11, "get_valuelen: flag %d, len %d", flag, len);
  flag = -1;
  CHECK_MPI(MPI_Info_get_valuelen(info, "nokey", &len, &flag));
  CHECK(flag == 0, "get_valuelen of a missing key: flag %d", flag);
  /* From 1: with valuelen 0, MPICH 4.0.2 returns an error and Open MPI 4.1.4 flag 0.
   * INFO_GET_TRUNCATION_IS_ERROR (MPICH 4.0.2): a truncated value also returns
   * MPI_ERR_INFO_VALUE (the standard only says it is truncated): accepted there. */
  for (int cap = 1; cap <= 12; ++cap) {
    memset(value, 'x', sizeof value);
    const int rc = MPI_Info_get(info, "key", cap, value, &flag);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_SUCCESS || (cap < 11 && cls == MPI_ERR_INFO_VALUE && env("INFO_GET_TRUNCATION_IS_ERROR")),
          "MPI_Info_get valuelen %d returned class %d", cap, cls);
    const int kept = cap < 11 ? cap : 11;
    CHECK(flag == 1 && strncmp(value, "hello world", (size_t)kept) == 0 && value[kept] == '\0',
          "MPI_Info_get valuelen %d: flag %d, value \"%.12s\"", cap, flag, value);
    CHECK(value[kept + 1] == 'x', "MPI_Info_get valuelen %d wrote beyond the null", cap);
  }
  memset(value, 'x', sizeof value);
  CHECK_MPI(MPI_Info_get(info, "nokey", (int)sizeof value - 1, value, &flag));
  CHECK(flag == 0 && value[0] == 'x', "MPI_Info_get of a missing key: flag %d", flag);
  free_info(&info);
}

static void lengths(void) {
  MPI_Info info;
  static char key[MPI_MAX_INFO_KEY + 2], value[MPI_MAX_INFO_VAL + 2];
  const int excludes_nul = env("INFO_MAX_LENGTH_EXCLUDES_NUL");
  CHECK_MPI(MPI_Info_create(&info));

  /* The longest key, MPI_MAX_INFO_KEY - 1 characters, comes back whole. */
  memset(key, 'k', sizeof key);
  key[MPI_MAX_INFO_KEY - 1] = '\0';
  CHECK_MPI(MPI_Info_set(info, key, "long key"));
  {
    char got[MPI_MAX_INFO_KEY];
    memset(got, 'x', sizeof got);
    CHECK_MPI(MPI_Info_get_nthkey(info, 0, got));
    CHECK(strcmp(got, key) == 0, "the longest key came back with %d characters, expected %d", (int)strnlen(got, sizeof got),
          MPI_MAX_INFO_KEY - 1);
    check_value(info, key, "long key");
    CHECK_MPI(MPI_Info_delete(info, key));
  }
  /* One more character is MPI_ERR_INFO_KEY, in every call that takes a key. */
  key[MPI_MAX_INFO_KEY - 1] = 'k';
  key[MPI_MAX_INFO_KEY] = '\0';
  if (!excludes_nul) {
    int rc = MPI_Info_set(info, key, "v");
    check_class(rc, MPI_ERR_INFO_KEY, "MPI_Info_set of a key of MPI_MAX_INFO_KEY characters");
    char text[128];
    snprintf(text, sizeof text, "has %d characters, more than MPI_MAX_INFO_KEY - 1 = %d", MPI_MAX_INFO_KEY,
             MPI_MAX_INFO_KEY - 1);
    check_text(rc, text);
    check_class(MPI_Info_delete(info, key), MPI_ERR_INFO_KEY, "MPI_Info_delete of a key of MPI_MAX_INFO_KEY characters");
#if MPI_VERSION >= 4
    int len = 4, flag;
    char v[4];
    check_class(MPI_Info_get_string(info, key, &len, v, &flag), MPI_ERR_INFO_KEY,
                "MPI_Info_get_string of a key of MPI_MAX_INFO_KEY characters");
#endif
  }
  key[MPI_MAX_INFO_KEY] = 'k';
  key[MPI_MAX_INFO_KEY + 1] = '\0';
  check_class(MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set of a key of MPI_MAX_INFO_KEY + 1 characters");

  /* The longest value, MPI_MAX_INFO_VAL - 1 characters, comes back whole. */
  memset(value, 'v', sizeof value);
  value[MPI_MAX_INFO_VAL - 1] = '\0';
  CHECK_MPI(MPI_Info_set(info, "v", value));
  check_value(info, "v", value);
  value[MPI_MAX_INFO_VAL - 1] = 'v';
  value[MPI_MAX_INFO_VAL] = '\0';
  if (!excludes_nul) {
    int rc = MPI_Info_set(info, "v", value);
    check_class(rc, MPI_ERR_INFO_VALUE, "MPI_Info_set of a value of MPI_MAX_INFO_VAL characters");
    check_text(rc, "MPI_Info_set: the value of key \"v\" has");
  }
  value[MPI_MAX_INFO_VAL] = 'v';
  value[MPI_MAX_INFO_VAL + 1] = '\0';
  check_class(MPI_Info_set(info, "v", value), MPI_ERR_INFO_VALUE, "MPI_Info_set of a value of MPI_MAX_INFO_VAL + 1 characters");
  /* a failed set leaves the old value */
  value[MPI_MAX_INFO_VAL - 1] = '\0';
  check_value(info, "v", value);

  /* An empty value is a value (no minimum length). */
  if (!env("INFO_EMPTY_VALUE_REJECTED")) {
    CHECK_MPI(MPI_Info_set(info, "empty", ""));
    check_value(info, "empty", "");
  } else {
    check_class(MPI_Info_set(info, "empty", ""), MPI_ERR_INFO_VALUE, "MPI_Info_set of an empty value");
  }
  /* An empty key is not a key (the standard is silent; MPICH and Open MPI agree). */
  check_class(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY, "MPI_Info_set of an empty key");
  free_info(&info);
}

static void errors(void) {
  MPI_Info info, null = MPI_INFO_NULL, out;
  char key[MPI_MAX_INFO_KEY];
  int n;
  const int null_class = env("INFO_NULL_IS_ERR_ARG") ? MPI_ERR_ARG : MPI_ERR_INFO;
  check_class(MPI_Info_set(MPI_INFO_NULL, "a", "b"), null_class, "MPI_Info_set(MPI_INFO_NULL)");
  check_class(MPI_Info_delete(MPI_INFO_NULL, "a"), null_class, "MPI_Info_delete(MPI_INFO_NULL)");
  check_class(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), null_class, "MPI_Info_get_nkeys(MPI_INFO_NULL)");
  check_class(MPI_Info_get_nthkey(MPI_INFO_NULL, 0, key), null_class, "MPI_Info_get_nthkey(MPI_INFO_NULL)");
  check_class(MPI_Info_dup(MPI_INFO_NULL, &out), null_class, "MPI_Info_dup(MPI_INFO_NULL)");
  check_class(MPI_Info_free(&null), null_class, "MPI_Info_free(MPI_INFO_NULL)");
#if MPI_VERSION >= 4
  {
    int len = 4, flag;
    char v[4];
    check_class(MPI_Info_get_string(MPI_INFO_NULL, "a", &len, v, &flag), null_class, "MPI_Info_get_string(MPI_INFO_NULL)");
  }
#endif

  /* get_nthkey: n in [0, nkeys) */
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "a", "1"));
  CHECK_MPI(MPI_Info_set(info, "b", "2"));
  const int range_class = env("INFO_NTHKEY_RANGE_IS_INFO_KEY") ? MPI_ERR_INFO_KEY : MPI_ERR_ARG;
  int rc = MPI_Info_get_nthkey(info, 2, key);
  check_class(rc, range_class, "MPI_Info_get_nthkey(n = nkeys)");
  check_text(rc, "MPI_Info_get_nthkey: n = 2 is out of range (info has 2 keys)");
  check_class(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG, "MPI_Info_get_nthkey(n = -1)");
  CHECK_MPI(MPI_Info_delete(info, "a"));
  CHECK_MPI(MPI_Info_delete(info, "b"));
  check_class(MPI_Info_get_nthkey(info, 0, key), range_class, "MPI_Info_get_nthkey(0) of an empty info");

  if (!peer) {
    /* shmpi: a freed or garbage handle is MPI_ERR_INFO, not a crash; NULL arguments. */
    MPI_Info freed;
    CHECK_MPI(MPI_Info_dup(info, &freed));
    MPI_Info copy = freed;
    free_info(&freed);
    rc = MPI_Info_set(copy, "a", "b");
    check_class(rc, MPI_ERR_INFO, "MPI_Info_set(a freed info)");
    check_text(rc, "MPI_Info_set: info is not a valid info object");
    check_class(MPI_Info_free(&copy), MPI_ERR_INFO, "MPI_Info_free(a freed info)");
    MPI_Info garbage;
    memset(&garbage, 0x5a, sizeof garbage);
    check_class(MPI_Info_get_nkeys(garbage, &n), MPI_ERR_INFO, "MPI_Info_get_nkeys(garbage)");
    rc = MPI_Info_get_nkeys(MPI_INFO_NULL, &n);
    check_text(rc, "MPI_Info_get_nkeys: info is MPI_INFO_NULL");
    check_class(MPI_Info_create(NULL), MPI_ERR_ARG, "MPI_Info_create(NULL)");
    check_class(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set(key NULL)");
    check_class(MPI_Info_set(info, "k", NULL), MPI_ERR_INFO_VALUE, "MPI_Info_set(value NULL)");
    check_class(MPI_Info_delete(info, ""), MPI_ERR_INFO_KEY, "MPI_Info_delete(empty key)");
    check_class(MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG, "MPI_Info_get_nkeys(nkeys NULL)");
    check_class(MPI_Info_get_nthkey(info, 0, NULL), MPI_ERR_ARG, "MPI_Info_get_nthkey(key NULL)");
    check_class(MPI_Info_dup(info, NULL), MPI_ERR_ARG, "MPI_Info_dup(newinfo NULL)");
    check_class(MPI_Info_free(NULL), MPI_ERR_ARG, "MPI_Info_free(NULL)");
#if MPI_VERSION >= 4
    int len = 4, flag;
    char v[4];
    check_class(MPI_Info_get_string(info, "", &len, v, &flag), MPI_ERR_INFO_KEY, "get_string(empty key)");
    check_class(MPI_Info_get_string(info, "a", NULL, v, &flag), MPI_ERR_ARG, "get_string(buflen NULL)");
    check_class(MPI_Info_get_string(info, "a", &len, v, NULL), MPI_ERR_ARG, "get_string(flag NULL)");
    check_class(MPI_Info_get_string(info, "a", &len, NULL, &flag), MPI_ERR_ARG, "get_string(value NULL, buflen 4)");
    check_class(MPI_Info_create_env(-1, NULL, &out), MPI_ERR_ARG, "MPI_Info_create_env(argc -1)");
    check_class(MPI_Info_create_env(0, NULL, NULL), MPI_ERR_ARG, "MPI_Info_create_env(info NULL)");
#endif
  }
  free_info(&info);
}

static const char* base(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* What any MPI_INFO_ENV-like object may hold: each key once, values within the limits,
 * and where the standard's keys are present, values that fit this process. */
static void check_env_object(MPI_Info e, const char* command, const char* args, const char* what) {
  const int n = nkeys(e);
  for (int i = 0; i < n; ++i) {
    char key[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_get_nthkey(e, i, key));
    CHECK(get(e, key, big, (int)sizeof big) == 1, "%s: key %d \"%s\" has no value", what, i, key);
    CHECK((int)strlen(big) < MPI_MAX_INFO_VAL, "%s: \"%s\" is longer than MPI_MAX_INFO_VAL", what, key);
  }
  if (get(e, "command", big, (int)sizeof big)) {
    CHECK(strcmp(base(big), base(command)) == 0, "%s: command \"%s\", expected \"%s\"", what, big, command);
  }
  if (get(e, "argv", big, (int)sizeof big) && args != NULL) {
    CHECK(strcmp(big, args) == 0, "%s: argv \"%s\", expected \"%s\"", what, big, args);
  }
  if (get(e, "maxprocs", big, (int)sizeof big)) {
    CHECK(atoi(big) == size, "%s: maxprocs \"%s\", expected %d", what, big, size);
  }
}

static void environment(int argc, char** argv) {
  MPI_Info dup;
  check_env_object(MPI_INFO_ENV, argv[0], NULL, "MPI_INFO_ENV");
  CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &dup));
  CHECK(nkeys(dup) == nkeys(MPI_INFO_ENV), "dup of MPI_INFO_ENV: %d keys, MPI_INFO_ENV %d", nkeys(dup),
        nkeys(MPI_INFO_ENV));
  check_env_object(dup, argv[0], NULL, "dup of MPI_INFO_ENV");
  CHECK_MPI(MPI_Info_set(dup, "mine", "1")); /* the dup is the user's */
  free_info(&dup);
#if MPI_VERSION >= 4
  {
    MPI_Info e;
    char* args[] = {argv[0], "x", "y", NULL};
    CHECK_MPI(MPI_Info_create_env(3, args, &e));
    check_env_object(e, argv[0], "x y", "MPI_Info_create_env(3 arguments)");
    if (!peer) {
      check_value(e, "command", argv[0]);
      check_value(e, "argv", "x y");
    }
    CHECK_MPI(MPI_Info_set(e, "mine", "1"));
    free_info(&e);
    CHECK_MPI(MPI_Info_create_env(0, NULL, &e));
    check_env_object(e, argv[0], NULL, "MPI_Info_create_env(0, NULL)");
    free_info(&e);
  }
#endif
  if (!peer) {
    /* shmpi: command and argv as the process was started, maxprocs the job's size, host
     * and arch; nothing it cannot know. MPI_INFO_ENV is read-only and cannot be freed. */
    char expect[16];
    check_value(MPI_INFO_ENV, "command", argv[0]);
    if (argc == 1) check_absent(MPI_INFO_ENV, "argv");
    snprintf(expect, sizeof expect, "%d", size);
    check_value(MPI_INFO_ENV, "maxprocs", expect);
    CHECK(get(MPI_INFO_ENV, "host", big, (int)sizeof big) == 1 && big[0] != '\0', "MPI_INFO_ENV has no host");
    CHECK(get(MPI_INFO_ENV, "arch", big, (int)sizeof big) == 1 && big[0] != '\0', "MPI_INFO_ENV has no arch");
    check_absent(MPI_INFO_ENV, "thread_level");
    check_absent(MPI_INFO_ENV, "wdir");
    MPI_Info e = MPI_INFO_ENV;
    int rc = MPI_Info_free(&e);
    check_class(rc, MPI_ERR_INFO, "MPI_Info_free(MPI_INFO_ENV)");
    check_text(rc, "MPI_Info_free: info is MPI_INFO_ENV, which cannot be freed");
    CHECK(e == MPI_INFO_ENV, "a failed free changed the handle");
    check_class(MPI_Info_set(MPI_INFO_ENV, "x", "y"), MPI_ERR_INFO, "MPI_Info_set(MPI_INFO_ENV)");
    check_class(MPI_Info_delete(MPI_INFO_ENV, "command"), MPI_ERR_INFO, "MPI_Info_delete(MPI_INFO_ENV)");
    check_value(MPI_INFO_ENV, "command", argv[0]);
  }
}

int main(int argc, char** argv) {
  peer = env("INFO_PEER");
#if MPI_VERSION >= 4
  /* MPI-4: the info calls work before MPI_Init. */
  {
    MPI_Info early;
    CHECK_MPI(MPI_Info_create(&early));
    CHECK_MPI(MPI_Info_set(early, "early", "yes"));
    check_value(early, "early", "yes");
    free_info(&early);
  }
#endif
  MPI_Init(&argc, &argv);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  basics();
  get_string();
  lengths();
  get_valuelen();
  errors();
  environment(argc, argv);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
