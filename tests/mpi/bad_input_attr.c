/* Bad-input catalogue: attributes and keyvals on communicators, datatypes and windows
 * (docs/errors.md): MPI_{Comm,Type,Win}_{create,free}_keyval and
 * MPI_{Comm,Type,Win}_{set,get,delete}_attr.
 *
 * Classes the standard names (MPI-4.1 9.4, Table 9.1; 7.7): MPI_ERR_KEYVAL (invalid
 * keyval: MPI_KEYVAL_INVALID, another kind's keyval, a predefined attribute set, deleted
 * or freed), MPI_ERR_COMM / MPI_ERR_TYPE / MPI_ERR_WIN for the object. Freed keyvals and
 * NULL pointers are shmpi's promise (IMPL), except where MPICH and Open MPI answer with
 * MPI_ERR_ARG too (STD). Attribute calls are local. */
#include "bad_input.h"

static int ckey, tkey, wkey, deadkey, keynull = MPI_KEYVAL_INVALID, tagub = MPI_TAG_UB, out, flag;
static void* val;
static MPI_Win win;
static MPI_Datatype vec;
static int* winmem;

static void setup(void) {
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL));
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkey, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &deadkey, NULL));
  int k = deadkey;
  CHECK_MPI(MPI_Comm_free_keyval(&k));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &vec));
  winmem = (int*)guarded_alloc(4 * sizeof(int));
  CHECK_MPI(MPI_Win_create(winmem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, ckey, &out));
  watch(winmem, 4 * sizeof(int));
  watch(&ckey, sizeof ckey);
  watch(&tkey, sizeof tkey);
  watch(&wkey, sizeof wkey);
  watch(&deadkey, sizeof deadkey);
  watch(&keynull, sizeof keynull);
  watch(&tagub, sizeof tagub);
  watch(&flag, sizeof flag);
  watch(&val, sizeof val);
}

static void teardown(void) {
  void* v = NULL;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, ckey, &v, &flag));
  CHECK(flag && v == &out, "MPI_COMM_WORLD's attribute changed by the rows");
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, ckey));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Type_free(&vec));
  CHECK_MPI(MPI_Comm_free_keyval(&ckey));
  CHECK_MPI(MPI_Type_free_keyval(&tkey));
  CHECK_MPI(MPI_Win_free_keyval(&wkey));
}

/* KIND: Comm/Type/Win; OBJ a valid object, NULLOBJ its null handle with class NULLCLS;
 * KEY this kind's keyval, OTHER another kind's; CF, DF its null callbacks. */
