// Info objects (MPI-4.1 chapter 10): MPI_Info_create, _set, _delete, _get_string,
// _get_nkeys, _get_nthkey, _dup, _free, _create_env. MPI-4 allows the info calls before
// MPI_Init and after MPI_Finalize, so none checks the MPI state; errors are raised on
// MPI_COMM_SELF (no communicator is involved).
//
// Lengths: MPI_MAX_INFO_KEY and MPI_MAX_INFO_VAL count the terminating null in C
// (the language-binding rule: C's string-length constants include it), so a key has at most
// MPI_MAX_INFO_KEY - 1 characters and a value at most MPI_MAX_INFO_VAL - 1; anything
// longer is MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE. An empty key is MPI_ERR_INFO_KEY; an
// empty value is a value.
#include <algorithm>
#include <cstring>

#include "api.hpp"
#include "info/info.hpp"

using namespace shmpi::client;

namespace {

std::string quoted(const char* s, std::size_t max = 40) {
  const std::size_t n = std::strlen(s);
  return n <= max ? "\"" + std::string(s) + "\"" : "\"" + std::string(s, max) + "...\"";
}

int null_arg(const char* call, const char* name) {
  return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": " + name + " is NULL");
}

// The object behind `info`, or nullptr after raising MPI_ERR_INFO.
InfoObj* info_arg(MPI_Info info, const char* call, int& rc) {
  InfoObj* i = to_info(info);
  if (i == nullptr) {
    rc = raise(nullptr, MPI_ERR_INFO, std::string(call) + ": info is " +
                                          (info == MPI_INFO_NULL ? "MPI_INFO_NULL" : "not a valid info object (freed or never created)"));
  }
  return i;
}

// info_arg for the calls that modify the object: MPI_INFO_ENV describes how the program
// was started and stays as it is.
InfoObj* mutable_info_arg(MPI_Info info, const char* call, int& rc) {
  InfoObj* i = info_arg(info, call, rc);
  if (i != nullptr && is_predefined(i)) {
    rc = raise(nullptr, MPI_ERR_INFO, std::string(call) + ": info is MPI_INFO_ENV, which cannot be modified (MPI_Info_dup it)");
    return nullptr;
  }
  return i;
}

int check_key(const char* call, const char* key) {
  if (key == nullptr) return raise(nullptr, MPI_ERR_INFO_KEY, std::string(call) + ": key is NULL");
  const std::size_t n = std::strlen(key);
  if (n == 0) return raise(nullptr, MPI_ERR_INFO_KEY, std::string(call) + ": key is empty");
  if (n >= static_cast<std::size_t>(MPI_MAX_INFO_KEY)) {
    return raise(nullptr, MPI_ERR_INFO_KEY, std::string(call) + ": key " + quoted(key) + " has " + std::to_string(n) +
                                                " characters, more than MPI_MAX_INFO_KEY - 1 = " +
                                                std::to_string(MPI_MAX_INFO_KEY - 1));
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Info_create(MPI_Info* info) {
  if (info == nullptr) return null_arg("MPI_Info_create", "info");
  *info = new_info_handle({});
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_create, (MPI_Info*))

extern "C" int PMPI_Info_set(MPI_Info info, const char* key, const char* value) {
  const char* call = "MPI_Info_set";
  int rc = MPI_SUCCESS;
  InfoObj* i = mutable_info_arg(info, call, rc);
  if (i == nullptr) return rc;
  if ((rc = check_key(call, key)) != MPI_SUCCESS) return rc;
  if (value == nullptr) return raise(nullptr, MPI_ERR_INFO_VALUE, std::string(call) + ": value is NULL");
  const std::size_t n = std::strlen(value);
  if (n >= static_cast<std::size_t>(MPI_MAX_INFO_VAL)) {
    return raise(nullptr, MPI_ERR_INFO_VALUE, std::string(call) + ": the value of key " + quoted(key) + " has " +
                                                  std::to_string(n) + " characters, more than MPI_MAX_INFO_VAL - 1 = " +
                                                  std::to_string(MPI_MAX_INFO_VAL - 1));
  }
  if (auto* e = find_entry(*i, key)) {
    e->second.assign(value, n);  // a new value keeps the key's place
  } else {
    i->entries.emplace_back(key, std::string(value, n));
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_set, (MPI_Info, const char*, const char*))

extern "C" int PMPI_Info_delete(MPI_Info info, const char* key) {
  const char* call = "MPI_Info_delete";
  int rc = MPI_SUCCESS;
  InfoObj* i = mutable_info_arg(info, call, rc);
  if (i == nullptr) return rc;
  if ((rc = check_key(call, key)) != MPI_SUCCESS) return rc;
  auto it = std::find_if(i->entries.begin(), i->entries.end(), [&](const auto& e) { return e.first == key; });
  if (it == i->entries.end()) {
    return raise(nullptr, MPI_ERR_INFO_NOKEY, std::string(call) + ": key " + quoted(key) + " is not set in info");
  }
  i->entries.erase(it);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_delete, (MPI_Info, const char*))

// MPI-4.1 10: *buflen is the size of value, terminating null included; on return it
// is the size the whole value needs. A shorter buffer gets the value cut and
// null-terminated; buflen 0 only asks for the size (value untouched). A missing key sets
// flag to false and leaves value and buflen alone.
extern "C" int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  const char* call = "MPI_Info_get_string";
  int rc = MPI_SUCCESS;
  InfoObj* i = info_arg(info, call, rc);
  if (i == nullptr) return rc;
  if ((rc = check_key(call, key)) != MPI_SUCCESS) return rc;
  if (buflen == nullptr) return null_arg(call, "buflen");
  if (flag == nullptr) return null_arg(call, "flag");
  if (*buflen < 0) {
    return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": *buflen = " + std::to_string(*buflen) + " is negative");
  }
  if (*buflen > 0 && value == nullptr) return null_arg(call, "value (with *buflen > 0)");
  const auto* e = find_entry(*i, key);
  if (e == nullptr) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  const std::string& v = e->second;
  if (*buflen > 0) {
    const std::size_t n = std::min(v.size(), static_cast<std::size_t>(*buflen) - 1);
    std::memcpy(value, v.data(), n);
    value[n] = '\0';
  }
  *buflen = static_cast<int>(v.size()) + 1;
  *flag = 1;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_get_string, (MPI_Info, const char*, int*, char*, int*))

// MPI-3.1 9.4 (deprecated in MPI-4.0, kept for source compatibility): `value` holds
// valuelen characters plus the terminating null; longer values are truncated.
extern "C" int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  const char* call = "MPI_Info_get";
  int rc = MPI_SUCCESS;
  InfoObj* i = info_arg(info, call, rc);
  if (i == nullptr) return rc;
  if ((rc = check_key(call, key)) != MPI_SUCCESS) return rc;
  if (flag == nullptr) return null_arg(call, "flag");
  if (valuelen < 0) {
    return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": valuelen = " + std::to_string(valuelen) + " is negative");
  }
  if (value == nullptr) return null_arg(call, "value");
  const auto* e = find_entry(*i, key);
  *flag = e != nullptr ? 1 : 0;
  if (e == nullptr) return MPI_SUCCESS;
  const std::size_t n = std::min(e->second.size(), static_cast<std::size_t>(valuelen));
  std::memcpy(value, e->second.data(), n);
  value[n] = '\0';
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_get, (MPI_Info, const char*, int, char*, int*))

