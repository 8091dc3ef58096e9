/* Bad-input catalogue: info objects (docs/errors.md). Every MPI_Info_* call
 * (MPI_Info_get_string and MPI_Info_create_env are MPI-4: built only where
 * MPI_VERSION >= 4).
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1; chapter 10): MPI_ERR_INFO
 * (invalid info object, MPI_INFO_NULL included), MPI_ERR_INFO_KEY (a key longer than
 * MPI_MAX_INFO_KEY - 1 characters), MPI_ERR_INFO_VALUE (a value longer than
 * MPI_MAX_INFO_VAL - 1), MPI_ERR_INFO_NOKEY (MPI_Info_delete of a key that is not set),
 * MPI_ERR_ARG (MPI_Info_get_nthkey's n out of range). NULL keys and values, empty keys,
 * NULL output pointers, modifying or freeing MPI_INFO_ENV and freed handles are shmpi's
 * promise (IMPL), except where MPICH and Open MPI answer with the same class (STD). Info
 * calls are local. */
#include "bad_input.h"

static MPI_Info info, deadinfo, newinfo, infonull = MPI_INFO_NULL, infoenv = MPI_INFO_ENV;
static char *longkey, *longval, value[64], key[MPI_MAX_INFO_KEY];
static int flag, len, neg = -1;

static char* repeated(char c, size_t n) {
  char* s = (char*)malloc(n + 1);
  CHECK(s != NULL, "malloc failed");
  memset(s, c, n);
  s[n] = '\0';
  return s;
}

static void setup(void) {
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "k", "v"));
  CHECK_MPI(MPI_Info_create(&deadinfo));
  MPI_Info i = deadinfo;
  CHECK_MPI(MPI_Info_free(&i));
  /* Too long however MPI_MAX_INFO_KEY/VAL are read: with or without the terminating null. */
  longkey = repeated('k', MPI_MAX_INFO_KEY + 1);
  longval = repeated('v', MPI_MAX_INFO_VAL + 1);
  newinfo = MPI_INFO_NULL;
  watch(&info, sizeof info);
  watch(&newinfo, sizeof newinfo);
  watch(&infonull, sizeof infonull);
  watch(&infoenv, sizeof infoenv);
  watch(value, sizeof value);
  watch(key, sizeof key);
  watch(&flag, sizeof flag);
  watch(&len, sizeof len);
  watch(&neg, sizeof neg);
}

static void teardown(void) {
  int n = -1;
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n == 1, "info has %d keys after the rows, not 1", n);
  CHECK_MPI(MPI_Info_free(&info));
  free(longkey);
  free(longval);
}