#define ATTR_ROWS(X, P, KIND, OBJ, NULLOBJ, NULLNAME, NULLCLS, KEY, OTHER, CF, DF)                                       \
  X(P##_create_keyval_keyval, "MPI_" #KIND "_create_keyval", "keyval", "NULL", MPI_ERR_ARG, STD,                \
    MPI_##KIND##_create_keyval(CF, DF, NULL, NULL))                                                            \
  X(P##_free_keyval_ptr, "MPI_" #KIND "_free_keyval", "keyval", "NULL", MPI_ERR_ARG, STD, MPI_##KIND##_free_keyval(NULL)) \
  X(P##_free_keyval_invalid, "MPI_" #KIND "_free_keyval", "*keyval", "MPI_KEYVAL_INVALID", MPI_ERR_KEYVAL, STD,  \
    MPI_##KIND##_free_keyval(&keynull))                                                                            \
  X(P##_free_keyval_kind, "MPI_" #KIND "_free_keyval", "*keyval", "another kind's keyval", MPI_ERR_KEYVAL, STD,  \
    MPI_##KIND##_free_keyval(&OTHER))                                                                              \
  X(P##_set_attr_obj, "MPI_" #KIND "_set_attr", NULLNAME, #NULLOBJ, NULLCLS, STD, MPI_##KIND##_set_attr(NULLOBJ, KEY, &out)) \
  X(P##_set_attr_invalid, "MPI_" #KIND "_set_attr", "keyval", "MPI_KEYVAL_INVALID", MPI_ERR_KEYVAL, STD,         \
    MPI_##KIND##_set_attr(OBJ, MPI_KEYVAL_INVALID, &out))                                                          \
  X(P##_set_attr_kind, "MPI_" #KIND "_set_attr", "keyval", "another kind's keyval", MPI_ERR_KEYVAL, STD,         \
    MPI_##KIND##_set_attr(OBJ, OTHER, &out))                                                                       \
  X(P##_get_attr_obj, "MPI_" #KIND "_get_attr", NULLNAME, #NULLOBJ, NULLCLS, STD,                                \
    MPI_##KIND##_get_attr(NULLOBJ, KEY, &val, &flag))                                                              \
  X(P##_get_attr_invalid, "MPI_" #KIND "_get_attr", "keyval", "MPI_KEYVAL_INVALID", MPI_ERR_KEYVAL, STD,         \
    MPI_##KIND##_get_attr(OBJ, MPI_KEYVAL_INVALID, &val, &flag))                                                   \
  X(P##_get_attr_kind, "MPI_" #KIND "_get_attr", "keyval", "another kind's keyval", MPI_ERR_KEYVAL, STD,         \
    MPI_##KIND##_get_attr(OBJ, OTHER, &val, &flag))                                                                \
  X(P##_get_attr_val, "MPI_" #KIND "_get_attr", "attribute_val", "NULL", MPI_ERR_ARG, STD,                      \
    MPI_##KIND##_get_attr(OBJ, KEY, NULL, &flag))                                                                  \
  X(P##_get_attr_flag, "MPI_" #KIND "_get_attr", "flag", "NULL", MPI_ERR_ARG, STD, MPI_##KIND##_get_attr(OBJ, KEY, &val, NULL)) \
  X(P##_delete_attr_obj, "MPI_" #KIND "_delete_attr", NULLNAME, #NULLOBJ, NULLCLS, STD,                          \
    MPI_##KIND##_delete_attr(NULLOBJ, KEY))                                                                        \
  X(P##_delete_attr_invalid, "MPI_" #KIND "_delete_attr", "keyval", "MPI_KEYVAL_INVALID", MPI_ERR_KEYVAL, STD,   \
    MPI_##KIND##_delete_attr(OBJ, MPI_KEYVAL_INVALID))                                                             \
  X(P##_delete_attr_kind, "MPI_" #KIND "_delete_attr", "keyval", "another kind's keyval", MPI_ERR_KEYVAL, STD,   \
    MPI_##KIND##_delete_attr(OBJ, OTHER))

#define ROWS(X)                                                                                                    \
  ATTR_ROWS(X, comm, Comm, MPI_COMM_WORLD, MPI_COMM_NULL, "comm", MPI_ERR_COMM, ckey, tkey, MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN)                        \
  X(comm_free_keyval_predefined, "MPI_Comm_free_keyval", "*keyval", "MPI_TAG_UB (predefined)", MPI_ERR_KEYVAL, STD, \
    MPI_Comm_free_keyval(&tagub))                                                                                  \
  X(comm_free_keyval_freed, "MPI_Comm_free_keyval", "*keyval", "freed keyval", MPI_ERR_KEYVAL, IMPL,              \
    MPI_Comm_free_keyval(&deadkey))                                                                                \
  X(comm_set_attr_predefined, "MPI_Comm_set_attr", "keyval", "MPI_TAG_UB (predefined)", MPI_ERR_KEYVAL, STD,      \
    MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &out))                                                           \
  X(comm_set_attr_freed, "MPI_Comm_set_attr", "keyval", "freed keyval", MPI_ERR_KEYVAL, IMPL,                     \
    MPI_Comm_set_attr(MPI_COMM_WORLD, deadkey, &out))                                                              \
  X(comm_delete_attr_predefined, "MPI_Comm_delete_attr", "keyval", "MPI_TAG_UB (predefined)", MPI_ERR_KEYVAL, STD, \
    MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB))                                                              \
  ATTR_ROWS(X, type, Type, vec, MPI_DATATYPE_NULL, "datatype", MPI_ERR_TYPE, tkey, wkey, MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN)                           \
  ATTR_ROWS(X, win, Win, win, MPI_WIN_NULL, "win", MPI_ERR_WIN, wkey, ckey, MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN)                                        \
  X(win_set_attr_predefined, "MPI_Win_set_attr", "keyval", "MPI_WIN_BASE (predefined)", MPI_ERR_KEYVAL, STD,      \
    MPI_Win_set_attr(win, MPI_WIN_BASE, &out))

BAD_INPUT_MAIN("Attributes and keyvals", ROWS, setup, teardown)