extern "C" int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  const char* call = "MPI_Info_get_valuelen";
  int rc = MPI_SUCCESS;
  InfoObj* i = info_arg(info, call, rc);
  if (i == nullptr) return rc;
  if ((rc = check_key(call, key)) != MPI_SUCCESS) return rc;
  if (valuelen == nullptr) return null_arg(call, "valuelen");
  if (flag == nullptr) return null_arg(call, "flag");
  const auto* e = find_entry(*i, key);
  *flag = e != nullptr ? 1 : 0;
  if (e != nullptr) *valuelen = static_cast<int>(e->second.size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_get_valuelen, (MPI_Info, const char*, int*, int*))

extern "C" int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  int rc = MPI_SUCCESS;
  InfoObj* i = info_arg(info, "MPI_Info_get_nkeys", rc);
  if (i == nullptr) return rc;
  if (nkeys == nullptr) return null_arg("MPI_Info_get_nkeys", "nkeys");
  *nkeys = static_cast<int>(i->entries.size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_get_nkeys, (MPI_Info, int*))

extern "C" int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  const char* call = "MPI_Info_get_nthkey";
  int rc = MPI_SUCCESS;
  InfoObj* i = info_arg(info, call, rc);
  if (i == nullptr) return rc;
  if (key == nullptr) return null_arg(call, "key");
  const int nkeys = static_cast<int>(i->entries.size());
  if (n < 0 || n >= nkeys) {
    return raise(nullptr, MPI_ERR_ARG, std::string(call) + ": n = " + std::to_string(n) + " is out of range (info has " +
                                           std::to_string(nkeys) + (nkeys == 1 ? " key)" : " keys)"));
  }
  const std::string& k = i->entries[static_cast<std::size_t>(n)].first;  // < MPI_MAX_INFO_KEY characters
  std::memcpy(key, k.c_str(), k.size() + 1);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_get_nthkey, (MPI_Info, int, char*))

extern "C" int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  int rc = MPI_SUCCESS;
  InfoObj* i = info_arg(info, "MPI_Info_dup", rc);
  if (i == nullptr) return rc;
  if (newinfo == nullptr) return null_arg("MPI_Info_dup", "newinfo");
  *newinfo = new_info_handle(*i);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_dup, (MPI_Info, MPI_Info*))

extern "C" int PMPI_Info_free(MPI_Info* info) {
  if (info == nullptr) return null_arg("MPI_Info_free", "info");
  int rc = MPI_SUCCESS;
  InfoObj* i = info_arg(*info, "MPI_Info_free", rc);
  if (i == nullptr) return rc;
  if (is_predefined(i)) return raise(nullptr, MPI_ERR_INFO, "MPI_Info_free: info is MPI_INFO_ENV, which cannot be freed");
  free_info(i);
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_free, (MPI_Info*))

// MPI_Info_create_env (MPI-4.1 chapter 11): a new object built as MPI_INFO_ENV would be from these arguments.
// argc 0 (or argv NULL) is what MPI_Init(NULL, NULL) passes: the command line comes from
// the process itself then.
extern "C" int PMPI_Info_create_env(int argc, char* argv[], MPI_Info* info) {
  if (info == nullptr) return null_arg("MPI_Info_create_env", "info");
  if (argc < 0) return raise(nullptr, MPI_ERR_ARG, "MPI_Info_create_env: argc = " + std::to_string(argc) + " is negative");
  *info = new_info_handle(env_info(argc, argv));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(int, MPI_Info_create_env, (int, char*[], MPI_Info*))