#define INFO_ROWS(X, P, F, ...)                                                                              \
  X(P##_info, #F, "info", "MPI_INFO_NULL", MPI_ERR_INFO, STD, F(MPI_INFO_NULL, __VA_ARGS__))                 \
  X(P##_info_freed, #F, "info", "freed info", MPI_ERR_INFO, IMPL, F(deadinfo, __VA_ARGS__))

#if MPI_VERSION >= 4
static int buflen = 64;
#define ROWS_4(X)                                                                                            \
  INFO_ROWS(X, info_get_string, MPI_Info_get_string, "k", &buflen, value, &flag)                             \
  X(info_get_string_key_long, "MPI_Info_get_string", "key", "MPI_MAX_INFO_KEY + 1 characters", MPI_ERR_INFO_KEY, STD, \
    MPI_Info_get_string(info, longkey, &buflen, value, &flag))                                               \
  X(info_get_string_buflen, "MPI_Info_get_string", "buflen", "NULL", MPI_ERR_ARG, IMPL,                     \
    MPI_Info_get_string(info, "k", NULL, value, &flag))                                                      \
  X(info_get_string_buflen_neg, "MPI_Info_get_string", "*buflen", "-1", MPI_ERR_ARG, IMPL,                  \
    MPI_Info_get_string(info, "k", &neg, value, &flag))                                                      \
  X(info_get_string_value, "MPI_Info_get_string", "value", "NULL (*buflen 64)", MPI_ERR_ARG, IMPL,          \
    MPI_Info_get_string(info, "k", &buflen, NULL, &flag))                                                    \
  X(info_get_string_flag, "MPI_Info_get_string", "flag", "NULL", MPI_ERR_ARG, IMPL,                         \
    MPI_Info_get_string(info, "k", &buflen, value, NULL))                                                    \
  X(info_create_env_info, "MPI_Info_create_env", "info", "NULL", MPI_ERR_ARG, IMPL, MPI_Info_create_env(0, NULL, NULL)) \
  X(info_create_env_argc, "MPI_Info_create_env", "argc", "-1", MPI_ERR_ARG, IMPL, MPI_Info_create_env(-1, NULL, &newinfo))
#else
#define ROWS_4(X)
#endif

#define ROWS(X)                                                                                              \
  X(info_create_info, "MPI_Info_create", "info", "NULL", MPI_ERR_ARG, IMPL, MPI_Info_create(NULL))           \
  INFO_ROWS(X, info_set, MPI_Info_set, "k", "v")                                                             \
  X(info_set_env, "MPI_Info_set", "info", "MPI_INFO_ENV", MPI_ERR_INFO, IMPL, MPI_Info_set(MPI_INFO_ENV, "k", "v")) \
  X(info_set_key_null, "MPI_Info_set", "key", "NULL", MPI_ERR_INFO_KEY, STD, MPI_Info_set(info, NULL, "v")) \
  X(info_set_key_empty, "MPI_Info_set", "key", "\"\"", MPI_ERR_INFO_KEY, STD, MPI_Info_set(info, "", "v"))  \
  X(info_set_key_long, "MPI_Info_set", "key", "MPI_MAX_INFO_KEY + 1 characters", MPI_ERR_INFO_KEY, STD,         \
    MPI_Info_set(info, longkey, "v"))                                                                        \
  X(info_set_value_null, "MPI_Info_set", "value", "NULL", MPI_ERR_INFO_VALUE, IMPL, MPI_Info_set(info, "k", NULL)) \
  X(info_set_value_long, "MPI_Info_set", "value", "MPI_MAX_INFO_VAL + 1 characters", MPI_ERR_INFO_VALUE, STD,   \
    MPI_Info_set(info, "k", longval))                                                                        \
  INFO_ROWS(X, info_delete, MPI_Info_delete, "k")                                                            \
  X(info_delete_env, "MPI_Info_delete", "info", "MPI_INFO_ENV", MPI_ERR_INFO, IMPL, MPI_Info_delete(MPI_INFO_ENV, "k")) \
  X(info_delete_key_long, "MPI_Info_delete", "key", "MPI_MAX_INFO_KEY + 1 characters", MPI_ERR_INFO_KEY, STD,   \
    MPI_Info_delete(info, longkey))                                                                          \
  X(info_delete_nokey, "MPI_Info_delete", "key", "\"nokey\" (not set)", MPI_ERR_INFO_NOKEY, STD,            \
    MPI_Info_delete(info, "nokey"))                                                                          \
  INFO_ROWS(X, info_get, MPI_Info_get, "k", 63, value, &flag)                                                \
  X(info_get_key_long, "MPI_Info_get", "key", "MPI_MAX_INFO_KEY + 1 characters", MPI_ERR_INFO_KEY, STD,         \
    MPI_Info_get(info, longkey, 63, value, &flag))                                                           \
  X(info_get_valuelen, "MPI_Info_get", "valuelen", "-1", MPI_ERR_ARG, STD, MPI_Info_get(info, "k", -1, value, &flag)) \
  X(info_get_value, "MPI_Info_get", "value", "NULL", MPI_ERR_ARG, IMPL, MPI_Info_get(info, "k", 63, NULL, &flag)) \
  X(info_get_flag, "MPI_Info_get", "flag", "NULL", MPI_ERR_ARG, STD, MPI_Info_get(info, "k", 63, value, NULL)) \
  INFO_ROWS(X, info_get_valuelen, MPI_Info_get_valuelen, "k", &len, &flag)                                   \
  X(info_get_valuelen_key_long, "MPI_Info_get_valuelen", "key", "MPI_MAX_INFO_KEY + 1 characters", MPI_ERR_INFO_KEY, \
    STD, MPI_Info_get_valuelen(info, longkey, &len, &flag))                                                  \
  X(info_get_valuelen_valuelen, "MPI_Info_get_valuelen", "valuelen", "NULL", MPI_ERR_ARG, STD,             \
    MPI_Info_get_valuelen(info, "k", NULL, &flag))                                                           \
  X(info_get_valuelen_flag, "MPI_Info_get_valuelen", "flag", "NULL", MPI_ERR_ARG, STD,                     \
    MPI_Info_get_valuelen(info, "k", &len, NULL))                                                            \
  INFO_ROWS(X, info_get_nkeys, MPI_Info_get_nkeys, &len)                                                     \
  X(info_get_nkeys_nkeys, "MPI_Info_get_nkeys", "nkeys", "NULL", MPI_ERR_ARG, STD, MPI_Info_get_nkeys(info, NULL)) \
  INFO_ROWS(X, info_get_nthkey, MPI_Info_get_nthkey, 0, key)                                                 \
  X(info_get_nthkey_n_neg, "MPI_Info_get_nthkey", "n", "-1", MPI_ERR_ARG, STD, MPI_Info_get_nthkey(info, -1, key)) \
  X(info_get_nthkey_n_range, "MPI_Info_get_nthkey", "n", "1 (info has 1 key)", MPI_ERR_ARG, IMPL,           \
    MPI_Info_get_nthkey(info, 1, key))                                                                       \
  X(info_get_nthkey_key, "MPI_Info_get_nthkey", "key", "NULL", MPI_ERR_ARG, IMPL, MPI_Info_get_nthkey(info, 0, NULL)) \
  INFO_ROWS(X, info_dup, MPI_Info_dup, &newinfo)                                                             \
  X(info_dup_newinfo, "MPI_Info_dup", "newinfo", "NULL", MPI_ERR_ARG, IMPL, MPI_Info_dup(info, NULL))        \
  X(info_free_ptr, "MPI_Info_free", "info", "NULL", MPI_ERR_ARG, IMPL, MPI_Info_free(NULL))                 \
  X(info_free_null, "MPI_Info_free", "*info", "MPI_INFO_NULL", MPI_ERR_INFO, STD, MPI_Info_free(&infonull))  \
  X(info_free_freed, "MPI_Info_free", "*info", "freed info", MPI_ERR_INFO, IMPL, MPI_Info_free(&deadinfo))   \
  X(info_free_env, "MPI_Info_free", "*info", "MPI_INFO_ENV", MPI_ERR_INFO, IMPL, MPI_Info_free(&infoenv))   \
  ROWS_4(X)

BAD_INPUT_MAIN("Info objects", ROWS, setup, teardown)
